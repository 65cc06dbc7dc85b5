#include "ops/reduce/reduce_mean.h"

#include <type_traits>

#include "ops/common/broadcast.h"

namespace cnnx {

namespace {

bool read_flag(const Attributes& attrs, const char* name, int64_t fallback) {
  const int64_t v = attrs.get_int(name, fallback);
  require(v == 0 || v == 1, "attribute '", name, "' is ", v, "; expected 0 or 1");
  return v == 1;
}

// The axes a kernel run uses: input 1's values when given (opset 18), else the attribute's.
std::vector<int64_t> axes_of_run(const ReduceMeanParams& p, const KernelIO& io) {
  if (!p.axes_from_input || io.in.size() < 2 || !io.in[1]) return p.axes;
  const Tensor& t = *io.in[1];
  require(t.dtype() == DType::i64, "input 1 (axes) must be int64, got ", dtype_name(t.dtype()));
  require(t.rank() == 1, "input 1 (axes) must be 1-D, got shape ", to_string(t.shape()));
  return std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel());
}

template <class T>
void mean_over(const Tensor& x, const std::vector<bool>& reduced, Tensor& y) {
  const Shape& shape = x.shape();
  // Accumulators laid out like the output; the input walks them with stride 0 along reduced dims.
  Shape kept = shape;
  int64_t count = 1;
  for (size_t d = 0; d < shape.size(); ++d)
    if (reduced[d]) count *= shape[d], kept[d] = 1;
  std::vector<int64_t> acc_strides = strides_of(kept);
  for (size_t d = 0; d < shape.size(); ++d)
    if (reduced[d]) acc_strides[d] = 0;
  std::vector<double> acc(size_t(y.numel()), 0.0);
  const T* src = x.data<T>();
  for_each_broadcast<1>(shape, {acc_strides}, [&](int64_t i, const int64_t* off) { acc[size_t(off[0])] += double(src[i]); });
  T* dst = y.data<T>();
  for (size_t j = 0; j < acc.size(); ++j) dst[j] = T(acc[j] / double(count));  // count 0: NaN
}

}  // namespace

ReduceMeanParams parse_reduce_mean(const Node& node) {
  ReduceMeanParams p;
  require_outputs(node, 1, 1);
  p.axes_from_input = node.opset >= 18;
  p.negative_axes = node.opset >= 11;
  for (const auto& [name, value] : node.attrs.all()) {
    if (name == "axes")
      require(!p.axes_from_input, "attribute 'axes' is input 1 from opset 18 on; the model imports opset ", node.opset);
    else if (name == "noop_with_empty_axes")
      require(p.axes_from_input, "attribute 'noop_with_empty_axes' needs opset 18 or newer; the model imports opset ",
              node.opset);
    else
      require(name == "keepdims", "unknown attribute '", name, "'");
  }
  if (!p.axes_from_input) require(node.inputs.size() <= 1, "input 1 (axes) needs opset 18 or newer; the model imports opset ", node.opset);
  require_inputs(node, 1, p.axes_from_input ? 2 : 1);
  p.axes = node.attrs.get_ints("axes");
  p.keepdims = read_flag(node.attrs, "keepdims", 1);
  p.noop_with_empty_axes = read_flag(node.attrs, "noop_with_empty_axes", 0);
  return p;
}

std::vector<bool> resolve_reduce_axes(const ReduceMeanParams& p, const std::vector<int64_t>& axes, int64_t rank) {
  if (axes.empty()) return std::vector<bool>(size_t(rank), !p.noop_with_empty_axes);
  std::vector<bool> reduced(size_t(rank), false);
  for (int64_t axis : axes) {
    require(p.negative_axes || axis >= 0, "axis ", axis, " is negative; negative axes need opset 11 or newer");
    const int64_t d = normalize_axis(axis, rank, "axis");
    require(!reduced[size_t(d)], "axis ", axis, " is listed twice in axes");
    reduced[size_t(d)] = true;
  }
  return reduced;
}

Shape reduced_shape(const Shape& in, const std::vector<bool>& reduced, bool keepdims) {
  Shape out;
  for (size_t d = 0; d < in.size(); ++d) {
    if (!reduced[d]) out.push_back(in[d]);
    else if (keepdims) out.push_back(1);
  }
  return out;
}

std::vector<ValueInfo> infer_reduce_mean(const ReduceMeanParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32, DType::f64});
  const ValueInfo& x = in[0];
  std::vector<int64_t> axes = p.axes;
  if (p.axes_from_input && present(in, 1)) {
    require_dtype(in, 1, {DType::i64});
    require(in[1].rank() == 1, "input 1 (axes) must be 1-D, got shape ", to_string(in[1].shape));
    if (!constant_ints(in, 1, axes)) {
      // Runtime axes: which dims are reduced is known only when the node runs.
      if (!p.keepdims) return {ValueInfo::unknown(x.dtype)};
      Shape out = x.shape;
      for (int64_t& d : out) d = d == 1 ? 1 : kUnknownDim;
      return {ValueInfo::of(x.dtype, out)};
    }
  }
  return {ValueInfo::of(x.dtype, reduced_shape(x.shape, resolve_reduce_axes(p, axes, x.rank()), p.keepdims))};
}

void reduce_mean_ref(const ReduceMeanParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  const std::vector<bool> reduced = resolve_reduce_axes(p, axes_of_run(p, io), x.rank());
  const Shape want = reduced_shape(x.shape(), reduced, p.keepdims);
  require(y.shape() == want, "the axes give output shape ", to_string(want), " but the output has shape ",
          to_string(y.shape()));
  require(y.dtype() == x.dtype(), "output element type ", dtype_name(y.dtype()), " differs from the input's ",
          dtype_name(x.dtype()));
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<T>) mean_over<T>(x, reduced, y);
    else fail("element type ", dtype_name(x.dtype()), " is not supported");
  });
}

}  // namespace cnnx
