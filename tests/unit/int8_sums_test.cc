// dnnl/int8_sums.h: which oneDNN int8 implementations add u8 x s8 products in saturating 16-bit pairs (the
// int8 convolution splits its weights for those), read from the implementation names oneDNN 2.6 gives, and,
// on this CPU, that the implementation oneDNN picks for the int8 convolutions cnnx asks for agrees with the
// CPU's instruction set: VNNI kernels on a VNNI CPU (the single-pass path), pairing ones without VNNI
// (ONEDNN_MAX_CPU_ISA=AVX2, as CI reruns these tests: the split path).
#include <doctest/doctest.h>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dnnl/int8_sums.h"

using namespace cnnx;

TEST_CASE("int8 implementations pair products in 16 bits exactly when their instruction set lacks VNNI") {
  struct Case {
    const char* impl;
    bool cpu_vnni, pairs;
  };
  const std::vector<Case> cases = {
      {"brgconv_1x1:avx512_core_vnni", true, false}, {"brgconv:avx512_core_vnni", false, false},
      {"brdgmm_dw:avx512_core_vnni", true, false},   {"jit_int8:avx512_core_vnni", true, false},
      {"brgconv:avx512_core_amx", true, false},      {"jit_uni_int8:avx2_vnni", true, false},
      {"brgconv:avx512_core_bf16", true, false},     {"ref:any", false, false},
      {"jit_int8:avx512_core", true, true},          {"jit_int8_1x1:avx512_core", false, true},
      {"jit_uni_int8_1x1:avx2", true, true},         {"jit_uni_int8:avx2", false, true},
      {"jit_uni_int8:sse41", false, true},           {"gemm:jit", true, false},
      {"gemm:jit", false, true}};
  for (const Case& c : cases) {
    CAPTURE(c.impl);
    CAPTURE(c.cpu_vnni);
    CHECK(int8_implementation_pairs_in_16_bits(c.impl, c.cpu_vnni) == c.pairs);
  }
}

TEST_CASE("dnnl_cpu_has_int8_vnni follows the CPU unless ONEDNN_MAX_CPU_ISA caps it") {
  if (std::getenv("ONEDNN_MAX_CPU_ISA") || std::getenv("DNNL_MAX_CPU_ISA")) return;  // capped: another CPU
  // The kernel's flags (clang 14's __builtin_cpu_supports does not know "avxvnni").
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line) && line.rfind("flags", 0) != 0) {
  }
  std::istringstream flags(line);
  bool vnni = false;
  for (std::string flag; flags >> flag;) vnni = vnni || flag == "avx512_vnni" || flag == "avx_vnni";
  CAPTURE(line.size());
  CHECK(dnnl_cpu_has_int8_vnni() == vnni);
}

TEST_CASE("oneDNN's int8 convolutions pair products in 16 bits exactly on CPUs without VNNI") {
  using namespace dnnl;
  using tag = memory::format_tag;
  using dt = memory::data_type;
  const engine eng(engine::kind::cpu, 0);
  const bool vnni = dnnl_cpu_has_int8_vnni();
  struct Shape {
    memory::dim IC, OC, K, G;
  };
  // What the int8 convolution asks for (ops/quant/qlinear_conv_dnnl.cc): u8 src channels-last, s8 weights in
  // oneDNN's choice of layout, s32 bias, per-channel output scales, src and dst zero points, u8 dst channels-last.
  for (const Shape s : {Shape{64, 64, 3, 1}, Shape{256, 64, 1, 1}, Shape{16, 8, 3, 2}, Shape{3, 32, 7, 1}}) {
    CAPTURE(s.IC);
    CAPTURE(s.OC);
    CAPTURE(s.K);
    CAPTURE(s.G);
    const memory::desc src({1, s.IC, 14, 14}, dt::u8, tag::nhwc), dst({1, s.OC, 14, 14}, dt::u8, tag::nhwc);
    const memory::dims wdims = s.G == 1 ? memory::dims{s.OC, s.IC, s.K, s.K}
                                        : memory::dims{s.G, s.OC / s.G, s.IC / s.G, s.K, s.K};
    const memory::desc weights(wdims, dt::s8, tag::any), bias({s.OC}, dt::s32, tag::x);
    const memory::dim P = s.K / 2;
    const convolution_forward::desc desc(prop_kind::forward_inference, algorithm::convolution_direct, src, weights,
                                         bias, dst, {1, 1}, {0, 0}, {P, P}, {P, P});
    primitive_attr attr;
    attr.set_output_scales(1 << 1, std::vector<float>(size_t(s.OC), 0.01f));
    attr.set_zero_points(DNNL_ARG_SRC, 0, {7});
    attr.set_zero_points(DNNL_ARG_DST, 0, {3});
    const convolution_forward::primitive_desc pd(desc, attr, eng);
    const std::string impl = pd.impl_info_str();
    CAPTURE(impl);
    CHECK(impl.rfind("ref", 0) != 0);
    CHECK(int8_implementation_pairs_in_16_bits(impl, vnni) == !vnni);
  }
}
