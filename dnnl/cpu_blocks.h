// The instruction set oneDNN dispatches to on this CPU and the channel block that follows from it, for the
// choices that depend on them (a layout's block, a fast path measured on one kind of CPU), without oneDNN's
// headers. Defined in dnnl/dnnl_runtime.cc.
#pragma once

#include <cstdint>
#include <string>

#include "engine/layout.h"
#include "engine/shape.h"

namespace cnnx {

// The instruction set oneDNN runs its JIT code with on this CPU (dnnl::get_effective_cpu_isa(), which honours
// ONEDNN_MAX_CPU_ISA, so an AVX-512 machine can plan as an AVX2-only one): "avx512_core", "avx2", ...
std::string dnnl_cpu_isa();
// Whether that ISA has native bfloat16 multiply-adds (AVX512_BF16 or AMX): without them oneDNN 2.6 has no bf16
// convolution or matmul kernels, or emulates them slower than float32.
bool dnnl_cpu_has_native_bfloat16();
// The channel block of oneDNN's blocked float32 layouts on this CPU: 16 (a 512-bit register) with AVX-512,
// 8 (a 256-bit one) below: nChw16c or nChw8c.
int64_t cpu_channel_block();
// The channel-blocked layout of a float32 value of `shape` (N, C, 1 to 3 spatial dims) in blocks of `block`
// channels (4, 8 or 16: nChw4c, nChw8c, nChw16c and kin); plain for other blocks or ranks.
Layout channel_blocked_layout(const Shape& shape, int64_t block);

}  // namespace cnnx
