// Flatten, Reshape, Squeeze, Unsqueeze: shape derivation in infer, a byte copy as the kernel.
#include "ops/tensor/reshape.h"

#include "ops/common/data_movement.h"

namespace cnnx {

namespace {
struct BytesView : CompiledKernel {
  void run(const KernelIO& io) const override { copy_bytes(*io.in[0], *io.out[0]); }
  bool views_input() const override { return true; }
};
}  // namespace

std::unique_ptr<CompiledKernel> compile_view() { return std::make_unique<BytesView>(); }

// ---- Flatten ----

FlattenParams parse_flatten(const Node& node) {
  check_node(node, 1, 1, {"axis"});
  FlattenParams p;
  p.axis = node.attrs.get_int("axis", 1);
  return p;
}

std::vector<ValueInfo> infer_flatten(const FlattenParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  const int64_t rank = x.rank();
  require(p.axis >= -rank && p.axis <= rank, "axis ", p.axis, " is out of range [", -rank, ", ", rank,
          "] for an input of rank ", rank);
  const size_t axis = size_t(p.axis < 0 ? p.axis + rank : p.axis);
  return {ValueInfo::of(x.dtype, {product_or_unknown(x.shape, 0, axis),
                                  product_or_unknown(x.shape, axis, x.shape.size())})};
}

// ---- Reshape ----

ReshapeParams parse_reshape(const Node& node) {
  require_outputs(node, 1, 1);
  if (node.opset < 5) {
    require_inputs(node, 1, 1);
    node.attrs.allow_only({"shape", "consumed_inputs"});
    require(node.attrs.has("shape"), "attribute 'shape' is required (opset ", node.opset, ")");
    ReshapeParams p;
    p.shape_from_attr = true;
    p.shape = node.attrs.get_ints("shape");
    return p;
  }
  require_inputs(node, 2, 2);
  if (node.opset >= 14) node.attrs.allow_only({"allowzero"});
  else node.attrs.allow_only({});
  ReshapeParams p;
  const int64_t allowzero = node.attrs.get_int("allowzero", 0);
  require(allowzero == 0 || allowzero == 1, "attribute 'allowzero' must be 0 or 1, got ", allowzero);
  p.allowzero = allowzero == 1;
  return p;
}

namespace {

// The output shape for input dims `data` (may hold unknown dims) and the requested `shape`.
Shape reshape_output(const Shape& data, const std::vector<int64_t>& shape, bool allowzero) {
  Shape out(shape.size());
  int64_t infer_at = -1;
  bool has_zero = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t s = shape[i];
    if (s < -1) fail("shape ", list_string(shape), " has dim ", s, " at index ", i, " (only -1 may be negative)");
    if (s == -1) {
      if (infer_at >= 0) fail("shape ", list_string(shape), " has more than one -1");
      infer_at = int64_t(i);
      out[i] = kUnknownDim;
    } else if (s == 0 && !allowzero) {
      if (i >= data.size()) fail("shape ", list_string(shape), " has 0 at index ", i,
              " (copy the input dim) but the input has rank ", data.size());
      out[i] = data[i];
    } else {
      has_zero = has_zero || s == 0;
      out[i] = s;
    }
  }
  require(!(allowzero && has_zero && infer_at >= 0), "shape ", list_string(shape),
          " has both 0 and -1, which is ambiguous with allowzero = 1");
  const int64_t total = product_or_unknown(data, 0, data.size());
  Shape known = out;
  if (infer_at >= 0) known.erase(known.begin() + infer_at);
  const int64_t rest = product_or_unknown(known, 0, known.size());
  if (infer_at >= 0) {
    if (total >= 0 && rest > 0) {
      require(total % rest == 0, "cannot reshape ", to_string(data), " to ", list_string(shape), ": ", total,
              " elements are not a multiple of ", rest);
      out[size_t(infer_at)] = total / rest;
    } else if (rest == 0) {
      fail("cannot infer the -1 in shape ", list_string(shape), ": the other dims multiply to 0");
    }
  } else if (total >= 0 && rest >= 0) {
    require(total == rest, "cannot reshape ", to_string(data), " (", total, " elements) to ",
            list_string(shape), " (", rest, " elements)");
  }
  return out;
}

}  // namespace

std::vector<ValueInfo> infer_reshape(const ReshapeParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  if (p.shape_from_attr) return {ValueInfo::of(x.dtype, reshape_output(x.shape, p.shape, false))};
  require_dtype(in, 1, {DType::i64}, "input");
  std::vector<int64_t> shape;
  if (!constant_ints(in, 1, shape)) {
    const ValueInfo& s = in[1];
    require(s.rank() == 1, "input 1 (shape) must be 1-D, got shape ", to_string(s.shape));
    return {s.shape[0] >= 0 ? unknown_dims(x.dtype, s.shape[0]) : ValueInfo::unknown(x.dtype)};
  }
  return {ValueInfo::of(x.dtype, reshape_output(x.shape, shape, p.allowzero))};
}

// ---- Squeeze / Unsqueeze ----

namespace {

AxesParams parse_axes_op(const Node& node, bool axes_required) {
  require_outputs(node, 1, 1);
  AxesParams p;
  if (node.opset >= 13) {
    require_inputs(node, axes_required ? 2 : 1, 2);
    node.attrs.allow_only({});
    p.axes_from_input = true;
  } else {
    require_inputs(node, 1, 1);
    node.attrs.allow_only({"axes"});
    p.has_axes = node.attrs.has("axes");
    require(p.has_axes || !axes_required, "attribute 'axes' is required");
    p.axes = node.attrs.get_ints("axes");
  }
  return p;
}

// Reads the axes (attribute or constant input 1). False when input 1 is there but not known yet.
bool axes_of(const AxesParams& p, const std::vector<ValueInfo>& in, bool& has_axes, std::vector<int64_t>& axes) {
  if (!p.axes_from_input) {
    has_axes = p.has_axes;
    axes = p.axes;
    return true;
  }
  has_axes = present(in, 1);
  if (!has_axes) return true;
  require_dtype(in, 1, {DType::i64}, "input");
  return constant_ints(in, 1, axes);
}

}  // namespace

AxesParams parse_squeeze(const Node& node) { return parse_axes_op(node, false); }

AxesParams parse_unsqueeze(const Node& node) { return parse_axes_op(node, true); }

std::vector<ValueInfo> infer_squeeze(const AxesParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  bool has_axes = false;
  std::vector<int64_t> axes;
  if (!axes_of(p, in, has_axes, axes)) return {ValueInfo::unknown(x.dtype)};
  std::vector<bool> drop(x.shape.size(), false);
  if (has_axes) {
    for (int64_t a : normalize_axes(axes, x.rank(), "axis")) {
      const int64_t d = x.shape[size_t(a)];
      require(d == 1 || d == kUnknownDim, "cannot squeeze axis ", a, " of size ", d, " (input shape ",
              to_string(x.shape), ")");
      drop[size_t(a)] = true;
    }
  } else {
    // Which dims are 1 is not known until every dim is.
    if (!is_concrete(x.shape)) return {ValueInfo::unknown(x.dtype)};
    for (size_t a = 0; a < x.shape.size(); ++a) drop[a] = x.shape[a] == 1;
  }
  Shape out;
  for (size_t a = 0; a < x.shape.size(); ++a)
    if (!drop[a]) out.push_back(x.shape[a]);
  return {ValueInfo::of(x.dtype, out)};
}

std::vector<ValueInfo> infer_unsqueeze(const AxesParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  bool has_axes = false;
  std::vector<int64_t> axes;
  if (!axes_of(p, in, has_axes, axes)) {
    const ValueInfo& a = in[1];
    require(a.rank() <= 1, "input 1 (axes) must be 1-D, got shape ", to_string(a.shape));
    const int64_t count = a.rank() == 0 ? 1 : a.shape[0];
    return {count >= 0 ? unknown_dims(x.dtype, x.rank() + count) : ValueInfo::unknown(x.dtype)};
  }
  const int64_t out_rank = x.rank() + int64_t(axes.size());
  std::vector<bool> inserted(size_t(out_rank), false);
  for (int64_t a : normalize_axes(axes, out_rank, "axis")) inserted[size_t(a)] = true;
  Shape out;
  size_t next = 0;
  for (int64_t a = 0; a < out_rank; ++a) out.push_back(inserted[size_t(a)] ? 1 : x.shape[next++]);
  return {ValueInfo::of(x.dtype, out)};
}

}  // namespace cnnx
