// Binary, variadic and ternary (Where) elementwise ops: parse, shape inference and registration
// (the reference kernels: binary_ref.cc).
#include "ops/eltwise/binary.h"

#include <cmath>
#include <type_traits>

#include "engine/op.h"
#include "ops/common/broadcast.h"
#include "ops/common/node_checks.h"

namespace cnnx {

namespace {

// Sum and Mean of k inputs: the order of k - 1 additions may differ between kernels (Mean's reference adds in
// double, then divides once).
constexpr Tolerance kSumOrder{1e-7, 1e-6};
// Pow: the reference rounds double pow (within 1 ulp of double) to the element type: within half an ulp of
// float32 except in double-rounding ties; other engines' powf is within 1 ulp (glibc, numpy), and oneDNN's
// eltwise pow (a few float32 multiplications for small integer exponents) within 2. 4 ulps of float32 (2^-21)
// relative covers them, and tiny results (subnormals) get 1e-38 absolute.
constexpr Tolerance kPowTolerance{1e-38, 4.8e-7};

constexpr std::initializer_list<DType> kNumeric = {DType::f32, DType::f64, DType::i64, DType::i32, DType::i8, DType::u8};

bool is_logical(BinaryKind k) {
  return k == BinaryKind::logical_and || k == BinaryKind::logical_or || k == BinaryKind::logical_xor;
}

bool is_float(DType t) { return t == DType::f32 || t == DType::f64; }

// ---- parse ----

// The legacy broadcast/axis attributes of the binary ops before opset 7; `consumed_inputs` too for Add, Sub,
// Mul and Div before opset 6.
BinaryParams parse_binary_node(BinaryKind kind, const Node& node) {
  require_inputs(node, 2, 2);
  require_outputs(node, 1, 1);
  BinaryParams p;
  p.kind = kind;
  const bool arithmetic = kind == BinaryKind::add || kind == BinaryKind::sub || kind == BinaryKind::mul ||
                          kind == BinaryKind::div;
  if (kind == BinaryKind::mod) {
    node.attrs.allow_only({"fmod"});
    const int64_t f = node.attrs.get_int("fmod", 0);
    require(f == 0 || f == 1, "attribute fmod must be 0 or 1, got ", f);
    p.fmod = f == 1;
  } else if (node.opset < 7 && kind != BinaryKind::less_equal && kind != BinaryKind::greater_equal) {
    if (arithmetic && node.opset < 6) node.attrs.allow_only({"broadcast", "axis", "consumed_inputs"});
    else node.attrs.allow_only({"broadcast", "axis"});
    p.legacy = true;
    const int64_t b = node.attrs.get_int("broadcast", 0);
    require(b == 0 || b == 1, "attribute broadcast must be 0 or 1, got ", b);
    p.broadcast = b == 1;
    if (node.attrs.has("axis")) {
      require(p.broadcast, "attribute axis is given but broadcast is not 1");
      p.axis = node.attrs.require_int("axis");
    }
    node.attrs.get_ints("consumed_inputs");  // a legacy in-place hint: read (for its type) and ignored
  } else {
    node.attrs.allow_only({});
  }
  return p;
}

template <BinaryKind kind>
BinaryParams parse_binary(const Node& node) {
  return parse_binary_node(kind, node);
}

template <BinaryKind kind>
VariadicParams parse_variadic(const Node& node) {
  require_inputs(node, 1, 1 << 20);
  require_outputs(node, 1, 1);
  if (node.opset < 6) node.attrs.allow_only({"consumed_inputs"});
  else node.attrs.allow_only({});
  node.attrs.get_ints("consumed_inputs");  // a legacy in-place hint: read (for its type) and ignored
  for (size_t i = 0; i < node.inputs.size(); ++i) require(has_input(node, i), "input ", i, " is omitted");
  VariadicParams p;
  p.kind = kind;
  p.same_shapes = node.opset < 8;
  return p;
}

// ---- infer ----

void require_same_dtype(const std::vector<ValueInfo>& in, size_t i, size_t j) {
  require(in[i].dtype == in[j].dtype, "input ", i, " has element type ", dtype_name(in[i].dtype), " but input ", j,
          " has ", dtype_name(in[j].dtype));
}

// Known dims must be equal (unknown ones pass).
void require_same_shape(const Shape& a, const Shape& b, const char* why) {
  bool same = a.size() == b.size();
  for (size_t i = 0; same && i < a.size(); ++i) same = a[i] < 0 || b[i] < 0 || a[i] == b[i];
  require(same, "shapes ", to_string(a), " and ", to_string(b), " differ; ", why);
}

std::vector<ValueInfo> infer_binary(const BinaryParams& p, const std::vector<ValueInfo>& in) {
  const BinaryKind k = p.kind;
  if (is_logical(k)) {
    require_dtype(in, 0, {DType::boolean});
    require_dtype(in, 1, {DType::boolean});
  } else if (k == BinaryKind::equal) {
    require_dtype(in, 0, {DType::f32, DType::f64, DType::i64, DType::i32, DType::i8, DType::u8, DType::boolean});
    require_same_dtype(in, 1, 0);
  } else if (k == BinaryKind::pow) {
    // Base and exponent may have different types from opset 12 on; the output has the base's.
    require_dtype(in, 0, {DType::f32, DType::f64, DType::i64, DType::i32});
    require_dtype(in, 1, kNumeric);
  } else {
    require_dtype(in, 0, kNumeric);
    require_same_dtype(in, 1, 0);
  }
  if (k == BinaryKind::mod && is_float(in[0].dtype))
    require(p.fmod, "Mod of ", dtype_name(in[0].dtype), " needs attribute fmod=1 (ONNX defines only fmod for floats)");
  Shape shape;
  if (p.legacy) {
    binary_b_shape(p, in[0].shape, in[1].shape);  // checks
    shape = in[0].shape;
  } else {
    shape = broadcast_shapes({in[0].shape, in[1].shape});
  }
  return {ValueInfo::of(binary_gives_bool(k) ? DType::boolean : in[0].dtype, shape)};
}

std::vector<ValueInfo> infer_variadic(const VariadicParams& p, const std::vector<ValueInfo>& in) {
  std::vector<Shape> shapes;
  for (size_t i = 0; i < in.size(); ++i) {
    if (p.kind == BinaryKind::mean) require_dtype(in, i, {DType::f32, DType::f64});
    else require_dtype(in, i, kNumeric);
    require_same_dtype(in, i, 0);
    if (p.same_shapes)
      require_same_shape(in[i].shape, in[0].shape, "before opset 8 the inputs must have one shape");
    shapes.push_back(in[i].shape);
  }
  return {ValueInfo::of(in[0].dtype, broadcast_shapes(shapes))};
}

std::vector<ValueInfo> infer_where(const NoParams&, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::boolean}, "condition");
  require_dtype(in, 1, {DType::f32, DType::f64, DType::i64, DType::i32, DType::i8, DType::u8, DType::boolean});
  require_same_dtype(in, 2, 1);
  return {ValueInfo::of(in[1].dtype, broadcast_shapes({in[0].shape, in[1].shape, in[2].shape}))};
}

}  // namespace

const char* binary_kind_name(BinaryKind k) {
  switch (k) {
    case BinaryKind::add: return "Add";
    case BinaryKind::sub: return "Sub";
    case BinaryKind::mul: return "Mul";
    case BinaryKind::div: return "Div";
    case BinaryKind::pow: return "Pow";
    case BinaryKind::mod: return "Mod";
    case BinaryKind::max: return "Max";
    case BinaryKind::min: return "Min";
    case BinaryKind::mean: return "Mean";
    case BinaryKind::equal: return "Equal";
    case BinaryKind::less: return "Less";
    case BinaryKind::less_equal: return "LessOrEqual";
    case BinaryKind::greater: return "Greater";
    case BinaryKind::greater_equal: return "GreaterOrEqual";
    case BinaryKind::logical_and: return "And";
    case BinaryKind::logical_or: return "Or";
    case BinaryKind::logical_xor: return "Xor";
  }
  return "?";
}

bool binary_gives_bool(BinaryKind kind) {
  switch (kind) {
    case BinaryKind::equal:
    case BinaryKind::less:
    case BinaryKind::less_equal:
    case BinaryKind::greater:
    case BinaryKind::greater_equal:
    case BinaryKind::logical_and:
    case BinaryKind::logical_or:
    case BinaryKind::logical_xor: return true;
    default: return false;
  }
}

Shape binary_b_shape(const BinaryParams& p, const Shape& a, const Shape& b) {
  if (!p.legacy) return b;
  if (!p.broadcast) {
    require_same_shape(a, b, "before opset 7 B broadcasts only with attribute broadcast=1");
    return b;
  }
  const int64_t ra = int64_t(a.size()), rb = int64_t(b.size());
  require(rb <= ra, "B ", to_string(b), " has a higher rank than A ", to_string(a),
          "; before opset 7 only B broadcasts, onto A");
  int64_t axis = ra - rb;  // suffix matching
  if (p.axis != std::numeric_limits<int64_t>::min()) {
    axis = p.axis < 0 ? p.axis + ra : p.axis;
    require(axis >= 0 && axis + rb <= ra, "attribute axis ", p.axis, " does not place B ", to_string(b),
            " inside A ", to_string(a));
  }
  Shape aligned(size_t(ra), 1);
  for (int64_t i = 0; i < rb; ++i) {
    const int64_t da = a[size_t(axis + i)], db = b[size_t(i)];
    require(da < 0 || db < 0 || db == 1 || db == da, "B ", to_string(b), " does not broadcast onto A ", to_string(a),
            " at axis ", axis, ": dim ", i, " is ", db, " where A has ", da);
    aligned[size_t(axis + i)] = db;
  }
  return aligned;
}

void register_binary_ops(OpRegistry& r) {
  const auto with_dnnl = [] {
    return std::vector<Kernel<BinaryParams>>{binary_dnnl_kernel(), ref_kernel(binary_ref)};
  };
  // Ops oneDNN 2.6's binary primitive does not compute: Mod has no algorithm (nor an eltwise one); there are no logical
  // algorithms (and bool is not a oneDNN source type); Where is not a binary op.
  // Add, Sub, Mul, Div: first the per-channel kernel over blocked layouts (binary_channel.cc), which declines
  // everything else.
  const auto arithmetic = [] {
    return std::vector<Kernel<BinaryParams>>{binary_channel_kernel(), binary_dnnl_kernel(), ref_kernel(binary_ref)};
  };
  const auto ref_only = [] { return std::vector<Kernel<BinaryParams>>{ref_kernel(binary_ref)}; };
  const auto variadic = [] {
    return std::vector<Kernel<VariadicParams>>{variadic_dnnl_kernel(), ref_kernel(variadic_ref)};
  };
  using B = BinaryKind;
  using BP = OpSpec<BinaryParams>;
  using VP = OpSpec<VariadicParams>;
  r.add(BP{"Add", 1, parse_binary<B::add>, infer_binary, kExact, arithmetic()});
  r.add(BP{"Sub", 1, parse_binary<B::sub>, infer_binary, kExact, arithmetic()});
  r.add(BP{"Mul", 1, parse_binary<B::mul>, infer_binary, kExact, arithmetic()});
  r.add(BP{"Div", 1, parse_binary<B::div>, infer_binary, kExact, arithmetic()});
  r.add(BP{"Pow", 1, parse_binary<B::pow>, infer_binary, kPowTolerance, {pow_dnnl_kernel(), ref_kernel(binary_ref)}});
  r.add(BP{"Mod", 10, parse_binary<B::mod>, infer_binary, kExact, ref_only()});
  r.add(BP{"Equal", 1, parse_binary<B::equal>, infer_binary, kExact, with_dnnl()});
  r.add(BP{"Less", 1, parse_binary<B::less>, infer_binary, kExact, with_dnnl()});
  r.add(BP{"LessOrEqual", 12, parse_binary<B::less_equal>, infer_binary, kExact, with_dnnl()});
  r.add(BP{"Greater", 1, parse_binary<B::greater>, infer_binary, kExact, with_dnnl()});
  r.add(BP{"GreaterOrEqual", 12, parse_binary<B::greater_equal>, infer_binary, kExact, with_dnnl()});
  r.add(BP{"And", 1, parse_binary<B::logical_and>, infer_binary, kExact, ref_only()});
  r.add(BP{"Or", 1, parse_binary<B::logical_or>, infer_binary, kExact, ref_only()});
  r.add(BP{"Xor", 1, parse_binary<B::logical_xor>, infer_binary, kExact, ref_only()});
  r.add(VP{"Sum", 1, parse_variadic<B::add>, infer_variadic, kSumOrder, variadic()});
  r.add(VP{"Max", 1, parse_variadic<B::max>, infer_variadic, kExact, variadic()});
  r.add(VP{"Min", 1, parse_variadic<B::min>, infer_variadic, kExact, variadic()});
  r.add(VP{"Mean", 1, parse_variadic<B::mean>, infer_variadic, kSumOrder, {ref_kernel(variadic_ref)}});
  r.add(OpSpec<NoParams>{"Where", 9, parse_no_attributes<3, 3>, infer_where, kExact, {ref_kernel(where_ref)}});
}

}  // namespace cnnx
