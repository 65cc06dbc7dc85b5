// Pass "pool-first": a 1x1 Conv (stride 1, no pads) read only by an AveragePool or GlobalAveragePool that
// shrinks the map runs after the pool instead: Pool(Conv(x)) as Conv(Pool(x)). DenseNet's transition layers
// (BN -> ReLU -> 1x1 Conv -> 2x2 AveragePool stride 2) then convolve a quarter of the pixels: 11% of
// densenet121's multiply-adds become 3%.
//
// Why the result is the same: a 1x1 convolution is one linear map of each pixel's channels, the same at every
// pixel; an average pool is one weighted sum of pixels per output, the same weights for every channel. The
// two commute exactly in real arithmetic (float32 rounds the sums in another order: within the tolerance of
// a dot product). A bias b is added once at every pixel, and comes out of the pool as sum(weights) * b: the
// same only when every window's weights sum to 1, i.e. the divisor counts exactly the taps inside the input
// (ops/pool/pool_geometry.h): always without count_include_pad, and with it when there are no pads (no
// SAME auto_pad; a ceil_mode window's overhang is never counted).
#include "ops/conv/conv.h"
#include "ops/pool/pool.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// True when `conv` is a 1x1 convolution with stride 1 and no padding: the same linear map at every pixel.
bool pointwise(const Graph& g, const Node& conv) {
  const ConvGeometry geo = resolve_conv_geometry(params_as<ConvParams>(*conv.params, conv.op_type), input_infos(g, conv));
  return all_equal(geo.kernel, 1) && all_equal(geo.stride, 1) && all_equal(geo.pad_begin, 0) &&
         all_equal(geo.pad_end, 0);
}

// True when every window of the pool divides by the number of its taps inside the input.
bool weights_sum_to_one(const Node& pool) {
  if (is_op(pool, "GlobalAveragePool")) return true;
  const auto& p = params_as<PoolParams>(*pool.params, pool.op_type);
  const PoolWindow& w = p.window;
  return !p.count_include_pad ||
         (w.auto_pad != PoolAutoPad::same_upper && w.auto_pad != PoolAutoPad::same_lower && all_equal(w.pads, 0));
}

}  // namespace

void pool_before_pointwise_conv(Graph& g, PassDeclines& declines) {
  const auto consumers = consumers_of(g);
  auto is_average_pool = [](const Node& n) { return is_op(n, "AveragePool") || is_op(n, "GlobalAveragePool"); };
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& conv = g.nodes[n];
    if (!is_op(conv, "Conv") || conv.outputs[0] < 0) continue;
    // The pattern's anchor: a 1x1 Conv (stride 1, no pads) read by an average pool that shrinks the map (the
    // Conv then runs on fewer pixels); what fails past it is a near match.
    const ValueInfo& x = g.value(conv.inputs[0]).info;
    const Node* pool = nullptr;
    for (int r : consumers[size_t(conv.outputs[0])]) {
      const Node& reader = g.nodes[size_t(r)];
      if (pool || !is_average_pool(reader) || reader.outputs[0] < 0) continue;
      const Shape& y = g.value(reader.outputs[0]).info.shape;
      if (numel_range(y, 2, y.size()) < numel_range(x.shape, 2, x.shape.size())) pool = &reader;
    }
    if (!pool || !pointwise(g, conv)) continue;
    const std::string pool_name = node_label(*pool);
    std::string why;
    if (!sole_reader(g, consumers, conv.outputs[0]))
      why = "read by another node than " + pool_name + ", or a graph output";
    else if (x.dtype != DType::f32)
      why = dtype_name(x.dtype) + ", not float32";
    else if (conv.inputs.size() > 2 && conv.inputs[2] >= 0 && !weights_sum_to_one(*pool))
      why = "has a bias, and " + pool_name + " may count pads in its divisor (count_include_pad with pads or "
            "SAME auto_pad): the bias would come out scaled";
    if (!why.empty()) {
      declines.add(conv, why);
      continue;
    }
    const ValueInfo& y = g.value(pool->outputs[0]).info;

    Shape pooled_shape = y.shape;
    pooled_shape[1] = x.shape[1];
    const int pooled = add_value(g, g.value(conv.inputs[0]).name + "_pooled", ValueInfo::of(DType::f32, pooled_shape));
    const std::string note = pool->op_type + " before " + conv.op_type + " from '" + conv.name + "' '" + pool->name + "'";
    std::vector<int> conv_inputs = conv.inputs;
    conv_inputs[0] = pooled;
    Node pool_first = make_node(g, pool->name, "", pool->op_type, {conv.inputs[0]}, {pooled}, pool->attrs, note);
    Node conv_after = make_node(g, conv.name, "", conv.op_type, conv_inputs, pool->outputs, conv.attrs, note);
    // The Conv's place is before the pool's: the pool, reading the Conv's input, takes it; the Conv the pool's.
    const size_t pool_at = size_t(pool - g.nodes.data());
    g.nodes[n] = std::move(pool_first);
    g.nodes[pool_at] = std::move(conv_after);
  }
}

}  // namespace cnnx
