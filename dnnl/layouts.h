// What the plan needs of the oneDNN runtime, without oneDNN's headers: reorders between layouts, and the
// layouts (channel-blocked nChw16c and its kin, channels-last, transposed plain) kernels and the plan name.
#pragma once

#include <memory>

#include "engine/layout.h"
#include "engine/op.h"

namespace cnnx {

// A kernel copying one value of `shape` and element type `dtype` (float32, int8 or uint8) from layout `from`
// to layout `to`; throws cnnx::Error when oneDNN cannot reorder between them. Where both layouts put every
// element at the same byte (equal layouts, [1, C, 1, 1] plain and nChw8c with C % 8 == 0) the kernel views its input
// (CompiledKernel::views_input): the plan then shares the buffer and skips the copy.
std::unique_ptr<CompiledKernel> make_reorder(const Layout& from, const Layout& to, const Shape& shape,
                                             DType dtype = DType::f32);

// The channel-blocked layout of a float32 value of `shape` (N, C, 1 to 3 spatial dims). With N = 1 and a
// multiple of 16 channels, a channel range starting at a multiple of 16 is a contiguous run of bytes in it.
Layout channel_blocked_layout(const Shape& shape);
// The channels-last layout of a value of `shape` (N, C, 1 to 3 spatial dims): N, the spatial dims, then C.
// Plain where those bytes are plain's (one channel, or one pixel).
Layout channels_last_layout(const Shape& shape);
// The dense layout of a float32 value of `shape` whose Transpose by `perm` (output axis i is input axis
// perm[i]) is plain: what a Transpose's producer may write so that the Transpose is a view. Plain for a
// rank oneDNN cannot describe.
Layout transposed_plain_layout(const Shape& shape, const std::vector<int64_t>& perm);
// bfloat16 storage, in a native bfloat16 plan (passes/bfloat16_plan.h): a float32 value whose elements are
// held rounded to bfloat16, two bytes each, in the arrangement of a float32 layout ("acdb:bf16"). Only the
// kernels the bfloat16 plan names (reads_bfloat16_storage) are offered such a layout; the plan's reorders
// convert to and from float32 layouts for the others (exactly, since the values are bfloat16's).
// `layout` (of a float32 value of `shape`, plain included) stored in bfloat16.
Layout bfloat16_layout(const Layout& layout, const Shape& shape);
bool stores_bfloat16(const Layout& layout);
// The float32 layout with the arrangement of `layout` (itself when it is float32).
Layout float32_layout(const Layout& layout);
// True for a layout with inner blocks (nChw16c, ...); false for plain and for permuted dense ones (acdb).
bool has_inner_blocks(const Layout& layout);
// The channel block b when `layout` is the channel-blocked layout of a float32 value of `shape` with blocks of
// 4, 8 or 16 channels (nChw4c, nChw8c as oneDNN's AVX2 kernels pick, nChw16c as its AVX-512 ones do), else 0.
int64_t channel_block(const Layout& layout, const Shape& shape);

}  // namespace cnnx
