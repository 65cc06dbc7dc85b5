// Slice (opset 1+), any element type.
#include "ops/tensor/slice.h"

#include <algorithm>

#include "ops/common/data_movement.h"

namespace cnnx {

SliceParams parse_slice(const Node& node) {
  require_outputs(node, 1, 1);
  SliceParams p;
  if (node.opset >= 10) {
    require_inputs(node, 3, 5);
    node.attrs.allow_only({});
    p.from_inputs = true;
    return p;
  }
  require_inputs(node, 1, 1);
  node.attrs.allow_only({"starts", "ends", "axes"});
  require(node.attrs.has("starts") && node.attrs.has("ends"), "attributes 'starts' and 'ends' are required");
  p.starts = node.attrs.get_ints("starts");
  p.ends = node.attrs.get_ints("ends");
  p.has_axes = node.attrs.has("axes");
  p.axes = node.attrs.get_ints("axes");
  return p;
}

SliceGeometry resolve_slice(const Shape& data, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                            const std::vector<int64_t>* axes_arg, const std::vector<int64_t>* steps) {
  const size_t rank = data.size();
  const size_t n = starts.size();
  require(ends.size() == n, "starts ", list_string(starts), " and ends ", list_string(ends),
          " differ in length");
  std::vector<int64_t> axes;
  if (axes_arg) {
    require(axes_arg->size() == n, "axes ", list_string(*axes_arg), " and starts ", list_string(starts),
            " differ in length");
    axes = normalize_axes(*axes_arg, int64_t(rank), "axis");
  } else {
    require(n <= rank, "starts ", list_string(starts), " has more entries than the input's rank ", rank);
    for (size_t i = 0; i < n; ++i) axes.push_back(int64_t(i));
  }
  if (steps)
    require(steps->size() == n, "steps ", list_string(*steps), " and starts ", list_string(starts),
            " differ in length");
  SliceGeometry g;
  g.start.assign(rank, 0);
  g.step.assign(rank, 1);
  g.out = data;
  for (size_t i = 0; i < n; ++i) {
    const size_t a = size_t(axes[i]);
    const int64_t step = steps ? (*steps)[i] : 1;
    if (step == 0) fail("steps ", list_string(*steps), " has a 0 step for axis ", a);
    g.step[a] = step;
    const int64_t dim = data[a];
    if (dim < 0) continue;  // unknown until planned
    // ONNX: negative indices count from the end; then clamp to [0, dim] (step > 0) or [0, dim-1] for the
    // start and [-1, dim-1] for the end (step < 0, where -1 means "through index 0").
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
    int64_t len = 0;
    if (step > 0) {
      start = std::max<int64_t>(0, std::min(start, dim));
      end = std::max<int64_t>(0, std::min(end, dim));
      // (end - start) <= dim, so this cannot overflow even for huge steps.
      len = end > start ? (end - start - 1) / step + 1 : 0;
    } else if (dim > 0) {
      start = std::max<int64_t>(0, std::min(start, dim - 1));
      end = std::max<int64_t>(-1, std::min(end, dim - 1));
      const uint64_t stride = uint64_t(0) - uint64_t(step);  // |step|, also for INT64_MIN
      len = start > end ? int64_t(uint64_t(start - end - 1) / stride + 1) : 0;
    }
    g.start[a] = len > 0 ? start : 0;
    g.out[a] = len;
  }
  return g;
}

std::vector<ValueInfo> infer_slice(const SliceParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  if (!p.from_inputs)
    return {ValueInfo::of(x.dtype, resolve_slice(x.shape, p.starts, p.ends, p.has_axes ? &p.axes : nullptr,
                                                 nullptr).out)};
  std::vector<int64_t> args[4];  // starts, ends, axes, steps
  bool known = true;
  for (size_t i = 1; i <= 4; ++i) {
    if (!present(in, i)) continue;
    require_dtype(in, i, {DType::i64, DType::i32}, "input");
    known = constant_ints(in, i, args[i - 1]) && known;
  }
  if (!known) return {unknown_dims(x.dtype, x.rank())};
  return {ValueInfo::of(x.dtype, resolve_slice(x.shape, args[0], args[1], present(in, 3) ? &args[2] : nullptr,
                                               present(in, 4) ? &args[3] : nullptr).out)};
}

bool constant_geometry(const SliceParams& p, const std::vector<ValueInfo>& in, SliceGeometry& g) {
  if (!p.from_inputs) {
    g = resolve_slice(in[0].shape, p.starts, p.ends, p.has_axes ? &p.axes : nullptr, nullptr);
    return true;
  }
  std::vector<int64_t> args[4];
  for (size_t i = 1; i <= 4; ++i)
    if (present(in, i) && !constant_ints(in, i, args[i - 1])) return false;
  g = resolve_slice(in[0].shape, args[0], args[1], present(in, 3) ? &args[2] : nullptr,
                    present(in, 4) ? &args[3] : nullptr);
  return true;
}

}  // namespace cnnx
