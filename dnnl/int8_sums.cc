#include "dnnl/int8_sums.h"

#include <oneapi/dnnl/dnnl.hpp>

namespace cnnx {

bool int8_implementation_pairs_in_16_bits(const std::string& impl, bool cpu_has_vnni) {
  const std::string isa = impl.substr(impl.rfind(':') + 1);
  const auto has = [&](const char* part) { return isa.find(part) != std::string::npos; };
  if (isa == "any" || has("vnni") || has("amx") || has("bf16")) return false;
  if (isa == "sse41" || isa == "avx" || isa == "avx2" || isa == "avx512_core" || isa.rfind("avx512_mic", 0) == 0)
    return true;
  return !cpu_has_vnni;
}

bool dnnl_cpu_has_int8_vnni() {
  using dnnl::cpu_isa;
  const cpu_isa isa = dnnl::get_effective_cpu_isa();
  return isa == cpu_isa::avx512_core_vnni || isa == cpu_isa::avx512_core_bf16 || isa == cpu_isa::avx512_core_amx ||
         isa == cpu_isa::avx2_vnni;
}

}  // namespace cnnx
