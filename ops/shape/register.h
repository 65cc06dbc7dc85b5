// Registration of the shape family, one function per file of ops/shape; register_shape_ops
// (ops/families.h) calls them all.
#pragma once

#include "engine/op_registry.h"

namespace cnnx::shape_ops {

void register_reshape_ops(OpRegistry& r);    // Flatten, Reshape, Squeeze, Unsqueeze (reshape.cc)
void register_transpose_ops(OpRegistry& r);  // Transpose (transpose.cc)
void register_concat_ops(OpRegistry& r);     // Concat (concat.cc)
void register_slice_ops(OpRegistry& r);      // Slice (slice.cc)
void register_gather_ops(OpRegistry& r);     // Gather (gather.cc)
void register_shape_of_ops(OpRegistry& r);   // Shape (shape_of.cc)
void register_cast_ops(OpRegistry& r);       // Cast (cast.cc)
void register_constant_ops(OpRegistry& r);   // Constant (constant.cc)
void register_identity_ops(OpRegistry& r);   // Identity, Dropout (identity.cc)
void register_pad_ops(OpRegistry& r);        // Pad (pad.cc)
void register_channel_shuffle_ops(OpRegistry& r);  // cnnx.internal ChannelShuffle (channel_shuffle.cc)

}  // namespace cnnx::shape_ops
