// Graph passes (passes/) and what the plan does with them: each rewrite keeps the results of the graph it
// rewrites (compared with the same graph planned with every pass off, and with the reference kernels),
// and the plan has the steps the rewrite promises.
#include <doctest/doctest.h>

#include "ops/builtin_ops.h"
#include "engine/compare.h"
#include "runtime/plan.h"
#include "passes/pass.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// Conv 8 -> 8 channels, 3x3, pads 1 on x [1, 8, 10, 10]; BN statistics far from identity so a wrong fold shows.
GraphBuilder conv_graph() {
  GraphBuilder b;
  Attributes conv;
  conv.set("pads", ints({1, 1, 1, 1}));
  Tensor var = random_tensor({8}, 5, 0.5f, 2.f);
  b.input("x", {1, 8, 10, 10})
      .initializer("w", random_tensor({8, 8, 3, 3}, 1, -0.3f, 0.3f))
      .initializer("bias", random_tensor({8}, 2))
      .initializer("scale", random_tensor({8}, 3, 0.5f, 2.f))
      .initializer("shift", random_tensor({8}, 4))
      .initializer("mean", random_tensor({8}, 6))
      .initializer("var", var)
      .node("Conv", {"x", "w", "bias"}, {"c"}, "conv", conv);
  return b;
}

std::vector<std::string> step_ops(const Plan& plan) {
  std::vector<std::string> ops;
  for (const PlanStep& s : plan.steps()) ops.push_back(s.node < 0 ? "reorder" : plan.graph().nodes[size_t(s.node)].op_type);
  return ops;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

}  // namespace

TEST_CASE("graph passes keep results and fuse what they promise") {
  struct Case {
    std::string what;
    GraphBuilder graph;
    std::string fused_ops;  // step op types with every pass on, reorders left out
    std::string left_alone;  // the one near match the passes report leaving alone, "PASS: NODE: why" ("": none)
  };
  std::vector<Case> cases;
  {
    GraphBuilder b = conv_graph();
    b.node("BatchNormalization", {"c", "scale", "shift", "mean", "var"}, {"n"}).node("Relu", {"n"}, {"y"}).output("y");
    cases.push_back({"Conv-BN-Relu", b, "FusedConv"});
  }
  {
    GraphBuilder b = conv_graph();
    b.node("Relu", {"x"}, {"r"})
        .node("BatchNormalization", {"c", "scale", "shift", "mean", "var"}, {"n"})
        .node("Add", {"n", "r"}, {"s"})
        .node("Relu", {"s"}, {"y"})
        .output("y");
    cases.push_back({"Conv-BN-Add(residual)-Relu", b, "Relu,FusedConv"});
  }
  {
    GraphBuilder b = conv_graph();
    b.initializer("lo", make_tensor({}, {0.f})).initializer("hi", make_tensor({}, {6.f}));
    b.node("Clip", {"c", "lo", "hi"}, {"y"}).output("y");
    cases.push_back({"Conv-Clip(0,6)", b, "FusedConv"});
  }
  {
    GraphBuilder b = conv_graph();
    b.node("Sigmoid", {"c"}, {"sg"}).node("Mul", {"c", "sg"}, {"y"}).output("y");
    cases.push_back({"Conv-SiLU", b, "FusedConv"});
  }
  {
    GraphBuilder b = conv_graph();
    Attributes leaky;
    leaky.set("alpha", float_attr(0.2f));
    b.node("LeakyRelu", {"c"}, {"y"}, "", leaky).output("y").output("c");
    cases.push_back({"Conv output is also a graph output: no fusion", b, "Conv,LeakyRelu"});
  }
  {
    GraphBuilder b = conv_graph();
    b.node("Add", {"c", "x"}, {"y"}).output("y");
    cases.push_back({"residual is the Conv's own input", b, "FusedConv"});
  }
  {
    GraphBuilder b = conv_graph();
    b.node("BatchNormalization", {"x", "scale", "shift", "mean", "var"}, {"n"}).node("Relu", {"n"}, {"r"})
        .node("Add", {"c", "r"}, {"y"}).output("y");
    cases.push_back({"BatchNormalization-Relu (not after a Conv)", b, "BatchNormalization,FusedConv"});
  }
  // Conv -> Reshape [1, 2, 4, 10, 10] -> Transpose(perm) -> Reshape [1, 8, 10, 10] -> Relu: channels-last from
  // the Conv through the shuffle on dnnl.
  auto reshape_transpose_reshape = [&](std::vector<int64_t> perm_dims) {
    GraphBuilder b = conv_graph();
    Attributes perm;
    perm.set("perm", ints(std::move(perm_dims)));
    b.initializer("grouped", make_int_tensor({5}, {1, 2, 4, 10, 10})).initializer("merged", make_int_tensor({4}, {1, 8, 10, 10}));
    b.node("Reshape", {"c", "grouped"}, {"g"}).node("Transpose", {"g"}, {"t"}, "", perm)
        .node("Reshape", {"t", "merged"}, {"s"}).node("Relu", {"s"}, {"y"}).output("y");
    return b;
  };
  cases.push_back({"channel shuffle", reshape_transpose_reshape({0, 2, 1, 3, 4}), "Conv,ChannelShuffle,Relu"});
  for (int64_t groups : {2, 4}) {
    GraphBuilder b = conv_graph();  // the shuffle reads the Concat's parts when there are `groups` of them
    Attributes perm, axis;
    perm.set("perm", ints({0, 2, 1, 3, 4}));
    axis.set("axis", int_attr(-3));
    b.initializer("grouped", make_int_tensor({5}, {1, groups, 16 / groups, 10, 10}))
        .initializer("merged", make_int_tensor({4}, {1, 16, 10, 10}));
    b.node("Relu", {"c"}, {"r"}).node("Concat", {"c", "r"}, {"cat"}, "", axis)
        .node("Reshape", {"cat", "grouped"}, {"g"}).node("Transpose", {"g"}, {"t"}, "", perm)
        .node("Reshape", {"t", "merged"}, {"s"}).node("Relu", {"s"}, {"y"}).output("y");
    cases.push_back({"channel shuffle of a Concat, " + std::to_string(groups) + " groups", b,
                     groups == 2 ? "Conv,Relu,ChannelShuffle,Relu" : "Conv,Relu,Concat,ChannelShuffle,Relu"});
  }
  {
    GraphBuilder b;  // N = 2, rank 3, a Concat of plain parts
    Attributes perm, axis;
    perm.set("perm", ints({0, 2, 1, 3}));
    axis.set("axis", int_attr(1));
    b.input("x", {2, 6, 5})
        .initializer("grouped", make_int_tensor({4}, {2, 2, 6, 5}))
        .initializer("merged", make_int_tensor({3}, {2, 12, 5}));
    b.node("Relu", {"x"}, {"a"}).node("Sigmoid", {"x"}, {"s"}).node("Concat", {"a", "s"}, {"cat"}, "", axis)
        .node("Reshape", {"cat", "grouped"}, {"g"}).node("Transpose", {"g"}, {"t"}, "", perm)
        .node("Reshape", {"t", "merged"}, {"y"}).output("y");
    cases.push_back({"channel shuffle of a Concat, N=2, rank 3", b, "Relu,Sigmoid,ChannelShuffle"});
  }
  // The Transpose swaps the wrong dims: no shuffle.
  cases.push_back({"not a channel shuffle", reshape_transpose_reshape({0, 1, 2, 4, 3}), "Conv,Reshape,Transpose,Reshape,Relu"});
  {
    GraphBuilder b;
    b.input("x", {2, 3}).node("Identity", {"x"}, {"i"}).node("Dropout", {"i"}, {"d"}).node("Relu", {"d"}, {"y"}).output("y");
    cases.push_back({"Identity and Dropout dropped", b, "Relu"});
  }

  // Pad [x 8 channels 10x10] -> reader: `pads` on every axis (begins, then ends), `value` the Pad's constant.
  auto padded = [&](std::vector<int64_t> pads, float value, const char* reader, Attributes attrs) {
    GraphBuilder b;
    b.input("x", {1, 8, 10, 10})
        .initializer("pads", make_int_tensor({8}, std::move(pads)))
        .initializer("value", make_tensor({}, {value}))
        .initializer("w", random_tensor({8, 8, 3, 3}, 1, -0.3f, 0.3f))
        .node("Pad", {"x", "pads", "value"}, {"p"});
    if (std::string(reader) == "Conv") b.node("Conv", {"p", "w"}, {"y"}, "", attrs);
    else b.node(reader, {"p"}, {"y"}, "", attrs);
    b.output("y");
    return b;
  };
  auto window = [](std::vector<int64_t> pads, int64_t count_include_pad, int64_t ceil_mode) {
    Attributes a;
    a.set("kernel_shape", ints({3, 3}));
    a.set("pads", ints(std::move(pads)));
    a.set("count_include_pad", int_attr(count_include_pad));
    a.set("ceil_mode", int_attr(ceil_mode));
    return a;
  };
  const std::vector<int64_t> hw1{0, 0, 1, 1, 0, 0, 1, 1}, hw_uneven{0, 0, 1, 0, 0, 0, 2, 1};
  cases.push_back({"Pad(0) -> AveragePool (torch's avg_pool2d(padding=1))", padded(hw1, 0, "AveragePool", window({0, 0, 0, 0}, 0, 0)),
                   "AveragePool"});
  cases.push_back({"Pad(0) -> AveragePool counting its own pads", padded(hw_uneven, 0, "AveragePool", window({1, 0, 0, 1}, 1, 0)),
                   "AveragePool"});
  {
    Attributes conv;
    conv.set("pads", ints({1, 1, 1, 1}));
    cases.push_back({"Pad(0) -> Conv with pads", padded(hw_uneven, 0, "Conv", conv), "Conv"});
    cases.push_back({"Pad(1) -> Conv: not folded", padded(hw1, 1, "Conv", conv), "Pad,Conv",
                     "fold-pad: Pad 'Pad0': pads with 1, not +0"});
    GraphBuilder shared = padded(hw1, 0, "Conv", conv);
    shared.node("Relu", {"p"}, {"r"}).output("r");
    cases.push_back({"Pad(0) -> Conv, the Pad read by a Relu too: not folded", shared, "Pad,Conv,Relu",
                     "fold-pad: Pad 'Pad0': read by another node too, or a graph output"});
    Attributes same;
    same.set("auto_pad", string_attr("SAME_UPPER"));
    cases.push_back({"Pad(0) -> Conv SAME_UPPER: not folded", padded(hw1, 0, "Conv", same), "Pad,Conv",
                     "fold-pad: Pad 'Pad0': Conv 'Conv1' pads by auto_pad"});
    cases.push_back({"Pad(0) of channels -> AveragePool: not folded", padded({0, 1, 0, 0, 0, 0, 0, 0}, 0, "AveragePool", window({0, 0, 0, 0}, 0, 0)),
                     "Pad,AveragePool", "fold-pad: Pad 'Pad0': pads axis 1 (channels)"});
  }
  cases.push_back({"Pad(0) -> AveragePool with pads not counted: not folded",
                   padded(hw1, 0, "AveragePool", window({1, 1, 1, 1}, 0, 0)), "Pad,AveragePool",
                   "fold-pad: Pad 'Pad0': AveragePool 'AveragePool1' has pads of its own that it does not count"});
  cases.push_back({"Pad(0) -> AveragePool with ceil_mode: not folded", padded(hw1, 0, "AveragePool", window({0, 0, 0, 0}, 1, 1)),
                   "Pad,AveragePool",
                   "fold-pad: Pad 'Pad0': AveragePool 'AveragePool1' has ceil_mode (a last window starting in the Pad's "
                   "cells would be dropped)"});
  cases.push_back({"Pad(-1) crops: not folded", padded({0, 0, -1, 1, 0, 0, 1, 1}, 0, "AveragePool", window({0, 0, 0, 0}, 1, 0)),
                   "Pad,AveragePool", "fold-pad: Pad 'Pad0': crops axis 2 (a negative pad)"});
  {
    Attributes max;
    max.set("kernel_shape", ints({3, 3}));
    cases.push_back({"Pad(0) -> MaxPool: not folded", padded(hw1, 0, "MaxPool", max), "Pad,MaxPool"});
  }

  // 1x1 Conv 8 -> 6 channels [with bias] on x [1, 8, 10, 10] -> `pool` with `attrs` [-> y], or `also` reading c.
  auto pointwise_then = [&](bool bias, const char* pool, Attributes attrs, const char* between = nullptr) {
    GraphBuilder b;
    b.input("x", {1, 8, 10, 10})
        .initializer("w1", random_tensor({6, 8, 1, 1}, 1, -0.5f, 0.5f))
        .initializer("b1", random_tensor({6}, 2));
    b.node("Conv", bias ? std::vector<std::string>{"x", "w1", "b1"} : std::vector<std::string>{"x", "w1"}, {"c"});
    if (between) b.node(between, {"c"}, {"a"});
    b.node(pool, {between ? "a" : "c"}, {"y"}, "", attrs).output("y");
    return b;
  };
  auto avg = [](std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads,
                int64_t count_include_pad, int64_t ceil_mode) {
    Attributes a;
    a.set("kernel_shape", ints(std::move(kernel)));
    a.set("strides", ints(std::move(strides)));
    a.set("pads", ints(std::move(pads)));
    a.set("count_include_pad", int_attr(count_include_pad));
    a.set("ceil_mode", int_attr(ceil_mode));
    return a;
  };
  const Attributes avg2x2 = avg({2, 2}, {2, 2}, {0, 0, 0, 0}, 0, 0);
  const std::string bias_scaled =
      "pool-first: Conv 'Conv0': has a bias, and AveragePool 'AveragePool1' may count pads in its divisor "
                   "(count_include_pad with pads or SAME auto_pad): the bias would come out scaled";
  cases.push_back({"1x1 Conv -> AveragePool 2x2 stride 2 (DenseNet's transition): pool first",
                   pointwise_then(false, "AveragePool", avg2x2), "AveragePool,Conv"});
  cases.push_back({"1x1 Conv with bias -> AveragePool 2x2 stride 2: pool first",
                   pointwise_then(true, "AveragePool", avg2x2), "AveragePool,Conv"});
  cases.push_back({"1x1 Conv -> AveragePool 3x3 stride 2, pads counted, ceil_mode: pool first (no bias)",
                   pointwise_then(false, "AveragePool", avg({3, 3}, {2, 2}, {1, 1, 1, 1}, 1, 1)), "AveragePool,Conv"});
  cases.push_back({"1x1 Conv with bias -> AveragePool with pads counted: not moved (windows sum the bias to < 1)",
                   pointwise_then(true, "AveragePool", avg({3, 3}, {2, 2}, {1, 1, 1, 1}, 1, 0)), "Conv,AveragePool",
                   bias_scaled});
  cases.push_back({"1x1 Conv with bias -> AveragePool with pads not counted, ceil_mode: pool first",
                   pointwise_then(true, "AveragePool", avg({3, 3}, {2, 2}, {1, 1, 1, 1}, 0, 1)), "AveragePool,Conv"});
  cases.push_back({"1x1 Conv with bias -> AveragePool counting no pads, ceil_mode: pool first (overhang never counted)",
                   pointwise_then(true, "AveragePool", avg({3, 3}, {2, 2}, {0, 0, 0, 0}, 1, 1)), "AveragePool,Conv"});
  {
    Attributes same;
    same.set("kernel_shape", ints({3, 3}));
    same.set("strides", ints({2, 2}));
    same.set("auto_pad", string_attr("SAME_UPPER"));
    same.set("count_include_pad", int_attr(1));
    cases.push_back({"1x1 Conv with bias -> AveragePool SAME_UPPER counting pads: not moved",
                     pointwise_then(true, "AveragePool", same), "Conv,AveragePool", bias_scaled});
    cases.push_back({"1x1 Conv -> AveragePool SAME_UPPER counting pads: pool first (no bias)",
                     pointwise_then(false, "AveragePool", same), "AveragePool,Conv"});
  }
  {
    GraphBuilder b = pointwise_then(false, "AveragePool", avg2x2);
    b.output("c");
    cases.push_back({"1x1 Conv output also a graph output: not moved", b, "Conv,AveragePool",
                     "pool-first: Conv 'Conv0': read by another node than AveragePool 'AveragePool1', or a graph output"});
  }
  {
    GraphBuilder b;
    b.input("x", {1, 8, 12, 12}).initializer("w1", random_tensor({6, 8, 1, 1}, 1, -0.5f, 0.5f))
        .initializer("b1", random_tensor({6}, 2))
        .node("Conv", {"x", "w1", "b1"}, {"c"}).node("AveragePool", {"c"}, {"p"}, "", avg2x2)
        .node("AveragePool", {"p"}, {"y"}, "", avg2x2).output("y");
    cases.push_back({"1x1 Conv -> two AveragePools: both first", b, "AveragePool,AveragePool,Conv"});
  }
  {
    GraphBuilder b;  // a 1x1 map: GlobalAveragePool does not shrink it
    b.input("x", {1, 8, 1, 1}).initializer("w1", random_tensor({6, 8, 1, 1}, 1, -0.5f, 0.5f))
        .node("Conv", {"x", "w1"}, {"c"}).node("GlobalAveragePool", {"c"}, {"y"}).output("y");
    cases.push_back({"1x1 Conv -> GlobalAveragePool of a 1x1 map: not moved", b, "Conv,GlobalAveragePool"});
  }
  cases.push_back({"1x1 Conv -> AveragePool 3x3 stride 1 pads 1 (same size): not moved",
                   pointwise_then(false, "AveragePool", avg({3, 3}, {1, 1}, {1, 1, 1, 1}, 1, 0)), "Conv,AveragePool"});
  cases.push_back({"1x1 Conv with bias -> GlobalAveragePool: pool first", pointwise_then(true, "GlobalAveragePool", {}),
                   "GlobalAveragePool,Conv"});
  cases.push_back({"1x1 Conv -> Relu -> AveragePool: not moved", pointwise_then(false, "AveragePool", avg2x2, "Relu"),
                   "FusedConv,AveragePool"});
  {
    GraphBuilder b = conv_graph();  // 3x3
    b.node("AveragePool", {"c"}, {"y"}, "", avg2x2).output("y");
    cases.push_back({"3x3 Conv -> AveragePool: not moved", b, "Conv,AveragePool"});
  }
  {
    GraphBuilder b = pointwise_then(false, "AveragePool", avg2x2);
    b.node("Relu", {"c"}, {"r"}).output("r");
    cases.push_back({"1x1 Conv read by the pool and another node: not moved", b, "Conv,AveragePool,Relu",
                     "pool-first: Conv 'Conv0': read by another node than AveragePool 'AveragePool1', or a graph output"});
  }

  // x [1, 8, 10, 10] -> Relu, Sigmoid [, Tanh]: parts of 8 channels -> Concat along `axis` [-> `pool`] ->
  // Conv (`out` channels, `kernel` square, pads kernel / 2, `group`, `bias`) -> Relu -> y.
  struct SplitGraph {
    int parts = 2;
    const char* pool = nullptr;
    int64_t out = 4, kernel = 1, group = 1, axis = 1;
    const char* bias = "bc";  // "": the optional input named empty
  };
  auto split_graph = [&](SplitGraph s) {
    GraphBuilder b;
    const char* part_ops[] = {"Relu", "Sigmoid", "Tanh"};
    std::vector<std::string> parts;
    b.input("x", {1, 8, 10, 10});
    for (int i = 0; i < s.parts; ++i) {
      parts.push_back(std::string("p") + char('0' + i));
      b.node(part_ops[i], {"x"}, {parts.back()});
    }
    const int64_t channels = s.axis == 1 ? 8 * s.parts : 8;
    Attributes axis, conv, pool;
    axis.set("axis", int_attr(s.axis));
    conv.set("pads", ints(std::vector<int64_t>(4, s.kernel / 2)));
    conv.set("group", int_attr(s.group));
    pool.set("kernel_shape", ints({2, 2}));
    pool.set("strides", ints({2, 2}));
    b.initializer("wc", random_tensor({s.out, channels / s.group, s.kernel, s.kernel}, 7, -0.4f, 0.4f))
        .initializer("bc", random_tensor({s.out}, 8))
        .node("Concat", parts, {"cat"}, "cat", axis);
    if (s.pool) b.node(s.pool, {"cat"}, {"pooled"}, "", pool);
    b.node("Conv", {s.pool ? "pooled" : "cat", "wc", s.bias}, {"c"}, "", conv).node("Relu", {"c"}, {"y"}).output("y");
    return b;
  };
  cases.push_back({"Concat of 2 -> 1x1 Conv 16 -> 4 (SqueezeNet's squeeze): one Conv per part, summed",
                   split_graph({}), "Relu,Sigmoid,Conv,FusedConv"});
  cases.push_back({"Concat -> Conv whose bias is named empty: split", split_graph({2, nullptr, 4, 1, 1, 1, ""}),
                   "Relu,Sigmoid,Conv,FusedConv"});
  cases.push_back({"Concat of 3 -> 3x3 Conv 24 -> 4: split", split_graph({3, nullptr, 4, 3}),
                   "Relu,Sigmoid,Tanh,Conv,FusedConv,FusedConv"});
  cases.push_back({"Concat -> MaxPool -> Conv: a pool per part, then split", split_graph({2, "MaxPool"}),
                   "Relu,Sigmoid,MaxPool,MaxPool,Conv,FusedConv"});
  cases.push_back({"Concat -> AveragePool -> Conv: a pool per part, then split", split_graph({2, "AveragePool"}),
                   "Relu,Sigmoid,AveragePool,AveragePool,Conv,FusedConv"});
  {
    GraphBuilder b = split_graph({});
    b.initializer("wd", random_tensor({4, 16, 1, 1}, 9, -0.4f, 0.4f)).node("Conv", {"cat", "wd"}, {"d"}).output("d");
    cases.push_back({"Concat read by two cheap Convs: both split", b, "Relu,Sigmoid,Conv,Conv,FusedConv,FusedConv"});
  }
  {
    GraphBuilder b = split_graph({});
    b.node("Relu", {"cat"}, {"r"}).output("r");
    cases.push_back({"Concat also read by a Relu: not split", b, "Relu,Sigmoid,Concat,Relu,FusedConv",
                     "split-conv: Concat 'cat': read by Relu 'Relu5', not a Conv"});
  }
  {
    GraphBuilder b = split_graph({});
    b.output("cat");
    cases.push_back({"Concat is a graph output: not split", b, "Relu,Sigmoid,Concat,FusedConv",
                     "split-conv: Concat 'cat': is a graph output"});
  }
  cases.push_back({"Concat -> Conv 16 -> 24: the sum re-reads more than the copy: not split",
                   split_graph({2, nullptr, 24}), "Relu,Sigmoid,Concat,FusedConv",
                   "split-conv: Concat 'cat': cheaper copied: split, the output of its one Conv reader would be re-read once per "
                   "part after the first, 2400 values per image, more than the 1600 the Concat's copy writes"});
  cases.push_back({"Concat of 1 -> Conv: not split", split_graph({1, nullptr, 4, 1, 1, 1, "bc"}), "Relu,Concat,FusedConv",
                   "split-conv: Concat 'cat': has one part"});
  {
    GraphBuilder b;  // the Conv's weights are a graph input
    Attributes axis;
    axis.set("axis", int_attr(1));
    b.input("x", {1, 8, 10, 10}).input("wc", {4, 16, 1, 1});
    b.node("Relu", {"x"}, {"p0"}).node("Sigmoid", {"x"}, {"p1"}).node("Concat", {"p0", "p1"}, {"cat"}, "cat", axis)
        .node("Conv", {"cat", "wc"}, {"y"}).output("y");
    cases.push_back({"Concat -> Conv whose weights are an input: not split", b, "Relu,Sigmoid,Concat,Conv",
                     "split-conv: Concat 'cat': the weights of Conv 'Conv3' are not constant float32"});
  }
  cases.push_back({"Concat -> Conv with 2 groups: not split", split_graph({2, nullptr, 4, 1, 2}),
                   "Relu,Sigmoid,Concat,FusedConv", "split-conv: Concat 'cat': Conv 'Conv3' has 2 groups"});
  cases.push_back({"Concat along H -> Conv: not split", split_graph({2, nullptr, 4, 1, 1, 2}),
                   "Relu,Sigmoid,Concat,FusedConv", "split-conv: Concat 'cat': joins along axis 2, not channels (1)"});
  cases.push_back({"Concat -> Conv with 0 output channels: not split (nothing to slice)",
                   split_graph({2, nullptr, 0}), "Relu,Sigmoid,Concat,FusedConv",
                   "split-conv: Concat 'cat': Conv 'Conv3' writes an empty output [1,0,10,10]"});
  {
    GraphBuilder b = split_graph({2, "MaxPool"});
    b.output("pooled");
    cases.push_back({"Concat -> MaxPool, also a graph output -> Conv: not split", b, "Relu,Sigmoid,Concat,MaxPool,FusedConv",
                     "split-conv: Concat 'cat': MaxPool 'MaxPool3' is read by more than one node, or is a graph output"});
  }
  {
    GraphBuilder b;  // Indices count positions across all channels: a pool per part would number them anew
    Attributes axis, pool;
    axis.set("axis", int_attr(1));
    pool.set("kernel_shape", ints({2, 2}));
    pool.set("strides", ints({2, 2}));
    b.input("x", {1, 8, 10, 10}).initializer("wc", random_tensor({4, 16, 1, 1}, 7, -0.4f, 0.4f));
    b.node("Relu", {"x"}, {"p0"}).node("Sigmoid", {"x"}, {"p1"}).node("Concat", {"p0", "p1"}, {"cat"}, "cat", axis)
        .node("MaxPool", {"cat"}, {"pooled", "indices"}, "", pool).node("Conv", {"pooled", "wc"}, {"y"}).output("y");
    cases.push_back({"Concat -> MaxPool with Indices -> Conv: not split", b, "Relu,Sigmoid,Concat,MaxPool,Conv",
                     "split-conv: Concat 'cat': MaxPool 'MaxPool3' writes Indices, which count positions across all channels"});
  }

  // x [1, 8, 10, 10] -> AveragePool with one window per axis: the plane's mean (global-average-pool) only when
  // the window takes every cell and divides by their count.
  auto one_window = [](std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads,
                       int64_t count_include_pad) {
    Attributes a;
    a.set("kernel_shape", ints(std::move(kernel)));
    a.set("strides", ints(std::move(strides)));
    a.set("pads", ints(std::move(pads)));
    a.set("count_include_pad", int_attr(count_include_pad));
    GraphBuilder b;
    b.input("x", {1, 8, 10, 10}).node("AveragePool", {"x"}, {"y"}, "", a).output("y");
    return b;
  };
  cases.push_back({"AveragePool 10x10 over 10x10: GlobalAveragePool", one_window({10, 10}, {1, 1}, {0, 0, 0, 0}, 0),
                   "GlobalAveragePool"});
  cases.push_back({"AveragePool 11x11, a pad not counted: GlobalAveragePool",
                   one_window({11, 11}, {1, 1}, {1, 1, 0, 0}, 0), "GlobalAveragePool"});
  cases.push_back({"AveragePool 11x11, a pad counted: not the mean", one_window({11, 11}, {1, 1}, {1, 1, 0, 0}, 1),
                   "AveragePool",
                   "global-average-pool: AveragePool 'AveragePool0': count_include_pad=1 divides by 11 cells on axis 2, "
                   "padding included, where the input has 10"});
  cases.push_back({"AveragePool 10x10 stride 10 shifted by a pad: not the mean",
                   one_window({10, 10}, {10, 10}, {1, 0, 0, 0}, 0), "AveragePool",
                   "global-average-pool: AveragePool 'AveragePool0': its one window takes 9 of the input's 10 cells on axis 2"});

  for (Case& c : cases) {
    const auto [graph, infos, inputs] = build(c.graph, 9);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(c.what);
      CAPTURE(backend_name(backend));
      auto fused = Plan::build(graph, infos, backend);
      auto plain = Plan::build(graph, infos, Backend::ref, graph_pass_names());
      std::vector<std::string> ops;
      for (const std::string& op : step_ops(*fused))
        if (op != "reorder") ops.push_back(op);
      CHECK(joined(ops) == c.fused_ops);
      std::vector<std::string> declined;
      for (const PassReport& r : fused->pass_reports())
        for (const std::string& line : r.declined) declined.push_back(r.pass + ": " + line);
      CAPTURE(c.left_alone);
      CAPTURE(joined(declined));
      CHECK(joined(declined) == c.left_alone);
      const std::vector<Tensor> got = run_verified(*fused, inputs), want = plain->run(inputs);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        // Folding BN changes where W is rounded: within the Conv tolerance of the unfused result.
        CHECK(within_tolerance("Conv", 11, got[i], want[i]) == "");
      }
    }
  }
}

TEST_CASE("a fused residual add writes over the residual's buffer when nothing reads it later") {
  GraphBuilder b = conv_graph();
  b.node("Relu", {"x"}, {"r"}).node("Add", {"c", "r"}, {"y"}).node("Sigmoid", {"y"}, {"z"}).output("z");
  build_graph(b.g, builtin_ops());
  auto graph = std::make_shared<const Graph>(b.g);
  auto plan = Plan::build(graph, {graph->value(graph->inputs[0]).info}, Backend::dnnl);
  const int r = plan->graph().find_value("r"), y = plan->graph().find_value("y");
  REQUIRE(plan->slot(r).kind == ValueSlot::arena);
  CHECK(plan->slot(y).offset == plan->slot(r).offset);
}

TEST_CASE("an unknown pass name is an error listing the known ones") {
  GraphBuilder b;
  b.input("x", {2}).node("Relu", {"x"}, {"y"}).output("y");
  build_graph(b.g, builtin_ops());
  auto graph = std::make_shared<const Graph>(b.g);
  std::string err;
  try {
    Plan::build(graph, {graph->value(graph->inputs[0]).info}, Backend::dnnl, {"fuse-everything"});
  } catch (const Error& e) {
    err = e.what();
  }
  CHECK(err.find("unknown graph pass 'fuse-everything'") != std::string::npos);
  CHECK(err.find("fuse-conv") != std::string::npos);
}

TEST_CASE("a Reshape shares its input's buffer, and a view read later keeps the residual from being overwritten") {
  GraphBuilder b = conv_graph();
  b.initializer("flat", make_int_tensor({2}, {1, 800}));
  // r feeds the fused residual add and, through the view v, a later Add: writing y over r would corrupt v.
  b.node("Relu", {"x"}, {"r"})
      .node("Reshape", {"r", "flat"}, {"v"})
      .node("Add", {"c", "r"}, {"y"})
      .node("Reshape", {"y", "flat"}, {"yv"})
      .node("Add", {"yv", "v"}, {"z"})
      .output("z");
  const auto [graph, in, x] = build(b, 11);
  const Tensor want = Plan::build(graph, in, Backend::ref, graph_pass_names())->run(x)[0];
  for (Backend backend : {Backend::dnnl, Backend::ref}) {
    CAPTURE(backend_name(backend));
    auto plan = Plan::build(graph, in, backend);
    const Graph& pg = plan->graph();
    const int r = pg.find_value("r"), v = pg.find_value("v"), y = pg.find_value("y");
    CHECK(plan->slot(v).offset == plan->slot(r).offset);  // the view
    CHECK(plan->slot(y).offset != plan->slot(r).offset);  // not in place: v is read after the fused Add
    CHECK(within_tolerance("Conv", 11, plan->run(x)[0], want) == "");
  }
}

TEST_CASE("elementwise, binary and BatchNormalization steps write over an input nothing reads later") {
  GraphBuilder b;
  b.input("x", {1, 8, 10, 10})
      .initializer("s", random_tensor({1, 8, 1, 1}, 3))
      .initializer("scale", random_tensor({8}, 4, 0.5f, 2.f))
      .initializer("shift", random_tensor({8}, 5))
      .initializer("mean", random_tensor({8}, 6))
      .initializer("var", random_tensor({8}, 7, 0.5f, 2.f))
      .node("Tanh", {"x"}, {"a"})
      .node("Sigmoid", {"a"}, {"e"})           // a dies here: e over a
      .node("Mul", {"e", "s"}, {"m"})          // broadcast Mul: m over e
      .node("BatchNormalization", {"m", "scale", "shift", "mean", "var"}, {"n"})  // n over m
      .node("Add", {"n", "m2"}, {"y"})
      .node("Relu", {"x"}, {"m2"})             // read by the Add with n: y over n (input 0)
      .node("Sub", {"y", "x"}, {"z"})
      .output("z");
  const auto [graph, in, x] = build(b, 11);
  const Tensor want = Plan::build(graph, in, Backend::ref, graph_pass_names())->run(x)[0];
  auto plan = Plan::build(graph, in, Backend::dnnl);
  const Graph& pg = plan->graph();
  auto offset = [&](const char* name) { return plan->slot(pg.find_value(name)).offset; };
  CHECK(offset("e") == offset("a"));
  CHECK(offset("m") == offset("e"));
  CHECK(offset("n") == offset("m"));
  CHECK(offset("y") == offset("n"));
  CHECK(offset("m2") != offset("n"));  // alive together
  // End to end within the chain's loosest op's tolerance; each step checked against its reference on the way.
  CHECK(within_tolerance("BatchNormalization", 15, run_verified(*plan, x)[0], want) == "");
}

TEST_CASE("a ResNeXt block keeps the layout its first convolution picks: no reorders around the grouped one") {
  // x -> 1x1 (64 -> 128) -> Relu -> 3x3 in 32 groups of 4 -> Relu -> 1x1 (128 -> 64) -> + x -> Relu. Left to
  // choose, oneDNN runs the grouped convolution in nChw4c and a 1x1 convolution offered nChw4c/nChw8c with
  // slower code (AVX2 on AVX-512 machines): the grouped one takes the layout that arrives.
  GraphBuilder b;
  Attributes grouped;
  grouped.set("pads", ints({1, 1, 1, 1}));
  grouped.set("group", int_attr(32));
  b.input("x", {1, 64, 14, 14})
      .initializer("w1", random_tensor({128, 64, 1, 1}, 1, -0.2f, 0.2f))
      .initializer("w2", random_tensor({128, 4, 3, 3}, 2, -0.3f, 0.3f))
      .initializer("w3", random_tensor({64, 128, 1, 1}, 3, -0.2f, 0.2f))
      .node("Conv", {"x", "w1"}, {"c1"}).node("Relu", {"c1"}, {"r1"})
      .node("Conv", {"r1", "w2"}, {"c2"}, "", grouped).node("Relu", {"c2"}, {"r2"})
      .node("Conv", {"r2", "w3"}, {"c3"}).node("Add", {"c3", "x"}, {"s"}).node("Relu", {"s"}, {"y"})
      .output("y");
  const auto [graph, in, x] = build(b, 12);
  auto plan = Plan::build(graph, in, Backend::dnnl);
  std::vector<std::string> layouts;  // per step: op and output layout
  int reorders = 0;
  for (const PlanStep& s : plan->steps()) {
    reorders += s.node < 0;
    layouts.push_back((s.node < 0 ? std::string("reorder") : plan->graph().nodes[size_t(s.node)].op_type) + " " +
                      plan->slot(s.outputs[0]).layout.name());
  }
  CAPTURE(joined(layouts));
  // The input into the convolutions' layout and the output back to plain; around the grouped convolution
  // (the second step after the first reorder) none where oneDNN runs it in the layout that arrives, else one
  // on each side and it runs plain: oneDNN 2.6's AVX2 code has no blocked kernel for 4 channels per group
  // (its GEMM kernel reads plain or channels-last), its AVX-512 code has.
  const std::vector<PlanStep>& steps = plan->steps();
  size_t g_step = 0;  // the second step that runs a node
  for (int nodes = 0; g_step < steps.size() && (steps[g_step].node < 0 || ++nodes < 2);) ++g_step;
  REQUIRE(g_step + 1 < steps.size());
  const bool reorders_around = steps[g_step - 1].node < 0;
  CHECK(reorders <= (reorders_around ? 4 : 2));
  if (reorders_around) {
    CHECK(steps[g_step + 1].node < 0);
    CHECK(is_plain(plan->slot(steps[g_step].outputs[0]).layout));
  }
  const Tensor want = Plan::build(graph, in, Backend::ref, graph_pass_names())->run(x)[0];
  CHECK(within_tolerance("Conv", 12, run_verified(*plan, x)[0], want) == "");
}

TEST_CASE("a pass that rewrites nodes in place reports them, one that changes nothing reports no match") {
  Attributes pool;
  pool.set("kernel_shape", ints({2, 2}));
  pool.set("strides", ints({2, 2}));
  GraphBuilder b;
  b.input("x", {1, 8, 6, 6}).initializer("w", random_tensor({4, 8, 1, 1}, 1))
      .node("Conv", {"x", "w"}, {"c"}).node("AveragePool", {"c"}, {"y"}, "", pool).output("y");
  const auto [graph, infos, inputs] = build(b, 3);
  auto plan = Plan::build(graph, infos, Backend::dnnl);
  std::map<std::string, std::string> summaries;
  for (const PassReport& r : plan->pass_reports()) summaries[r.pass] = r.summary();
  CHECK(summaries["pool-first"] == "rewrote 2 nodes (AveragePool x1, Conv x1)");
  CHECK(summaries["fold-pad"] == "no match");
  auto off = Plan::build(graph, infos, Backend::dnnl, {"pool-first"});
  for (const PassReport& r : off->pass_reports())
    if (r.pass == std::string("pool-first")) CHECK(r.summary() == "disabled");
}
