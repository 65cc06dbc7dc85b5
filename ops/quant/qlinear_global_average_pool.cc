// com.microsoft QLinearGlobalAveragePool: parse and shape inference.
#include "ops/quant/qlinear_global_average_pool.h"

#include "ops/common/node_checks.h"
#include "ops/quant/quantization.h"

namespace cnnx {

QLinearGlobalAveragePoolParams parse_qlinear_global_average_pool(const Node& node) {
  check_node(node, 4, 5, {"channels_last"});
  const int64_t channels_last = node.attrs.get_int("channels_last", 0);
  require(channels_last == 0 || channels_last == 1, "attribute 'channels_last' must be 0 or 1, got ", channels_last);
  QLinearGlobalAveragePoolParams p;
  p.channels_last = channels_last == 1;
  return p;
}

std::vector<ValueInfo> infer_qlinear_global_average_pool(const QLinearGlobalAveragePoolParams& p,
                                                         const std::vector<ValueInfo>& in) {
  check_quantized_pool_inputs(in);
  const DType t = in[0].dtype;
  const ValueInfo& x = in[0];
  if (!x.rank_known) return {ValueInfo::unknown(t)};
  Shape y(x.shape.size(), 1);
  y[0] = x.shape[0];
  const size_t c = p.channels_last ? x.shape.size() - 1 : 1;
  y[c] = x.shape[c];
  return {ValueInfo::of(t, y)};
}

}  // namespace cnnx
