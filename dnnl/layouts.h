// What the plan needs of the oneDNN runtime, without oneDNN's headers: reorders between layouts, and the
// layouts (channel-blocked nChw16c and its kin, channels-last, transposed plain) kernels and the plan name.
#pragma once

#include <memory>
#include <string>

#include "engine/layout.h"
#include "engine/op.h"

namespace cnnx {

// A kernel copying one float32 value of `shape` from layout `from` to layout `to`; throws cnnx::Error when
// oneDNN cannot reorder between them.
std::unique_ptr<CompiledKernel> make_reorder(const Layout& from, const Layout& to, const Shape& shape);

// The channel-blocked layout of a float32 value of `shape` (N, C, 1 to 3 spatial dims) in blocks of `block`
// (4, 8 or 16) channels: nChw16c by default; plain for other blocks or ranks. With N = 1 and a multiple of
// `block` channels, a channel range starting at a multiple of `block` is a contiguous run of bytes in it.
Layout channel_blocked_layout(const Shape& shape, int64_t block = 16);
// The channels-last layout of a value of `shape` (N, C, 1 to 3 spatial dims): N, the spatial dims, then C.
// Plain where those bytes are plain's (one channel, or one pixel).
Layout channels_last_layout(const Shape& shape);
// The dense layout of a float32 value of `shape` whose Transpose by `perm` (output axis i is input axis
// perm[i]) is plain: what a Transpose's producer may write so that the Transpose is a view. Plain for a
// rank oneDNN cannot describe.
Layout transposed_plain_layout(const Shape& shape, const std::vector<int64_t>& perm);
// True for a layout with inner blocks (nChw16c, ...); false for plain and for permuted dense ones (acdb).
bool has_inner_blocks(const Layout& layout);
// The instruction set oneDNN runs its JIT code with on this CPU (dnnl::get_effective_cpu_isa(), which honours
// ONEDNN_MAX_CPU_ISA): "avx512_core", "avx512_core_vnni", "avx2", ... Decided once.
std::string dnnl_cpu_isa();
// The channel block of oneDNN's blocked float32 layouts on this CPU: 16 (a 512-bit register) with AVX-512,
// 8 (a 256-bit one) below: nChw16c or nChw8c.
int64_t cpu_channel_block();
// The channel block b when `layout` is the channel-blocked layout of a float32 value of `shape` with blocks of
// 4, 8 or 16 channels (nChw4c, nChw8c as oneDNN's AVX2 kernels pick, nChw16c as its AVX-512 ones do), else 0.
int64_t channel_block(const Layout& layout, const Shape& shape);

}  // namespace cnnx
