#include "engine/op.h"

namespace cnnx {

namespace {

template <class T>
struct IsHook : std::false_type {};
template <class Sig>
struct IsHook<Hook<Sig>> : std::true_type {};

}  // namespace

OpDef::OpDef(const Erasure& e, OpHints&& hints_)
    : domain(e.domain),
      type(e.type),
      since(e.since),
      tolerance(e.tolerance),
      hints(std::move(hints_)),
      parse_fn_(e.parse_fn),
      parse_(e.parse),
      infer_fn_(e.infer_fn),
      infer_(e.infer),
      compile_(e.compile) {
  const std::type_info& params = *e.params;
  // Every member of OpHints, in order: a member added there fails to compile here until it is named.
  const auto& [h0, h1, h2, h3, h4, h5, h6, h7, h8] = hints;
  const auto check = [&](const auto& hint) {
    if constexpr (IsHook<std::decay_t<decltype(hint)>>::value)
      require(!hint || *hint.params_type() == params, "op ", type, " has a hook written for another params type");
  };
  check(h0), check(h1), check(h2), check(h3), check(h4), check(h5), check(h6), check(h7), check(h8);
}

void OpDef::add_kernel(const std::string& name, Functions fns) {
  kernels.push_back({name, (fns.compile != nullptr) != (fns.run != nullptr), this, kernels.size()});
  functions_.push_back(fns);
}

namespace {

// A kernel of the run form (Kernel::run), its params type erased.
struct RunKernel final : CompiledKernel {
  using Call = void (*)(void (*fn)(), const OpParams& params, const KernelIO& io);
  RunKernel(ParamsPtr p, void (*f)(), Call c) : params(std::move(p)), fn(f), call(c) {}
  void run(const KernelIO& io) const override { call(fn, *params, io); }
  ParamsPtr params;
  void (*fn)();
  Call call;
};

}  // namespace

Compiled OpDef::make_run_kernel(const ParamsPtr& p, Erased fn, void (*call)(Erased, const OpParams&, const KernelIO&)) {
  return std::make_unique<RunKernel>(p, fn, call);
}

Compiled OpDef::compile_kernel(size_t index, const ParamsPtr& params, const KernelArgs& args) const {
  return compile_(functions_.at(index), params, args, type);
}

void require_inputs(const Node& node, size_t min, size_t max) {
  size_t n = node.inputs.size();
  require(n >= min && n <= max, "expects ", min == max ? "" : "between ", min, min == max ? "" : " and ",
          min == max ? "" : std::to_string(max), " input", max == 1 ? "" : "s", ", got ", n);
  for (size_t i = 0; i < min; ++i) require(node.inputs[i] >= 0, "input ", i, " is required but omitted");
}

void require_outputs(const Node& node, size_t min, size_t max) {
  size_t n = node.outputs.size();
  require(n >= min && n <= max, "expects ", min, " to ", max, " outputs, got ", n);
  for (size_t i = 0; i < min; ++i) require(node.outputs[i] >= 0, "output ", i, " is required but omitted");
}

std::unique_ptr<CompiledKernel> compile_reference(const OpDef& def, const ParamsPtr& params,
                                                  const std::vector<ValueInfo>& in, const std::vector<ValueInfo>& out) {
  const KernelLayouts plain = plain_layouts(in.size());
  Compiled c = def.reference().compile(params, {in, out, plain});
  require(bool(c), "internal error: the reference kernel of ", def.type, " declined: ", c.reason());
  return c.take();
}

bool has_input(const Node& node, size_t i) { return i < node.inputs.size() && node.inputs[i] >= 0; }

bool present(const std::vector<ValueInfo>& in, size_t i) {
  return i < in.size() && in[i].dtype != DType::undefined;
}

const ValueInfo& input(const std::vector<ValueInfo>& in, size_t i) {
  require(present(in, i), "input ", i, " is missing");
  return in[i];
}

void require_dtype(const std::vector<ValueInfo>& in, size_t i, std::initializer_list<DType> allowed,
                   const char* what) {
  DType t = input(in, i).dtype;
  std::string names;
  for (DType a : allowed) {
    if (a == t) return;
    names += (names.empty() ? "" : " or ") + dtype_name(a);
  }
  fail(what, " ", i, " has element type ", dtype_name(t), "; expected ", names);
}

void require_float32(const std::vector<ValueInfo>& in) {
  for (size_t i = 0; i < in.size(); ++i)
    if (present(in, i)) require_dtype(in, i, {DType::f32});
}

bool constant_ints(const std::vector<ValueInfo>& in, size_t i, std::vector<int64_t>& out) {
  const ValueInfo& v = input(in, i);
  if (!v.constant) return false;
  require(v.dtype == DType::i64 || v.dtype == DType::i32, "input ", i, " must be int64, got ",
          dtype_name(v.dtype));
  require(v.rank() <= 1, "input ", i, " must be a 1-D tensor, got shape ", to_string(v.shape));
  out.resize(size_t(v.constant->numel()));
  for (int64_t k = 0; k < v.constant->numel(); ++k) out[size_t(k)] = v.constant->int_at(k);
  return true;
}

ValueInfo same_as_input(const std::vector<ValueInfo>& in, size_t i) {
  const ValueInfo& v = input(in, i);
  return {v.dtype, v.shape, v.rank_known, nullptr};
}

}  // namespace cnnx
