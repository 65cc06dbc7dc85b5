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
#include <cstdio>

#include "ops/conv/conv.h"
#include "ops/tensor/concat.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// One reader of the Concat: a Conv reading it as X, maybe through a pool read only by that Conv.
struct SplitReader {
  const Node* pool = nullptr;
  const Node* conv = nullptr;
};

std::string whole_number(double x) {
  char s[32];
  std::snprintf(s, sizeof s, "%.0f", x);
  return s;
}

bool average_or_max_pool(const Node& node) { return is_op(node, "MaxPool") || is_op(node, "AveragePool"); }

// Why a Conv reading `x` cannot be split over it ("" when it can): it must read `x` as its input X only, with
// one group and constant float32 weights (and bias, if any) and a known, non-empty output shape past the
// batch (W [M, C, ...] with M > 0).
std::string unsplittable(const Graph& g, const Node& conv, int x) {
  const std::string name = node_label(conv);
  if (conv.inputs[0] != x || conv.outputs[0] < 0) return name + " reads it as another input than X";
  if (conv.inputs.size() < 2 || conv.inputs[1] < 0) return name + " has no weights";
  for (size_t i = 1; i < conv.inputs.size(); ++i) {
    if (conv.inputs[i] < 0) continue;
    const ValueInfo& v = g.value(conv.inputs[i]).info;
    if (conv.inputs[i] == x || !v.constant || v.dtype != DType::f32)
      return std::string(i == 1 ? "the weights" : "the bias") + " of " + name + " are not constant float32";
  }
  const Shape& y = g.value(conv.outputs[0]).info.shape;
  for (size_t d = 1; d < y.size(); ++d)
    if (y[d] <= 0) return name + " writes an empty output " + to_string(y);
  const int64_t group = params_as<ConvParams>(*conv.params, conv.op_type).group;
  return group == 1 ? "" : name + " has " + std::to_string(group) + " groups";
}

// Conv reading parts [offset, offset + C) of W's input channels: W[:, offset:offset + C, ...]. W has
// M > 0 and C > 0 (unsplittable, and the Concat's parts each have channels).
Tensor input_channel_slice(const Tensor& W, int64_t offset, int64_t channels) {
  Shape shape = W.shape();
  const int64_t M = shape[0], C = shape[1], taps = W.numel() / (M * C);
  shape[1] = channels;
  Tensor slice = Tensor::uninitialized(DType::f32, shape);
  for (int64_t m = 0; m < M; ++m)
    std::copy_n(W.data<float>() + (m * C + offset) * taps, channels * taps, slice.data<float>() + m * channels * taps);
  return slice;
}

// The Concat's readers into `readers` when every one is a splittable Conv (maybe through a pool read only by
// it); else why not.
std::string split_readers(const Graph& g, const std::vector<std::vector<int>>& consumers, int concat,
                          std::vector<SplitReader>& readers) {
  for (int r : consumers[size_t(concat)]) {
    SplitReader reader;
    const Node* node = &g.nodes[size_t(r)];
    int x = concat;
    if (average_or_max_pool(*node) && node->inputs[0] == concat) {
      reader.pool = node;
      const std::string name = node_label(*node);
      for (size_t i = 1; i < node->outputs.size(); ++i)
        if (node->outputs[i] >= 0) return name + " writes Indices, which count positions across all channels";
      x = node->outputs[0];
      node = x < 0 ? nullptr : sole_reader(g, consumers, x);
      if (!node) return name + " is read by more than one node, or is a graph output";
    }
    if (!is_op(*node, "Conv"))
      return (reader.pool ? node_label(*reader.pool) + " is " : std::string()) + "read by " + node_label(*node) +
             ", not a Conv";
    if (const std::string why = unsplittable(g, *node, x); !why.empty()) return why;
    reader.conv = node;
    readers.push_back(reader);
  }
  return "";
}

// True when `concat` starts a near match of the pattern: a Conv reads it as X, maybe through a pool.
bool read_by_conv(const Graph& g, const std::vector<std::vector<int>>& consumers, int concat) {
  auto conv_reading = [&](int x) {
    for (int r : consumers[size_t(x)])
      if (is_op(g.nodes[size_t(r)], "Conv") && g.nodes[size_t(r)].inputs[0] == x) return true;
    return false;
  };
  if (conv_reading(concat)) return true;
  for (int r : consumers[size_t(concat)]) {
    const Node& node = g.nodes[size_t(r)];
    if (average_or_max_pool(node) && node.inputs[0] == concat && node.outputs[0] >= 0 && conv_reading(node.outputs[0]))
      return true;
  }
  return false;
}

}  // namespace

void split_conv_over_concat(Graph& g, PassDeclines& declines) {
  const auto consumers = consumers_of(g);
  std::vector<std::vector<Node>> instead(g.nodes.size());  // per node index: the nodes to put in its place
  std::vector<bool> replaced(g.nodes.size(), false);
  for (const Node& concat : g.nodes) {
    if (!is_op(concat, "Concat") || concat.outputs[0] < 0) continue;
    const int x = concat.outputs[0];
    // The pattern's anchor: a Concat read by a Conv; what fails past it is a near match.
    if (!read_by_conv(g, consumers, x)) continue;
    const ValueInfo& xi = g.value(x).info;
    const std::vector<ValueInfo> parts_in = input_infos(g, concat);
    bool known = xi.shape.size() >= 3;
    for (const ValueInfo& p : parts_in) known = known && p.shape.size() == xi.shape.size() && p.shape[1] > 0;
    for (size_t d = 1; known && d < xi.shape.size(); ++d) known = xi.shape[d] > 0;
    const size_t axis = known ? concat_axis(params_as<ConcatParams>(*concat.params, concat.op_type), parts_in) : 0;
    std::vector<SplitReader> readers;
    std::string why = is_graph_output(g, x)    ? "is a graph output"
                      : xi.dtype != DType::f32 ? std::string(dtype_name(xi.dtype)) + ", not float32"
                      : concat.inputs.size() < 2 ? "has one part"
                      : !known                   ? "rank below 3, a part without channels, or an empty output " +
                                                       to_string(xi.shape)
                      : axis != 1                ? "joins along axis " + std::to_string(axis) + ", not channels (1)"
                                                 : split_readers(g, consumers, x, readers);
    if (!why.empty()) {
      declines.add(concat, why);
      continue;
    }
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
    if (rereads > per_image(xi.shape)) {
      const std::string outputs = readers.size() == 1 ? "the output of its one Conv reader would"
                                                      : "the outputs of its " + std::to_string(readers.size()) +
                                                            " Conv readers would";
      declines.add(concat, "cheaper copied: split, " + outputs + " be re-read once per part after the first, " +
                               whole_number(rereads) + " values per image, more than the " +
                               whole_number(per_image(xi.shape)) + " the Concat's copy writes");
      continue;
    }

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
