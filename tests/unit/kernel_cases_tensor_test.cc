// Kernel cases of the tensor family (ops/tensor): Reshape, Concat, Slice, Transpose, Pad, Split, Tile, ...
// (ops/families.h). Each case runs every kernel of its op against the op's reference kernel;
// tests/unit/kernel_cases.h says how, and how a table is registered.
#include <doctest/doctest.h>

#include <limits>

#include "ops/tensor/channel_shuffle.h"
#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// Why the views' dnnl kernel declines a float32 input (the ref view takes it).
constexpr const char* kFloat32View = "not stored in bfloat16";

// A value stored in bfloat16 (a native bfloat16 plan) through Reshape, Flatten, Squeeze and Unsqueeze: the dnnl
// kernel views it, taken row-major (the harness gives a channel-blocked one reordered, as the plan does).
void add_bfloat16_view_cases(std::vector<KernelCase>& cases, int reshape_opset, int squeeze_opset) {
  const bool new_axes = squeeze_opset >= 13;
  KernelCase reshape("Reshape", reshape_opset, "native bf16: X stored in bfloat16");
  if (reshape_opset >= 5) reshape.in(random_in({1, 32, 3, 5}).stored_bfloat16()).in(ints_in({1, 32, 15}));
  else reshape.attr("shape", ints({1, 32, 15})).in(random_in({1, 32, 3, 5}).stored_bfloat16());
  cases.push_back(reshape.native_bfloat16().runs("dnnl").without_special_values(kStoredBfloat16FlushesSubnormals));
  const int flatten_opset = reshape_opset >= 5 ? 13 : 1;
  cases.push_back(KernelCase("Flatten", flatten_opset, "native bf16: X channel-blocked, stored in bfloat16")
                      .native_bfloat16().in(random_in({2, 16, 3, 3}).blocked().stored_bfloat16()).runs("dnnl")
                      .without_special_values(kStoredBfloat16FlushesSubnormals));
  KernelCase squeeze("Squeeze", squeeze_opset, "native bf16: X stored in bfloat16");
  squeeze.native_bfloat16().in(random_in({3, 1, 5}).stored_bfloat16());
  if (new_axes) squeeze.in(ints_in({1}));
  else squeeze.attr("axes", ints({1}));
  cases.push_back(squeeze.runs("dnnl").without_special_values(kStoredBfloat16FlushesSubnormals));
  KernelCase unsqueeze("Unsqueeze", squeeze_opset, "native bf16: X stored in bfloat16");
  unsqueeze.native_bfloat16().in(random_in({3, 5}).stored_bfloat16());
  if (new_axes) unsqueeze.in(ints_in({0}));
  else unsqueeze.attr("axes", ints({0}));
  cases.push_back(unsqueeze.runs("dnnl").without_special_values(kStoredBfloat16FlushesSubnormals));
  KernelCase scalar("Reshape", reshape_opset, "native bf16: to a scalar");
  if (reshape_opset >= 5) scalar.in(random_in({1, 1}).stored_bfloat16()).in(given(Tensor(DType::i64, {0})).constant());
  else scalar.attr("shape", ints({})).in(random_in({1, 1}).stored_bfloat16());
  cases.push_back(scalar.native_bfloat16().declines("dnnl", "scalar")
                      .without_special_values(kStoredBfloat16FlushesSubnormals));
}

// ---- shape ops ----

std::vector<KernelCase> shape_cases() {
  std::vector<KernelCase> cases;
  const Tensor ints3 = make_int_tensor({2, 3}, {1, -2, 3, -4, 5, -6});
  // Transpose (dnnl: one reorder from the layout the input arrives in).
  cases.push_back(KernelCase("Transpose", 13, "default perm (reversed)").in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("Transpose", 13, "to channels last").attr("perm", ints({0, 2, 3, 1}))
                      .in(random_in({2, 3, 4, 5})));
  cases.push_back(KernelCase("Transpose", 13, "X offered nChw16c").attr("perm", ints({0, 2, 3, 1}))
                      .in(random_in({1, 32, 4, 5}).blocked()));
  cases.push_back(KernelCase("Transpose", 13, "X offered nChw16c, padded channels").attr("perm", ints({1, 0, 3, 2}))
                      .in(random_in({2, 20, 3, 5}).blocked()));
  // In a native bfloat16 plan an input stored in bfloat16 is viewed as it is: the output is stored so too.
  cases.push_back(KernelCase("Transpose", 13, "native bf16: X stored in bfloat16, to channels last").native_bfloat16()
                      .attr("perm", ints({0, 2, 3, 1})).in(random_in({2, 3, 4, 5}).stored_bfloat16())
                      .runs("dnnl", Takes::offered).without_special_values(kStoredBfloat16FlushesSubnormals));
  cases.push_back(KernelCase("Transpose", 13, "native bf16: X stored in bfloat16, reversed").native_bfloat16()
                      .in(random_in({3, 4, 5}).stored_bfloat16()).runs("dnnl", Takes::offered)
                      .without_special_values(kStoredBfloat16FlushesSubnormals));
  // Channel-blocked in bfloat16: copied to plain float32 in one converting reorder.
  cases.push_back(KernelCase("Transpose", 13, "native bf16: X nChw16c stored in bfloat16").native_bfloat16()
                      .attr("perm", ints({0, 2, 3, 1})).in(random_in({1, 20, 3, 5}).blocked().stored_bfloat16())
                      .runs("dnnl", Takes::offered).without_special_values(kStoredBfloat16FlushesSubnormals));
  cases.push_back(KernelCase("Transpose", 13, "int64").in(given(ints3)).declines("dnnl", "int64, not float32"));
  cases.push_back(KernelCase("Transpose", 13, "scalar").in(random_in({})).declines("dnnl", "a scalar"));
  // Concat (channels-last: one copy per pixel and input, for inputs and output channels-last along C; dnnl:
  // the concat primitive over the inputs as they arrive).
  const std::string not_channels_last = "not channels-last";
  cases.push_back(KernelCase("Concat", 13, "channels").attr("axis", int_attr(1))
                      .in(random_in({1, 16, 3, 3})).in(random_in({1, 8, 3, 3})).in(random_in({1, 4, 3, 3}))
                      .declines("channels-last", "every input arrives plain"));
  cases.push_back(KernelCase("Concat", 13, "axis 0").attr("axis", int_attr(0))
                      .in(random_in({2, 3})).in(random_in({1, 3})).declines("channels-last", "rank 2"));
  cases.push_back(KernelCase("Concat", 13, "axis -1").attr("axis", int_attr(-1))
                      .in(random_in({2, 3, 4})).in(random_in({2, 3, 1})).declines("channels-last", "rank 3"));
  cases.push_back(KernelCase("Concat", 13, "channels-last inputs along W").attr("axis", int_attr(-1))
                      .in(random_in({2, 3, 4, 2}).channels_last()).in(random_in({2, 3, 4, 1}).channels_last())
                      .declines("channels-last", "joins along axis 3, not channels"));
  cases.push_back(KernelCase("Concat", 13, "one input").attr("axis", int_attr(0)).in(random_in({5}))
                      .declines("channels-last", "rank 1"));
  cases.push_back(KernelCase("Concat", 13, "inputs offered nChw16c").attr("axis", int_attr(1))
                      .in(random_in({1, 16, 5, 5}).blocked()).in(random_in({1, 32, 5, 5}).blocked())
                      .runs("dnnl", Takes::offered).declines("channels-last", not_channels_last));
  cases.push_back(KernelCase("Concat", 13, "output wished nChw16c").attr("axis", int_attr(1))
                      .in(random_in({1, 16, 5, 5})).in(random_in({1, 16, 5, 5})).wish_output(Offer::blocked)
                      .declines("channels-last", "every input arrives plain"));
  cases.push_back(KernelCase("Concat", 13, "batch 2, blocked and plain inputs").attr("axis", int_attr(1))
                      .in(random_in({2, 20, 3, 3}).blocked()).in(random_in({2, 5, 3, 3}))
                      .declines("channels-last", not_channels_last));
  cases.push_back(KernelCase("Concat", 13, "an empty part").attr("axis", int_attr(1))
                      .in(random_in({1, 0, 3, 3})).in(random_in({1, 4, 3, 3})).declines("dnnl", "is empty")
                      .declines("channels-last", "every input arrives plain"));
  cases.push_back(KernelCase("Concat", 13, "an empty part beside a channels-last one").attr("axis", int_attr(1))
                      .in(random_in({1, 0, 3, 3})).in(random_in({1, 4, 3, 3}).channels_last())
                      .declines("dnnl", "is empty").declines("channels-last", "input 0 is empty"));
  cases.push_back(KernelCase("Concat", 13, "one channel each: channels-last is plain").attr("axis", int_attr(1))
                      .in(random_in({1, 1, 3, 3})).in(random_in({1, 1, 3, 3}))
                      .declines("channels-last", "every input arrives plain"));
  cases.push_back(KernelCase("Concat", 13, "int64, one channel each").attr("axis", int_attr(1))
                      .in(given(make_int_tensor({1, 1, 2, 2}, {1, 2, 3, 4})))
                      .in(given(make_int_tensor({1, 1, 2, 2}, {5, 6, 7, 8})))
                      .declines("dnnl", "int64, not float32").declines("channels-last", "int64, not float32"));
  cases.push_back(KernelCase("Concat", 13, "int64").attr("axis", int_attr(0)).in(given(ints3)).in(given(ints3))
                      .declines("dnnl", "int64, not float32").declines("channels-last", "rank 2"));
  cases.push_back(KernelCase("Concat", 13, "channels-last, batch 2, 3 inputs").attr("axis", int_attr(1))
                      .in(random_in({2, 16, 3, 5}).channels_last()).in(random_in({2, 8, 3, 5}).channels_last())
                      .in(random_in({2, 5, 3, 5}).channels_last()).runs("channels-last", Takes::offered));
  cases.push_back(KernelCase("Concat", 13, "channels-last, 1 spatial dim (a transposed token layout too)")
                      .attr("axis", int_attr(1)).in(random_in({3, 4, 7}).channels_last())
                      .in(random_in({3, 2, 7}).channels_last()).declines("channels-last", "rank 3"));
  cases.push_back(KernelCase("Concat", 13, "channels-last 3-D spatial").attr("axis", int_attr(-4))
                      .in(random_in({1, 3, 2, 3, 4}).channels_last()).in(random_in({1, 6, 2, 3, 4}).channels_last())
                      .runs("channels-last", Takes::offered));
  cases.push_back(KernelCase("Concat", 13, "channels-last and plain inputs").attr("axis", int_attr(1))
                      .in(random_in({2, 16, 3, 3}).channels_last()).in(random_in({2, 8, 3, 3}))
                      .declines("channels-last", "input 1 arrives plain, not channels-last"));
  cases.push_back(KernelCase("Concat", 13, "channels-last inputs, output wished nChw16c").attr("axis", int_attr(1))
                      .in(random_in({1, 16, 3, 3}).channels_last()).in(random_in({1, 16, 3, 3}).channels_last())
                      .wish_output(Offer::blocked).declines("channels-last", "output 0 is wished aBcd16b"));
  // Slice (dnnl: one reorder from a sub-memory view, unit steps).
  cases.push_back(KernelCase("Slice", 13, "two axes").in(random_in({2, 5, 6}))
                      .in(ints_in({1, 0})).in(ints_in({2, 4})).in(ints_in({0, 2})));
  cases.push_back(KernelCase("Slice", 13, "clamped and negative ends").in(random_in({4, 7}))
                      .in(ints_in({-3, 2})).in(ints_in({100, -1})));
  cases.push_back(KernelCase("Slice", 13, "step 2").in(random_in({4, 7}))
                      .in(ints_in({1})).in(ints_in({7})).in(ints_in({1})).in(ints_in({2}))
                      .declines("dnnl", "steps other than 1"));
  cases.push_back(KernelCase("Slice", 13, "negative step").in(random_in({4, 7}))
                      .in(ints_in({-1})).in(ints_in({-100})).in(ints_in({0})).in(ints_in({-1}))
                      .declines("dnnl", "steps other than 1"));
  cases.push_back(KernelCase("Slice", 13, "empty").in(random_in({4, 7})).in(ints_in({3})).in(ints_in({3}))
                      .declines("dnnl", "the slice is empty"));
  cases.push_back(KernelCase("Slice", 13, "channels 16..32 of nChw16c").in(random_in({1, 48, 4, 4}).blocked())
                      .in(ints_in({16})).in(ints_in({32})).in(ints_in({1})).runs("dnnl", Takes::offered));
  cases.push_back(KernelCase("Slice", 13, "channels 8..24 of nChw16c (inside blocks)")
                      .in(random_in({1, 32, 4, 4}).blocked()).in(ints_in({8})).in(ints_in({24})).in(ints_in({1}))
                      .runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("Slice", 1, "attributes").attr("starts", ints({0, 1})).attr("ends", ints({1, 3}))
                      .in(random_in({3, 4})));
  cases.push_back(KernelCase("Slice", 13, "int64").in(given(ints3)).in(ints_in({1})).in(ints_in({3})).in(ints_in({1}))
                      .declines("dnnl", "int64, not float32"));
  // Views and copies: reference kernels only, but for the views' bfloat16 kernel (bfloat16_view_cases).
  cases.push_back(KernelCase("Reshape", 14, "0 and -1").in(random_in({2, 3, 4})).in(ints_in({0, -1}))
                      .declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Reshape", 5, "opset 5").in(random_in({2, 3, 4})).in(ints_in({4, 6}))
                      .declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Flatten", 13, "axis 2").attr("axis", int_attr(2)).in(random_in({2, 3, 4, 5}))
                      .declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Squeeze", 13, "axes input").in(random_in({2, 1, 4, 1})).in(ints_in({1}))
                      .declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Squeeze", 11, "axes attribute").attr("axes", ints({-1})).in(random_in({2, 1, 4, 1}))
                      .declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Unsqueeze", 13, "axes input").in(random_in({3, 4})).in(ints_in({0, 3}))
                      .declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Unsqueeze", 11, "axes attribute").attr("axes", ints({1})).in(random_in({3, 4}))
                      .declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Shape", 13, "every dim").in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("Shape", 15, "start 1").attr("start", int_attr(1)).in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("Size", 13, "rank 3").in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("Size", 13, "empty").in(random_in({2, 0})));
  cases.push_back(KernelCase("Constant", 13, "tensor value").attr("value", tensor_attr(make_tensor({2, 3}))));
  cases.push_back(KernelCase("Constant", 13, "value_ints").attr("value_ints", ints({4, -5, 6})));
  cases.push_back(KernelCase("Identity", 13, "float32").in(random_in({2, 3})));
  cases.push_back(KernelCase("Identity", 13, "int64").in(given(ints3)));
  cases.push_back(KernelCase("Dropout", 13, "inference").in(random_in({2, 3})));
  cases.push_back(KernelCase("Dropout", 13, "with mask").in(random_in({2, 3})).outputs(2));
  cases.push_back(KernelCase("Dropout", 7, "ratio attribute").attr("ratio", float_attr(0.3f)).in(random_in({4})));
  const CaseInput pads = ints_in({0, 0, 1, 2, 0, 0, 2, 1});
  for (const char* mode : {"constant", "reflect", "edge", "wrap"}) {
    KernelCase c = KernelCase("Pad", 19, mode).attr("mode", string_attr(mode)).in(random_in({1, 2, 3, 4})).in(pads);
    if (std::string(mode) != "constant") c.declines("dnnl", "only constant mode");
    cases.push_back(c);
  }
  cases.push_back(KernelCase("Pad", 19, "constant value, negative pads").in(random_in({2, 5}))
                      .in(ints_in({1, -1, 0, 2})).in(given(make_tensor({}, {7.5f})).constant())
                      .declines("dnnl", "negative pads"));
  cases.push_back(KernelCase("Pad", 19, "constant value input, not constant").in(random_in({2, 5}))
                      .in(ints_in({1, 0, 0, 2})).in(given(make_tensor({}, {7.5f}))));
  cases.push_back(KernelCase("Pad", 18, "axes").in(random_in({2, 3, 4})).in(ints_in({1, 2, 0, 3}))
                      .in(omitted()).in(ints_in({-1, 0})));
  cases.push_back(KernelCase("Pad", 13, "nChw16c input (taken plain)").in(random_in({1, 16, 5, 6}).blocked())
                      .in(ints_in({0, 0, 1, 1, 0, 0, 1, 1})).runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("Pad", 13, "int64").in(given(ints3)).in(ints_in({1, 0, 0, 1})).declines("dnnl", "not float32"));
  cases.push_back(KernelCase("Pad", 2, "attributes").attr("pads", ints({1, 0, 0, 1})).attr("value", float_attr(-1.f))
                      .in(random_in({2, 3})));
  // ChannelShuffle is made by the channel-shuffle pass (passes/channel_shuffle.cc), never parsed.
  auto shuffle = [](const char* what, int64_t groups) {
    return KernelCase("ChannelShuffle", 1, what).in_domain(kInternalDomain)
        .params("groups " + std::to_string(groups), [groups](const Node&) -> ParamsPtr {
          auto p = std::make_shared<ChannelShuffleParams>();
          p->groups = groups;
          return p;
        });
  };
  cases.push_back(shuffle("one input, 3 groups", 3).in(random_in({2, 12, 3, 3})));
  cases.push_back(shuffle("one input, 2 groups, 1-D", 2).in(random_in({1, 8, 5})));
  cases.push_back(shuffle("4 inputs", 4).in(random_in({1, 3, 2, 2})).in(random_in({1, 3, 2, 2}))
                      .in(random_in({1, 3, 2, 2})).in(random_in({1, 3, 2, 2})));
  cases.push_back(shuffle("X offered nChw16c: taken plain", 2).in(random_in({1, 32, 3, 3}).blocked())
                      .runs("dnnl", Takes::plain));
  add_bfloat16_view_cases(cases, 14, 13);
  return cases;
}

// ---- ops that make elements from data (ConstantOfShape, Expand, Tile, Range, EyeLike), Split, DepthToSpace, and the
// legacy opsets of the shape ops ----

std::vector<KernelCase> data_cases() {
  std::vector<KernelCase> cases;
  const Tensor ints6 = make_int_tensor({2, 3}, {1, -2, 3, -4, 5, -6});
  auto scalar = [](float v) { return given(make_tensor({}, {v})).constant(); };
  auto int_scalar = [](int64_t v) { return given(make_int_tensor({}, {v})).constant(); };
  Tensor int_value(DType::i64, {1});
  int_value.data<int64_t>()[0] = 7;
  cases.push_back(KernelCase("ConstantOfShape", 9, "default float 0").in(ints_in({2, 3})));
  cases.push_back(KernelCase("ConstantOfShape", 9, "int64 value").attr("value", tensor_attr(int_value))
                      .in(ints_in({4, 1, 2})));
  cases.push_back(KernelCase("ConstantOfShape", 9, "empty").in(ints_in({0, 3})));
  cases.push_back(KernelCase("Expand", 13, "both ways").in(random_in({3, 1})).in(ints_in({2, 1, 4})));
  cases.push_back(KernelCase("Expand", 8, "int64, same rank").in(given(make_int_tensor({1, 3}, {1, 2, 3})))
                      .in(ints_in({2, 3})));
  cases.push_back(KernelCase("Tile", 13, "repeats").in(random_in({2, 3})).in(ints_in({2, 3})));
  cases.push_back(KernelCase("Tile", 13, "a zero repeat").in(random_in({2, 3})).in(ints_in({0, 3})));
  cases.push_back(KernelCase("Tile", 6, "int64").in(given(ints6)).in(ints_in({1, 2})));
  cases.push_back(KernelCase("Tile", 1, "tiles and axis").in(random_in({2, 3}))
                      .in(int_scalar(3)).in(int_scalar(1)));
  cases.push_back(KernelCase("Range", 11, "float").in(scalar(1.f)).in(scalar(5.5f)).in(scalar(0.5f)));
  cases.push_back(KernelCase("Range", 11, "int64 negative delta").in(int_scalar(10)).in(int_scalar(-3))
                      .in(int_scalar(-4)));
  cases.push_back(KernelCase("Range", 11, "empty").in(int_scalar(3)).in(int_scalar(1)).in(int_scalar(1)));
  cases.push_back(KernelCase("Split", 13, "equal parts").attr("axis", int_attr(1)).in(random_in({2, 6, 2}))
                      .outputs(3));
  cases.push_back(KernelCase("Split", 13, "sizes input").in(random_in({5, 2})).in(ints_in({2, 0, 3})).outputs(3));
  cases.push_back(KernelCase("Split", 11, "sizes attribute").attr("axis", int_attr(-1)).attr("split", ints({1, 3}))
                      .in(given(make_int_tensor({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}))).outputs(2)
                      .declines("dnnl", "int64, not float32"));
  cases.push_back(KernelCase("Split", 13, "channels 16 + 32 of nChw16c").attr("axis", int_attr(1))
                      .in(random_in({1, 48, 3, 3}).blocked()).in(ints_in({16, 32})).outputs(2)
                      .runs("dnnl", Takes::offered));
  cases.push_back(KernelCase("Split", 13, "channels 8 + 24 of nChw16c (inside blocks)").attr("axis", int_attr(1))
                      .in(random_in({2, 32, 2, 3}).blocked()).in(ints_in({8, 24})).outputs(2)
                      .runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("Split", 13, "one part").in(random_in({3, 2})).outputs(1));
  cases.push_back(KernelCase("Split", 13, "int64 equal parts").in(given(make_int_tensor({4}, {1, 2, 3, 4}))).outputs(2)
                      .declines("dnnl", "int64, not float32"));
  cases.push_back(KernelCase("Split", 18, "num_outputs, smaller last").attr("num_outputs", int_attr(3))
                      .in(random_in({7})).outputs(3));
  cases.push_back(KernelCase("DepthToSpace", 13, "DCR").attr("blocksize", int_attr(2)).in(random_in({1, 8, 2, 3})));
  cases.push_back(KernelCase("DepthToSpace", 13, "CRD").attr("blocksize", int_attr(2)).attr("mode", string_attr("CRD"))
                      .in(random_in({2, 4, 2, 2})));
  cases.push_back(KernelCase("DepthToSpace", 1, "opset 1").attr("blocksize", int_attr(3)).in(random_in({1, 9, 1, 2})));
  cases.push_back(KernelCase("SpaceToDepth", 13, "blocksize 2").attr("blocksize", int_attr(2))
                      .in(random_in({1, 2, 4, 6})));
  cases.push_back(KernelCase("SpaceToDepth", 13, "blocksize 3, batch 2, X offered nChw16c: taken plain")
                      .attr("blocksize", int_attr(3)).in(random_in({2, 17, 6, 3}).blocked()).runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("DepthToSpace", 13, "CRD, X offered nChw16c: taken plain").attr("blocksize", int_attr(2))
                      .attr("mode", string_attr("CRD")).in(random_in({1, 32, 3, 2}).blocked()).runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("DepthToSpace", 13, "int64").attr("blocksize", int_attr(2))
                      .in(given(make_int_tensor({1, 4, 1, 1}, {1, 2, 3, 4}))).declines("dnnl", "int64, not float32"));
  // EyeLike: input 0 gives only the shape; dtype 11 float64, 1 float32, 9 bool.
  cases.push_back(KernelCase("EyeLike", 9, "int32 like, main diagonal")
                      .in(given(typed_tensor<int32_t>({4, 4}, std::vector<int32_t>(16, 7)))));
  cases.push_back(KernelCase("EyeLike", 9, "dtype float64").attr("dtype", int_attr(11)).in(random_in({3, 4})));
  cases.push_back(KernelCase("EyeLike", 9, "k 1, float32").attr("k", int_attr(1)).attr("dtype", int_attr(1))
                      .in(given(ints6)));
  cases.push_back(KernelCase("EyeLike", 9, "k -2, more rows than columns").attr("k", int_attr(-2))
                      .in(random_in({5, 3})));
  cases.push_back(KernelCase("EyeLike", 9, "k beyond the columns, bool").attr("k", int_attr(4))
                      .attr("dtype", int_attr(9)).in(random_in({2, 4})));
  cases.push_back(KernelCase("EyeLike", 9, "k int64 min").attr("k", int_attr(std::numeric_limits<int64_t>::min()))
                      .in(random_in({3, 3})));
  cases.push_back(KernelCase("EyeLike", 9, "empty").in(random_in({0, 3})));
  // Legacy opsets of the shape ops.
  cases.push_back(KernelCase("Reshape", 1, "shape attribute").attr("shape", ints({3, -1}))
                      .attr("consumed_inputs", ints({0})).in(random_in({2, 3, 2})).declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Reshape", 4, "shape attribute with 0").attr("shape", ints({0, 6}))
                      .in(random_in({2, 3, 2})).declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Pad", 1, "paddings").attr("paddings", ints({0, 1, 1, 0})).attr("value", float_attr(2.f))
                      .in(random_in({2, 3})));
  cases.push_back(KernelCase("Pad", 1, "reflect").attr("paddings", ints({0, 2, 0, 1})).attr("mode", string_attr("reflect"))
                      .in(random_in({2, 4})).declines("dnnl", "only constant mode"));
  cases.push_back(KernelCase("Dropout", 6, "is_test").attr("is_test", int_attr(1)).attr("ratio", float_attr(0.2f))
                      .in(random_in({2, 3})).outputs(2));
  cases.push_back(KernelCase("Dropout", 1, "consumed_inputs").attr("consumed_inputs", ints({0})).in(random_in({4})));
  cases.push_back(KernelCase("Concat", 3, "default axis 1").in(random_in({2, 1})).in(random_in({2, 2}))
                      .declines("channels-last", "rank 2"));
  cases.push_back(KernelCase("Concat", 3, "default axis 1, channels-last").in(random_in({2, 1, 3, 2}).channels_last())
                      .in(random_in({2, 2, 3, 2}).channels_last()).runs("channels-last", Takes::offered));
  cases.push_back(KernelCase("Identity", 1, "opset 1").in(random_in({3})));
  cases.push_back(KernelCase("Flatten", 1, "opset 1 default axis").in(random_in({2, 3, 4}))
                      .declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Slice", 9, "attributes with axes").attr("starts", ints({1})).attr("ends", ints({-1}))
                      .attr("axes", ints({1})).in(random_in({2, 5})));
  cases.push_back(KernelCase("Squeeze", 1, "no axes").in(random_in({1, 3, 1})).declines("dnnl", kFloat32View));
  cases.push_back(KernelCase("Unsqueeze", 1, "axes attribute").attr("axes", ints({0, 2})).in(random_in({3}))
                      .declines("dnnl", kFloat32View));
  add_bfloat16_view_cases(cases, 4, 11);
  return cases;
}

}  // namespace

KERNEL_CASES("shape ops", shape_cases)
KERNEL_CASES("data ops and legacy shape opsets", data_cases)
