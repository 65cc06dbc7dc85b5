// The shape family: ops that move, select or describe elements without computing them. Every one is exact
// (kExact): elements and dims are copied, and Cast converts each element with one correctly rounded (or
// exact) IEEE operation (cast.h).
#include "ops/families.h"
#include "ops/shape/cast.h"
#include "ops/shape/channel_shuffle.h"
#include "ops/shape/concat.h"
#include "ops/shape/constant.h"
#include "ops/shape/gather.h"
#include "ops/shape/identity.h"
#include "ops/shape/pad.h"
#include "ops/shape/reshape.h"
#include "ops/shape/shape_of.h"
#include "ops/shape/slice.h"
#include "ops/shape/transpose.h"

namespace cnnx {

void register_shape_ops(OpRegistry& r) {
  // Views: the plan may give output 0 input 0's buffer and skip the kernel.
  OpSpec<FlattenParams> flatten{"Flatten", 1, parse_flatten, infer_flatten, kExact,
                                {ref_kernel<FlattenParams>(view_ref)}};
  flatten.output_views_input = true;
  r.add(std::move(flatten));
  OpSpec<ReshapeParams> reshape{"Reshape", 5, parse_reshape, infer_reshape, kExact,
                                {ref_kernel<ReshapeParams>(view_ref)}};
  reshape.output_views_input = true;
  r.add(std::move(reshape));
  OpSpec<AxesParams> squeeze{"Squeeze", 1, parse_squeeze, infer_squeeze, kExact, {ref_kernel<AxesParams>(view_ref)}};
  squeeze.output_views_input = true;
  r.add(std::move(squeeze));
  OpSpec<AxesParams> unsqueeze{"Unsqueeze", 1, parse_unsqueeze, infer_unsqueeze, kExact,
                               {ref_kernel<AxesParams>(view_ref)}};
  unsqueeze.output_views_input = true;
  r.add(std::move(unsqueeze));

  r.add(OpSpec<TransposeParams>{"Transpose", 1, parse_transpose, infer_transpose, kExact,
                                {transpose_dnnl_kernel(), ref_kernel<TransposeParams>(transpose_ref)}});
  OpSpec<ConcatParams> concat{"Concat", 1, parse_concat, infer_concat, kExact,
                              {concat_dnnl_kernel(), ref_kernel<ConcatParams>(concat_ref)}};
  concat.joins_inputs_along = concat_axis;
  r.add(std::move(concat));
  r.add(OpSpec<SliceParams>{"Slice", 1, parse_slice, infer_slice, kExact,
                            {slice_dnnl_kernel(), ref_kernel<SliceParams>(slice_ref)}});
  r.add(OpSpec<GatherParams>{"Gather", 1, parse_gather, infer_gather, kExact, {ref_kernel<GatherParams>(gather_ref)}});
  r.add(OpSpec<ShapeParams>{"Shape", 1, parse_shape_of, infer_shape_of, kExact,
                            {ref_kernel<ShapeParams>(shape_of_ref)}});
  r.add(OpSpec<CastParams>{"Cast", 6, parse_cast, infer_cast, kExact, {ref_kernel<CastParams>(cast_ref)}});
  r.add(OpSpec<ConstantParams>{"Constant", 1, parse_constant, infer_constant, kExact,
                               {ref_kernel<ConstantParams>(constant_ref)}});
  r.add(OpSpec<NoParams>{"Identity", 1, parse_identity, infer_identity, kExact, {ref_kernel<NoParams>(identity_ref)}});
  r.add(OpSpec<DropoutParams>{"Dropout", 7, parse_dropout, infer_dropout, kExact,
                              {ref_kernel<DropoutParams>(dropout_ref)}});
  r.add(OpSpec<PadParams>{"Pad", 2, parse_pad, infer_pad, kExact, {ref_kernel<PadParams>(pad_ref)}});

  // Made only by the channel-shuffle pass (passes/channel_shuffle.cc), never read from a model.
  OpSpec<ChannelShuffleParams> shuffle{
      "ChannelShuffle", 1, parse_channel_shuffle, infer_channel_shuffle, kExact,
      {channel_shuffle_dnnl_kernel(), ref_kernel<ChannelShuffleParams>(channel_shuffle_ref)}};
  shuffle.domain = kInternalDomain;
  r.add(std::move(shuffle));
}

}  // namespace cnnx
