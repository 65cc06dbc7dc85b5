// com.microsoft QLinearAveragePool: parse and shape inference.
#include "ops/quant/qlinear_average_pool.h"

#include "ops/common/node_checks.h"
#include "ops/quant/quantization.h"

namespace cnnx {

QLinearAveragePoolParams parse_qlinear_average_pool(const Node& node) {
  check_node(node, 4, 5, {"auto_pad", "ceil_mode", "channels_last", "count_include_pad", "kernel_shape", "pads",
                         "strides"});
  QLinearAveragePoolParams p;
  p.window = parse_pool_window(node.attrs);
  p.count_include_pad = node.attrs.get_flag("count_include_pad", false);
  p.channels_last = node.attrs.get_flag("channels_last", false);
  return p;
}

Shape qlinear_pool_spatial(const QLinearAveragePoolParams& p, const Shape& x) {
  return p.channels_last ? Shape(x.begin() + 1, x.end() - 1) : Shape(x.begin() + 2, x.end());
}

std::vector<ValueInfo> infer_qlinear_average_pool(const QLinearAveragePoolParams& p, const std::vector<ValueInfo>& in) {
  check_quantized_pool_inputs(in);
  const DType t = in[0].dtype;
  const ValueInfo& x = in[0];
  if (!x.rank_known) return {ValueInfo::unknown(t)};
  const Shape out = resolve_pool_geometry(p.window, qlinear_pool_spatial(p, x.shape)).output_spatial();
  Shape y{x.shape[0]};
  if (!p.channels_last) y.push_back(x.shape[1]);
  y.insert(y.end(), out.begin(), out.end());
  if (p.channels_last) y.push_back(x.shape.back());
  return {ValueInfo::of(t, y)};
}

}  // namespace cnnx
