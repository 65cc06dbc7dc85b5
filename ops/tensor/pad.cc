// Pad (opset 2+), any element type.
#include "ops/tensor/pad.h"

#include <algorithm>
#include <cstring>

#include "ops/cast/cast.h"
#include "ops/common/data_movement.h"

namespace cnnx {

namespace {

const char* mode_name(PadMode m) {
  switch (m) {
    case PadMode::constant: return "constant";
    case PadMode::reflect: return "reflect";
    case PadMode::edge: return "edge";
    default: return "wrap";
  }
}

}  // namespace

PadParams parse_pad(const Node& node) {
  require_outputs(node, 1, 1);
  PadParams p;
  const std::string mode = node.attrs.get_string("mode", "constant");
  if (mode == "constant") p.mode = PadMode::constant;
  else if (mode == "reflect") p.mode = PadMode::reflect;
  else if (mode == "edge") p.mode = PadMode::edge;
  else if (mode == "wrap" && node.opset >= 19) p.mode = PadMode::wrap;
  else fail("attribute 'mode' = '", mode, "' is not one of constant, reflect, edge",
            node.opset >= 19 ? ", wrap" : " (wrap needs opset 19)");
  if (node.opset >= 11) {
    require_inputs(node, 2, node.opset >= 18 ? 4 : 3);
    node.attrs.allow_only({"mode"});
    p.from_inputs = true;
  } else {
    require_inputs(node, 1, 1);
    // Opset 1 names the pads `paddings` (same layout: begins of every axis, then ends).
    const char* pads_name = node.opset >= 2 ? "pads" : "paddings";
    if (node.opset >= 2) node.attrs.allow_only({"mode", "pads", "value"});
    else node.attrs.allow_only({"mode", "paddings", "value"});
    require(node.attrs.has(pads_name), "attribute '", pads_name, "' is required");
    p.pads = node.attrs.get_ints(pads_name);
    p.value = node.attrs.get_float("value", 0);
  }
  return p;
}

PadGeometry resolve_pad(PadMode mode, const Shape& data, const std::vector<int64_t>& pads,
                        const std::vector<int64_t>* axes_arg) {
  const int64_t rank = int64_t(data.size());
  std::vector<int64_t> axes;
  if (axes_arg) {
    axes = normalize_axes(*axes_arg, rank, "axis");
  } else {
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
  }
  require(pads.size() == 2 * axes.size(), "pads ", list_string(pads), " has ", pads.size(), " entries; ",
          2 * axes.size(), " expected (begin and end for each of ", axes.size(), " axes)");
  PadGeometry g;
  g.begin.assign(size_t(rank), 0);
  g.end.assign(size_t(rank), 0);
  g.out = data;
  for (size_t i = 0; i < axes.size(); ++i) {
    const size_t a = size_t(axes[i]);
    const int64_t b = pads[i], e = pads[axes.size() + i];
    if (std::min(b, e) < -kMaxSize || std::max(b, e) > kMaxSize) fail("pads ", list_string(pads),
            " has an entry beyond +-", kMaxSize);  // so dim + b + e cannot overflow
    g.begin[a] = b;
    g.end[a] = e;
    const int64_t dim = data[a];
    if (dim < 0) {
      g.out[a] = kUnknownDim;
      continue;
    }
    const int64_t out = dim + b + e;
    if (out < 0) fail("pads ", list_string(pads), " crop axis ", a, " of size ", dim, " below 0");
    g.out[a] = out;
    const int64_t kept = dim - std::max<int64_t>(0, -b) - std::max<int64_t>(0, -e);  // after cropping
    const bool pads_axis = b > 0 || e > 0;
    if (mode == PadMode::constant || !pads_axis) continue;
    require(kept >= 1, mode_name(mode), " padding of axis ", a, " needs a non-empty input after cropping (size ",
            dim, ", pads ", b, ", ", e, ")");
    if (mode == PadMode::reflect)
      require(kept >= 2 && b <= kept - 1 && e <= kept - 1, "reflect padding of axis ", a, " by ", b, ", ", e,
              " needs pads <= ", kept - 1, " (the axis has ", kept, " elements after cropping)");
  }
  return g;
}

std::vector<ValueInfo> infer_pad(const PadParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  if (!p.from_inputs) return {ValueInfo::of(x.dtype, resolve_pad(p.mode, x.shape, p.pads, nullptr).out)};
  if (present(in, 2)) {
    const ValueInfo& v = in[2];
    require(v.dtype == x.dtype, "input 2 (constant_value) has element type ", dtype_name(v.dtype),
            "; the data's is ", dtype_name(x.dtype));
    require(!is_concrete(v.shape) || checked_numel(v.shape) == 1,
            "input 2 (constant_value) must hold one value, got shape ", to_string(v.shape));
  }
  require_dtype(in, 1, {DType::i64}, "input");
  std::vector<int64_t> pads, axes;
  bool known = constant_ints(in, 1, pads);
  if (present(in, 3)) {
    require_dtype(in, 3, {DType::i64, DType::i32}, "input");
    known = constant_ints(in, 3, axes) && known;
  }
  if (!known) return {unknown_dims(x.dtype, x.rank())};
  return {ValueInfo::of(x.dtype, resolve_pad(p.mode, x.shape, pads, present(in, 3) ? &axes : nullptr).out)};
}

bool known_pads(const PadParams& p, const std::vector<ValueInfo>& in, KnownPads& known) {
  const ValueInfo& x = input(in, 0);
  std::vector<int64_t> pads = p.pads, axes;
  known.value = p.value;
  if (p.from_inputs) {
    if (!constant_ints(in, 1, pads) || (present(in, 3) && !constant_ints(in, 3, axes))) return false;
    if (present(in, 2))
      known.value = in[2].constant && in[2].constant->numel() == 1 ? std::optional<double>(in[2].constant->double_at(0))
                                                                   : std::nullopt;
  }
  const PadGeometry g = resolve_pad(p.mode, x.shape, pads, present(in, 3) ? &axes : nullptr);
  known.begin = g.begin;
  known.end = g.end;
  return true;
}

}  // namespace cnnx
