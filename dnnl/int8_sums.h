// Whether oneDNN's int8 kernels sum u8 x s8 products exactly on this CPU, decided from the implementation
// oneDNN picked, not only from the CPU. Without VNNI (AVX2; AVX-512 before Cascade Lake) its JIT kernels
// multiply with vpmaddubsw, which adds each pair of products into a saturating 16-bit sum: exact only while
// |x1 * w1 + x2 * w2| <= 32767 (ops/quant/qlinear_conv_dnnl.cc splits the weights then). With VNNI (vpdpbusd)
// or AMX the products go straight into int32 sums. The implementation's name says which instructions it was
// generated for ("brgconv_1x1:avx512_core_vnni", "jit_int8:avx512_core", "jit_uni_int8:avx2"): a kernel for a
// non-VNNI instruction set saturates even on a VNNI CPU (oneDNN falls back to it when its VNNI kernels decline
// a shape), which the CPU's ISA alone would miss.
#pragma once

#include <string>

namespace cnnx {

// True when the oneDNN implementation named `impl` (primitive_desc::impl_info_str()) adds u8 x s8 products in
// pairs into saturating 16-bit sums. Its instruction set (after the last ':') decides: VNNI, AMX or bfloat16
// ones (all with VNNI) and the reference ("ref:any", int32 loops) sum exactly; sse41, avx, avx2 and
// avx512_core (without _vnni) pair; a name without an instruction set ("gemm:jit", oneDNN's int8 GEMM, which
// picks its kernel from the CPU) is judged by `cpu_has_vnni`.
bool int8_implementation_pairs_in_16_bits(const std::string& impl, bool cpu_has_vnni);

// True when oneDNN may use VNNI or AMX int8 instructions on this CPU (dnnl::get_effective_cpu_isa(), which
// honours ONEDNN_MAX_CPU_ISA: AVX2 there plans as an AVX2-only CPU).
bool dnnl_cpu_has_int8_vnni();

}  // namespace cnnx
