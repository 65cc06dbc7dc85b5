// The shape family: ops that move, select or describe elements without computing them. Every one is exact
// (kExact): elements and dims are copied, and Cast converts each element with one correctly rounded (or
// exact) IEEE operation (cast.h).
#include "ops/families.h"
#include "ops/tensor/cast.h"
#include "ops/tensor/cast_like.h"
#include "ops/tensor/channel_shuffle.h"
#include "ops/tensor/compress.h"
#include "ops/tensor/concat.h"
#include "ops/tensor/constant.h"
#include "ops/tensor/constant_of_shape.h"
#include "ops/tensor/depth_to_space.h"
#include "ops/tensor/expand.h"
#include "ops/tensor/eye_like.h"
#include "ops/tensor/gather.h"
#include "ops/tensor/gather_elements.h"
#include "ops/tensor/gather_nd.h"
#include "ops/tensor/identity.h"
#include "ops/tensor/non_zero.h"
#include "ops/tensor/pad.h"
#include "ops/tensor/range.h"
#include "ops/tensor/reshape.h"
#include "ops/tensor/round_to_float16.h"
#include "ops/tensor/scatter_nd.h"
#include "ops/tensor/shape_of.h"
#include "ops/tensor/slice.h"
#include "ops/tensor/scatter_elements.h"
#include "ops/tensor/split.h"
#include "ops/tensor/tile.h"
#include "ops/tensor/transpose.h"
#include "ops/tensor/one_hot.h"
#include "ops/tensor/reverse_sequence.h"
#include "ops/tensor/trilu.h"
#include "ops/tensor/unique.h"

namespace cnnx {

void register_tensor_ops(OpRegistry& r) {
  auto copies = [](auto spec) {  // OpHints::copies_only
    spec.hints.copies_only = true;
    return spec;
  };
  // Views (view_kernel): the plan may give output 0 input 0's buffer and skip the kernel.
  r.add(OpSpec<FlattenParams>{"Flatten", 1, parse_flatten, infer_flatten, kExact, {view_kernel<FlattenParams>()}});
  r.add(OpSpec<ReshapeParams>{"Reshape", 1, parse_reshape, infer_reshape, kExact, {view_kernel<ReshapeParams>()}});
  r.add(OpSpec<AxesParams>{"Squeeze", 1, parse_squeeze, infer_squeeze, kExact, {view_kernel<AxesParams>()}});
  r.add(OpSpec<AxesParams>{"Unsqueeze", 1, parse_unsqueeze, infer_unsqueeze, kExact, {view_kernel<AxesParams>()}});

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
  r.add(copies(OpSpec<GatherParams>{"Gather", 1, parse_gather, infer_gather, kExact,
                                    {gather_dnnl_kernel(), ref_kernel(gather_ref)}}));
  r.add(OpSpec<ShapeParams>{"Shape", 1, parse_shape_of, infer_shape_of, kExact, {ref_kernel(shape_of_ref)}});
  r.add(OpSpec<NoParams>{"Size", 1, parse_size, infer_size, kExact, {ref_kernel(size_ref)}});
  // Shapes from data (OpHints::shapes_from_data: ops/tensor/non_zero.h, compress.h).
  OpSpec<NoParams> non_zero{"NonZero", 9, parse_non_zero, infer_non_zero, kExact, {ref_kernel(non_zero_ref)}};
  non_zero.hints.shapes_from_data = true;
  r.add(std::move(non_zero));
  OpSpec<CompressParams> compress{"Compress", 9, parse_compress, infer_compress, kExact, {ref_kernel(compress_ref)}};
  compress.hints.shapes_from_data = true;
  compress.hints.caution = compress_caution;  // negative axes below opset 11, with a warning
  r.add(std::move(compress));
  OpSpec<UniqueParams> unique{"Unique", 11, parse_unique, infer_unique, kExact, {ref_kernel(unique_ref)}};
  unique.hints.shapes_from_data = true;
  r.add(std::move(unique));
  r.add(OpSpec<CastParams>{"Cast", 1, parse_cast, infer_cast, kExact, {ref_kernel(cast_ref)}});
  r.add(OpSpec<NoParams>{"CastLike", 15, parse_cast_like, infer_cast_like, kExact, {ref_kernel(cast_like_ref)}});
  r.add(OpSpec<ConstantParams>{"Constant", 1, parse_constant, infer_constant, kExact, {ref_kernel(constant_ref)}});
  r.add(OpSpec<NoParams>{"Identity", 1, parse_identity, infer_identity, kExact, {ref_kernel(identity_ref)}});
  r.add(OpSpec<DropoutParams>{"Dropout", 1, parse_dropout, infer_dropout, kExact, {ref_kernel(dropout_ref)}});
  r.add(copies(OpSpec<PadParams>{"Pad", 1, parse_pad, infer_pad, kExact, {pad_dnnl_kernel(), ref_kernel(pad_ref)}}));

  // Ops that make, select or scatter elements by data (often folded at load, or run on int64 shape tensors).
  r.add(OpSpec<ConstantOfShapeParams>{"ConstantOfShape", 9, parse_constant_of_shape, infer_constant_of_shape, kExact,
                                      {ref_kernel(constant_of_shape_ref)}});
  r.add(OpSpec<EyeLikeParams>{"EyeLike", 9, parse_eye_like, infer_eye_like, kExact, {ref_kernel(eye_like_ref)}});
  r.add(OpSpec<NoParams>{"Expand", 8, parse_expand, infer_expand, kExact, {ref_kernel(expand_ref)}});
  r.add(OpSpec<TileParams>{"Tile", 1, parse_tile, infer_tile, kExact, {ref_kernel(tile_ref)}});
  // Range's length comes from its start, limit and delta: float graph inputs there are planned with their data.
  OpSpec<NoParams> range{"Range", 11, parse_range, infer_range, kExact, {ref_kernel(range_ref)}};
  range.hints.float_shape_inputs = {0, 1, 2};
  r.add(std::move(range));
  r.add(copies(OpSpec<SplitParams>{"Split", 1, parse_split, infer_split, kExact,
                                   {split_dnnl_kernel(), ref_kernel(split_ref)}}));
  r.add(OpSpec<GatherElementsParams>{"GatherElements", 11, parse_gather_elements, infer_gather_elements, kExact,
                                     {ref_kernel(gather_elements_ref)}});
  r.add(OpSpec<GatherNDParams>{"GatherND", 11, parse_gather_nd, infer_gather_nd, kExact, {ref_kernel(gather_nd_ref)}});
  r.add(OpSpec<ScatterNDParams>{"ScatterND", 11, parse_scatter_nd, infer_scatter_nd, kExact,
                                {ref_kernel(scatter_nd_ref)}});
  r.add(OpSpec<ScatterElementsParams>{"ScatterElements", 11, parse_scatter_elements, infer_scatter_elements, kExact,
                                      {ref_kernel(scatter_elements_ref)}});
  r.add(OpSpec<ScatterElementsParams>{"Scatter", 9, parse_scatter_elements, infer_scatter_elements, kExact,
                                      {ref_kernel(scatter_elements_ref)}});
  r.add(copies(OpSpec<DepthToSpaceParams>{
      "DepthToSpace", 1, parse_depth_to_space, infer_depth_to_space, kExact,
      {depth_to_space_dnnl_kernel(), ref_kernel(depth_to_space_ref)}}));
  r.add(copies(OpSpec<DepthToSpaceParams>{
      "SpaceToDepth", 1, parse_space_to_depth, infer_depth_to_space, kExact,
      {depth_to_space_dnnl_kernel(), ref_kernel(depth_to_space_ref)}}));
  r.add(OpSpec<TriluParams>{"Trilu", 14, parse_trilu, infer_trilu, kExact, {ref_kernel(trilu_ref)}});
  // OneHot's depth sets the output's length: a float graph input there is planned with its data.
  OpSpec<OneHotParams> one_hot{"OneHot", 9, parse_one_hot, infer_one_hot, kExact, {ref_kernel(one_hot_ref)}};
  one_hot.hints.float_shape_inputs = {1};
  r.add(std::move(one_hot));
  r.add(OpSpec<ReverseSequenceParams>{"ReverseSequence", 10, parse_reverse_sequence, infer_reverse_sequence, kExact,
                                      {ref_kernel(reverse_sequence_ref)}});

  // Made only by the channel-shuffle pass (passes/channel_shuffle.cc), never read from a model.
  OpSpec<ChannelShuffleParams> shuffle{
      "ChannelShuffle", 1, parse_channel_shuffle, infer_channel_shuffle, kExact,
      {channel_shuffle_dnnl_kernel(), ref_kernel(channel_shuffle_ref)}};
  shuffle.domain = kInternalDomain;
  shuffle.hints.copies_only = true;
  r.add(std::move(shuffle));
  // Made only by the float16-compute lowering (passes/float16_compute.cc), never read from a model.
  OpSpec<RoundToFloat16Params> round{"RoundToFloat16", 1, parse_round_to_float16, infer_round_to_float16, kExact,
                                     {round_to_bfloat16_storage_kernel(), round_to_float16_native_kernel(), ref_kernel(round_to_float16_ref)}};
  round.domain = kInternalDomain;
  r.add(std::move(round));
}

}  // namespace cnnx
