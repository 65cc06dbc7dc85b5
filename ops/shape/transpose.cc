// Transpose (opset 1+), any element type.
#include "ops/shape/transpose.h"

#include "engine/dnnl_runtime.h"

#include "ops/shape/common.h"
#include "ops/shape/register.h"

namespace cnnx {

namespace {

using namespace shape_ops;

// Elements are moved, never computed.
constexpr Tolerance kExact{0, 0};

TransposeParams parse_transpose(const Node& node) {
  require_inputs(node, 1, 1);
  require_outputs(node, 1, 1);
  node.attrs.allow_only({"perm"});
  TransposeParams p;
  p.has_perm = node.attrs.has("perm");
  p.perm = node.attrs.get_ints("perm");
  return p;
}

// The permutation for an input of `rank`, validated.
std::vector<int64_t> resolve_perm(const TransposeParams& p, int64_t rank) {
  if (!p.has_perm) {
    std::vector<int64_t> perm;
    for (int64_t a = rank; a-- > 0;) perm.push_back(a);
    return perm;
  }
  require(int64_t(p.perm.size()) == rank, "attribute 'perm' ", list_string(p.perm), " has ", p.perm.size(),
          " entries for an input of rank ", rank);
  std::vector<bool> seen(size_t(rank), false);
  for (int64_t a : p.perm) {
    if (a < 0 || a >= rank || seen[size_t(a)]) fail("attribute 'perm' ", list_string(p.perm),
            " is not a permutation of 0..", rank - 1);
    seen[size_t(a)] = true;
  }
  return p.perm;
}

std::vector<ValueInfo> infer_transpose(const TransposeParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  Shape out;
  for (int64_t a : resolve_perm(p, x.rank())) out.push_back(x.shape[size_t(a)]);
  return {ValueInfo::of(x.dtype, out)};
}

void transpose_ref(const TransposeParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  const std::vector<int64_t> perm = resolve_perm(p, x.rank());
  const std::vector<int64_t> x_strides = strides_of(x.shape());
  std::vector<int64_t> strides;  // per output axis, in the input
  Shape shape;
  for (int64_t a : perm) {
    strides.push_back(x_strides[size_t(a)]);
    shape.push_back(x.dim(a));
  }
  if (shape != y.shape()) fail("output shape ", to_string(y.shape()), " does not match ", to_string(shape));
  strided_copy(x.dtype(), x.raw(), 0, strides, y.raw(), shape);
}

// oneDNN: one reorder from the input (in the layout it arrives in) viewed with permuted axes to a plain
// output.
KernelDef transpose_dnnl_kernel() {
  KernelDef k;
  k.name = "dnnl";
  k.declines = [](const OpParams&, const std::vector<ValueInfo>& in) { return dnnl_declines_inputs(in); };
  k.compile = [](const ParamsPtr& op, const std::vector<ValueInfo>& in, const std::vector<ValueInfo>& out,
                 const KernelLayouts& offered) {
    const std::vector<int64_t> perm = resolve_perm(static_cast<const TransposeParams&>(*op), in[0].rank());
    // oneDNN's permute_axes sends input axis a to position inverse[a]; ONNX's output axis i is input axis perm[i].
    std::vector<int> inverse(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) inverse[size_t(perm[i])] = int(i);
    dnnl::memory::desc input = dnnl_desc(offered.in[0], in[0].shape);
    if (in[0].rank() == 0) input = plain_f32_desc(in[0].shape);
    dnnl::memory::desc view;
    try {
      view = input.permute_axes(inverse);
    } catch (const dnnl::error&) {  // a layout oneDNN cannot permute: take the input plain
      input = plain_f32_desc(in[0].shape);
      view = input.permute_axes(inverse);
    }
    return std::unique_ptr<CompiledKernel>(new ReorderCopy(input, view, plain_f32_desc(out[0].shape), 1));
  };
  return k;
}

}  // namespace

void shape_ops::register_transpose_ops(OpRegistry& r) {
  r.add(define_op<TransposeParams>("Transpose", 1, parse_transpose, infer_transpose, kExact,
                                   {transpose_dnnl_kernel(), ref_kernel<TransposeParams>(transpose_ref)}));
}

}  // namespace cnnx
