// Pass "split-conv": a Conv (one group, constant weights) reading a Concat along channels, directly or through
// a MaxPool or AveragePool, runs as one Conv per part of the Concat, their outputs summed; when every reader
// of the Concat is such a Conv, the Concat is not made at all. SqueezeNet's fire modules (two expand
// convolutions concatenated, read by the next squeeze convolution) then copy nothing: squeezenet1_0 0.90x at
// batch 8, 0.89-0.97x at batch 1 (bench/README.md, "SqueezeNet: no Concat copies").
//
// Why the result is the same: a convolution is a sum over its input channels, so over the Concat's parts:
// Conv(Concat(a, b), [Wa Wb], B) = Conv(a, Wa, B) + Conv(b, Wb). A pool acts on each channel alone:
// Pool(Concat(a, b)) = Concat(Pool(a), Pool(b)). float32 rounds the sums in another order: within the
// tolerance of a dot product. fuse-conv (after this pass) makes each Add the next Conv's residual (oneDNN's
// sum post-op) and the Conv's activation that of the last one.
//
// When it pays: a copy of the Concat reads and writes all its bytes; the split makes each reader's part
// Convs after the first add into its output, reading it again. The pass splits only where those re-reads,
// summed over the readers, come to at most the Concat's bytes (a fire module's squeeze output has 1/8 of
// them); GoogLeNet's inception modules, read by four convolutions of up to 384 channels over four parts, stay
// as they are (measured no faster split). Concats the plan would join in place for free (plain parts at
// batch 1: the reference backend) are split all the same, so that both backends run one graph.
//
// Memory: each plan makes its own slices of W, and the model keeps W itself (never read by a plan then, so
// never released as prepared weights are): a split Conv's weights are held twice, plus oneDNN's copy.
// SqueezeNet's are 5 MB in all.
#include <algorithm>

#include "ops/conv/conv.h"
#include "ops/shape/concat.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// One reader of the Concat: a Conv reading it as X, maybe through a pool read only by that Conv.
struct SplitReader {
  const Node* pool = nullptr;
  const Node* conv = nullptr;
};

bool per_channel_pool(const Node& node) {
  if (!is_op(node, "MaxPool") && !is_op(node, "AveragePool")) return false;
  for (size_t i = 1; i < node.outputs.size(); ++i)
    if (node.outputs[i] >= 0) return false;  // MaxPool's Indices count positions across channels
  return true;
}

// True for a Conv that reads `x` as its input X only, with one group and constant float32 weights (and
// bias, if any) and a known, non-empty output shape past the batch (W [M, C, ...] with M > 0).
bool splittable_conv(const Graph& g, const Node& conv, int x) {
  if (!is_op(conv, "Conv") || conv.inputs[0] != x || conv.outputs[0] < 0) return false;
  for (size_t i = 1; i < conv.inputs.size(); ++i) {
    if (conv.inputs[i] < 0) continue;
    const ValueInfo& v = g.value(conv.inputs[i]).info;
    if (conv.inputs[i] == x || !v.constant || v.dtype != DType::f32) return false;
  }
  if (conv.inputs.size() < 2 || conv.inputs[1] < 0) return false;
  const Shape& y = g.value(conv.outputs[0]).info.shape;
  for (size_t d = 1; d < y.size(); ++d)
    if (y[d] <= 0) return false;
  return params_as<ConvParams>(*conv.params, conv.op_type).group == 1;
}

// Conv reading parts [offset, offset + C) of W's input channels: W[:, offset:offset + C, ...]. W has
// M > 0 and C > 0 (splittable_conv, and the Concat's parts each have channels).
Tensor input_channel_slice(const Tensor& W, int64_t offset, int64_t channels) {
  Shape shape = W.shape();
  const int64_t M = shape[0], C = shape[1], taps = W.numel() / (M * C);
  shape[1] = channels;
  Tensor slice = Tensor::uninitialized(DType::f32, shape);
  for (int64_t m = 0; m < M; ++m)
    std::copy_n(W.data<float>() + (m * C + offset) * taps, channels * taps, slice.data<float>() + m * channels * taps);
  return slice;
}

// The Concat's readers when every one is a splittable Conv (maybe through a pool), else empty.
std::vector<SplitReader> split_readers(const Graph& g, const std::vector<std::vector<int>>& consumers, int concat) {
  std::vector<SplitReader> readers;
  for (int r : consumers[size_t(concat)]) {
    SplitReader reader;
    const Node* node = &g.nodes[size_t(r)];
    int x = concat;
    if (per_channel_pool(*node) && node->inputs[0] == concat) {
      reader.pool = node;
      x = node->outputs[0];
      if (x < 0) return {};
      node = sole_reader(g, consumers, x);
    }
    if (!node || !splittable_conv(g, *node, x)) return {};
    reader.conv = node;
    readers.push_back(reader);
  }
  return readers;
}

}  // namespace

void split_conv_over_concat(Graph& g, Backend) {
  const auto consumers = consumers_of(g);
  std::vector<std::vector<Node>> instead(g.nodes.size());  // per node index: the nodes to put in its place
  std::vector<bool> replaced(g.nodes.size(), false);
  for (const Node& concat : g.nodes) {
    if (!is_op(concat, "Concat") || concat.outputs[0] < 0 || is_graph_output(g, concat.outputs[0])) continue;
    const int x = concat.outputs[0];
    const ValueInfo& xi = g.value(x).info;
    const std::vector<ValueInfo> parts_in = input_infos(g, concat);
    if (xi.dtype != DType::f32 || xi.shape.size() < 3 || concat.inputs.size() < 2 ||
        concat_axis(params_as<ConcatParams>(*concat.params, concat.op_type), parts_in) != 1)
      continue;
    bool known = true;
    for (const ValueInfo& p : parts_in) known = known && p.shape.size() == xi.shape.size() && p.shape[1] > 0;
    for (size_t d = 1; d < xi.shape.size(); ++d) known = known && xi.shape[d] > 0;
    const std::vector<SplitReader> readers = known ? split_readers(g, consumers, x) : std::vector<SplitReader>{};
    if (readers.empty()) continue;
    // The re-reads of the readers' outputs (per image) against the Concat's bytes, in double: per-image
    // counts are bounded only with the batch, which may be 0.
    const int64_t parts = int64_t(concat.inputs.size());
    auto per_image = [](const Shape& shape) {
      double n = 1;
      for (size_t d = 1; d < shape.size(); ++d) n *= double(shape[d]);
      return n;
    };
    double rereads = 0;
    for (const SplitReader& r : readers)
      rereads += double(parts - 1) * per_image(g.value(r.conv->outputs[0]).info.shape);
    if (rereads > per_image(xi.shape)) continue;

    for (const SplitReader& r : readers) {
      const Node& conv = *r.conv;
      const std::shared_ptr<const Tensor> W = g.value(conv.inputs[1]).info.constant;
      const Shape y = g.value(conv.outputs[0]).info.shape;  // a copy: add_value grows g.values
      const std::string note = "Conv over Concat part from '" + concat.name + "' '" + conv.name + "'" +
                               (r.pool ? " through '" + r.pool->name + "'" : "");
      std::vector<Node> nodes;
      int64_t offset = 0;
      int sum = -1;
      for (int64_t j = 0; j < parts; ++j) {
        int part = concat.inputs[size_t(j)];
        const int64_t channels = g.value(part).info.shape[1];
        const std::string suffix = "_part" + std::to_string(j);
        if (r.pool) {
          Shape pooled = g.value(r.pool->outputs[0]).info.shape;
          pooled[1] = channels;
          const int q = add_value(g, g.value(part).name + "_pooled" + suffix, ValueInfo::of(DType::f32, pooled));
          nodes.push_back(make_node(g, r.pool->name + suffix, "", r.pool->op_type, {part}, {q}, r.pool->attrs, note));
          part = q;
        }
        const Tensor slice = input_channel_slice(*W, offset, channels);
        const int w = add_value(g, g.value(conv.inputs[1]).name + suffix, ValueInfo::of(slice));
        offset += channels;
        std::vector<int> inputs = {part, w};
        if (j == 0 && conv.inputs.size() > 2 && conv.inputs[2] >= 0) inputs.push_back(conv.inputs[2]);
        const bool last = j + 1 == parts;
        const int out = add_value(g, g.value(conv.outputs[0]).name + suffix, ValueInfo::of(DType::f32, y));
        nodes.push_back(make_node(g, conv.name + suffix, "", "Conv", inputs, {out}, conv.attrs, note));
        if (sum < 0) {
          sum = out;
          continue;
        }
        const int added = last ? conv.outputs[0] : add_value(g, g.value(conv.outputs[0]).name + "_sum" + suffix,
                                                             ValueInfo::of(DType::f32, y));
        nodes.push_back(make_node(g, conv.name + "_add" + suffix, "", "Add", {out, sum}, {added}, {}, note));
        sum = added;
      }
      const size_t at = size_t(&conv - g.nodes.data());
      instead[at] = std::move(nodes);
      replaced[at] = true;
      if (r.pool) replaced[size_t(r.pool - g.nodes.data())] = true;
    }
  }
  std::vector<Node> kept;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (!replaced[n]) kept.push_back(std::move(g.nodes[n]));
    for (Node& node : instead[n]) kept.push_back(std::move(node));
  }
  g.nodes = std::move(kept);  // the Concats no one reads now go with run_graph_passes' remove_dead_nodes
}

}  // namespace cnnx
