// The tensor family: ops that move elements or describe and make tensors without computing on elements
// (views, Transpose, Concat, Slice, Split, Pad, Tile, Expand, Shape, Constant, Range, ...). Every one is exact
// (kExact): elements and dims are copied.
#include "ops/common/node_checks.h"
#include "ops/families.h"
#include "ops/tensor/channel_shuffle.h"
#include "ops/tensor/concat.h"
#include "ops/tensor/constant.h"
#include "ops/tensor/constant_of_shape.h"
#include "ops/tensor/depth_to_space.h"
#include "ops/tensor/expand.h"
#include "ops/tensor/eye_like.h"
#include "ops/tensor/identity.h"
#include "ops/tensor/pad.h"
#include "ops/tensor/range.h"
#include "ops/tensor/reshape.h"
#include "ops/tensor/shape_of.h"
#include "ops/tensor/slice.h"
#include "ops/tensor/split.h"
#include "ops/tensor/tile.h"
#include "ops/tensor/transpose.h"

namespace cnnx {

void register_tensor_ops(OpRegistry& r) {
  auto copies = [](auto spec) {  // OpHints::copies_only
    spec.hints.copies_only = true;
    return spec;
  };
  // Views (view_kernel; bfloat16_view_kernel for a value stored in bfloat16): the plan may give output 0 input
  // 0's buffer and skip the kernel.
  r.add(OpSpec<FlattenParams>{"Flatten", 1, parse_flatten, infer_flatten, kExact,
                              {bfloat16_view_kernel<FlattenParams>(), view_kernel<FlattenParams>()}});
  r.add(OpSpec<ReshapeParams>{"Reshape", 1, parse_reshape, infer_reshape, kExact,
                              {bfloat16_view_kernel<ReshapeParams>(), view_kernel<ReshapeParams>()}});
  r.add(OpSpec<AxesParams>{"Squeeze", 1, parse_squeeze, infer_squeeze, kExact,
                           {bfloat16_view_kernel<AxesParams>(), view_kernel<AxesParams>()}});
  r.add(OpSpec<AxesParams>{"Unsqueeze", 1, parse_unsqueeze, infer_unsqueeze, kExact,
                           {bfloat16_view_kernel<AxesParams>(), view_kernel<AxesParams>()}});

  OpSpec<TransposeParams> transpose{"Transpose", 1, parse_transpose, infer_transpose, kExact,
                                    {transpose_dnnl_kernel(), ref_kernel(transpose_ref)}};
  transpose.hints.copies_only = true;
  transpose.hints.permutes_axes = [](const TransposeParams& p, const std::vector<ValueInfo>& in) {
    return resolve_perm(p, in.at(0).rank());
  };
  r.add(std::move(transpose));
  OpSpec<ConcatParams> concat{"Concat", 1, parse_concat, infer_concat, kExact,
                              {concat_channels_last_kernel(), concat_dnnl_kernel(), ref_kernel(concat_ref)}};
  concat.hints.copies_only = true;
  concat.hints.joins_inputs_along = concat_axis;
  r.add(std::move(concat));
  r.add(copies(OpSpec<SliceParams>{"Slice", 1, parse_slice, infer_slice, kExact,
                                   {slice_dnnl_kernel(), ref_kernel(slice_ref)}}));
  r.add(OpSpec<ShapeParams>{"Shape", 1, parse_shape_of, infer_shape_of, kExact, {ref_kernel(shape_of_ref)}});
  r.add(OpSpec<NoParams>{"Size", 1, parse_no_attributes<1, 1>, infer_size, kExact, {ref_kernel(size_ref)}});
  r.add(OpSpec<ConstantParams>{"Constant", 1, parse_constant, infer_constant, kExact, {ref_kernel(constant_ref)}});
  r.add(OpSpec<NoParams>{"Identity", 1, parse_no_attributes<1, 1>, infer_identity, kExact, {ref_kernel(identity_ref)}});
  r.add(OpSpec<DropoutParams>{"Dropout", 1, parse_dropout, infer_dropout, kExact, {ref_kernel(dropout_ref)}});
  r.add(copies(OpSpec<PadParams>{"Pad", 1, parse_pad, infer_pad, kExact, {pad_dnnl_kernel(), ref_kernel(pad_ref)}}));

  // Ops that make, select or scatter elements by data (often folded at load, or run on int64 shape tensors).
  r.add(OpSpec<ConstantOfShapeParams>{"ConstantOfShape", 9, parse_constant_of_shape, infer_constant_of_shape, kExact,
                                      {ref_kernel(constant_of_shape_ref)}});
  r.add(OpSpec<EyeLikeParams>{"EyeLike", 9, parse_eye_like, infer_eye_like, kExact, {ref_kernel(eye_like_ref)}});
  r.add(OpSpec<NoParams>{"Expand", 8, parse_no_attributes<2, 2>, infer_expand, kExact, {ref_kernel(expand_ref)}});
  r.add(OpSpec<TileParams>{"Tile", 1, parse_tile, infer_tile, kExact, {ref_kernel(tile_ref)}});
  // Range's length comes from its start, limit and delta: float graph inputs there are planned with their data.
  OpSpec<NoParams> range{"Range", 11, parse_no_attributes<3, 3>, infer_range, kExact, {ref_kernel(range_ref)}};
  range.hints.float_shape_inputs = {0, 1, 2};
  r.add(std::move(range));
  r.add(copies(OpSpec<SplitParams>{"Split", 1, parse_split, infer_split, kExact,
                                   {split_dnnl_kernel(), ref_kernel(split_ref)}}));
  r.add(copies(OpSpec<DepthToSpaceParams>{
      "DepthToSpace", 1, parse_depth_to_space, infer_depth_to_space, kExact,
      {depth_to_space_dnnl_kernel(), ref_kernel(depth_to_space_ref)}}));
  r.add(copies(OpSpec<DepthToSpaceParams>{
      "SpaceToDepth", 1, parse_space_to_depth, infer_depth_to_space, kExact,
      {depth_to_space_dnnl_kernel(), ref_kernel(depth_to_space_ref)}}));

  // Made only by the channel-shuffle pass (passes/channel_shuffle.cc), never read from a model.
  OpSpec<ChannelShuffleParams> shuffle{
      "ChannelShuffle", 1, parse_channel_shuffle, infer_channel_shuffle, kExact,
      {channel_shuffle_dnnl_kernel(), ref_kernel(channel_shuffle_ref)}};
  shuffle.domain = kInternalDomain;
  shuffle.hints.copies_only = true;
  r.add(std::move(shuffle));
}

}  // namespace cnnx
