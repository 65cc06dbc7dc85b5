// oneDNN Einsum: the equations that are a matrix product (ops/gemm/einsum_matmul.h) run as one matmul
// primitive over the operands where they lie: each axis group is one dim of a strided memory descriptor, so a
// permutation of the axes costs no copy ("BGHID,BGHJD->BGHIJ" reads B transposed through its strides).
// oneDNN's JIT matmul wants a unit stride in one of the two matrix dims of src and weights and in the last dim
// of dst; a dst whose unit stride is in its M dim is computed transposed (Y^T = B^T A^T: the operands swap).
// An operand whose K axes are not one run of memory, or that has no unit stride in its matrix dims, is copied
// into a dense buffer first (once, at compile time, for a constant; per run otherwise); likewise the output is
// written densely and copied into place when it must be.
#include "dnnl/primitive_kernel.h"
#include "ops/gemm/einsum.h"
#include "ops/gemm/einsum_matmul.h"

namespace cnnx {

namespace {

using namespace dnnl;

// Every axis of the groups, each its own dim, in group order: the tensor as a copy reads or writes it.
memory::desc axes_desc(const std::vector<AxisGroup>& groups) {
  memory::dims dims, strides;
  for (const AxisGroup& g : groups)
    for (const StridedAxis& a : g) {
      dims.push_back(a.size);
      strides.push_back(a.stride);
    }
  if (dims.empty()) return memory::desc({1}, dt::f32, memory::dims{1});
  return memory::desc(dims, dt::f32, strides);
}

// The same axes laid out densely in group order (the copy's buffer).
std::vector<AxisGroup> dense(std::vector<AxisGroup> groups) {
  int64_t stride = 1;
  for (size_t i = groups.size(); i-- > 0;)
    for (size_t j = groups[i].size(); j-- > 0;) {
      groups[i][j].stride = stride;
      stride *= groups[i][j].size;
    }
  return groups;
}

// The groups as the matmul reads them: one dim per group (each contiguous), strided. A dim of 1 has no stride
// to speak of; it gets one that keeps a unit stride in the matrix dims where the other dim allows it.
memory::desc matmul_desc(const std::vector<AxisGroup>& groups) {
  const size_t n = groups.size();
  memory::dims dims(n, 1), strides(n, 0);
  int64_t extent = 1;
  for (size_t d = 0; d < n; ++d) {
    for (const StridedAxis& a : groups[d]) dims[d] *= a.size;
    if (!groups[d].empty()) strides[d] = groups[d].back().stride;
    if (dims[d] > 1) extent = std::max(extent, dims[d] * strides[d]);
  }
  for (size_t d = 0; d < n; ++d)
    if (dims[d] == 1) strides[d] = extent;
  const size_t rows = n - 2, cols = n - 1;
  if (dims[cols] == 1) strides[cols] = 1;
  else if (dims[rows] == 1 && strides[cols] != 1) strides[rows] = 1;
  return memory::desc(dims, dt::f32, strides);
}

// A unit stride in the last dim, or (`rows_may`) in the one before it.
bool has_unit_stride(const memory::desc& md, bool rows_may) {
  const int n = md.data.ndims;
  const dnnl_dims_t& strides = md.data.format_desc.blocking.strides;
  return strides[n - 1] == 1 || (rows_may && strides[n - 2] == 1);
}

bool all_contiguous(const std::vector<AxisGroup>& groups) {
  for (const AxisGroup& g : groups)
    if (!is_contiguous(g)) return false;
  return true;
}

// One matmul argument: input `input` (-1: the output) viewed through `md`, or copied to or from a dense
// buffer that `md` views.
struct Operand {
  int input = -1;
  memory::desc md;
  bool copied = false;
  memory::desc tensor_md, dense_md;  // copied: the tensor's axes, and the same axes in the dense buffer
  DnnlReorder copy;                  // tensor_md -> dense_md (the output: dense_md -> tensor_md)
  OwnedMemory prepared;              // a constant input's copy, made once (shared: prepare_constant)
  size_t offset = 0;                 // other copies: their place in the run's buffer
};

Operand describe_operand(int input, const std::vector<AxisGroup>& groups, bool rows_may_be_unit) {
  Operand o;
  o.input = input;
  if (all_contiguous(groups)) {
    o.md = matmul_desc(groups);
    if (has_unit_stride(o.md, rows_may_be_unit)) return o;
  }
  o.copied = true;
  o.tensor_md = axes_desc(groups);
  o.dense_md = axes_desc(dense(groups));
  o.md = matmul_desc(dense(groups));
  return o;
}

std::vector<AxisGroup> swap_matrix_dims(std::vector<AxisGroup> g) {
  std::swap(g[g.size() - 2], g[g.size() - 1]);
  return g;
}

struct EinsumDesc {
  Operand src, weights, dst;
  matmul::primitive_desc pd;
};

EinsumDesc describe(const EinsumMatmul& mm) {
  EinsumDesc d;
  if (!has_unit_stride(matmul_desc(mm.y), false) && has_unit_stride(matmul_desc(mm.y), true)) {
    // Y^T [batch, N, M] = B^T [batch, N, K] x A^T [batch, K, M]: dst gets its unit stride last.
    d.src = describe_operand(1, swap_matrix_dims(mm.b), true);
    d.weights = describe_operand(0, swap_matrix_dims(mm.a), true);
    d.dst = describe_operand(-1, swap_matrix_dims(mm.y), false);
  } else {
    d.src = describe_operand(0, mm.a, true);
    d.weights = describe_operand(1, mm.b, true);
    d.dst = describe_operand(-1, mm.y, false);
  }
  d.pd = matmul::primitive_desc(matmul::desc(d.src.md, d.weights.md, d.dst.md), dnnl_attr(), dnnl_engine());
  return d;
}

class EinsumDnnl : public CompiledKernel {
 public:
  EinsumDnnl(EinsumDesc d, const std::vector<ValueInfo>& in, const CompileContext& context) : d_(std::move(d)) {
    matmul_ = DnnlPrimitive(d_.pd);
    for (Operand* o : {&d_.src, &d_.weights, &d_.dst}) {
      if (!o->copied) continue;
      if (o->input >= 0 && in[size_t(o->input)].constant) {
        o->prepared = prepare_constant(context, o->tensor_md, *in[size_t(o->input)].constant, o->dense_md);
        continue;
      }
      o->copy = o->input < 0 ? DnnlReorder(o->dense_md, o->tensor_md) : DnnlReorder(o->tensor_md, o->dense_md);
      o->offset = buffer_bytes_;
      buffer_bytes_ += (o->dense_md.get_size() + 63) / 64 * 64;
    }
  }

  bool reads_input_at_run(size_t input) const override {
    for (const Operand* o : {&d_.src, &d_.weights})
      if (o->input == int(input) && o->prepared.buffer) return false;
    return true;
  }

  void run(const KernelIO& io) const override {
    DnnlWorkspace copies(io.context, buffer_bytes_);  // the per-run copies
    auto arg = [&](const Operand& o) -> DnnlMemoryArg {
      const Tensor& t = o.input >= 0 ? *io.in[size_t(o.input)] : *io.out[0];
      if (!o.copied) return dnnl_wrap(o.md, t);
      if (o.prepared.buffer) return DnnlMemoryArg(o.md, o.prepared.buffer.get());
      void* dense = copies.data() + o.offset;
      if (o.input >= 0) o.copy.run(io.context, dnnl_wrap(o.tensor_md, t), DnnlMemoryArg(o.dense_md, dense));
      return DnnlMemoryArg(o.md, dense);
    };
    const DnnlMemoryArg dst = arg(d_.dst);
    matmul_.execute(io.context, {{DNNL_ARG_SRC, arg(d_.src)}, {DNNL_ARG_WEIGHTS, arg(d_.weights)}, {DNNL_ARG_DST, dst}});
    if (d_.dst.copied)
      d_.dst.copy.run(io.context, DnnlMemoryArg(d_.dst.dense_md, dst.data), dnnl_wrap(d_.dst.tensor_md, *io.out[0]));
  }

 private:
  EinsumDesc d_;
  DnnlPrimitive matmul_;
  size_t buffer_bytes_ = 0;  // the per-run copies
};

}  // namespace

Kernel<EinsumParams> einsum_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const EinsumParams>& p, const KernelArgs& a) -> Compiled {
            std::string why = dnnl_declines_inputs(a.in);
            if (!why.empty()) return Compiled::decline(why);
            const bool only_a_constant = a.in.size() == 2 && a.in[0].constant && !a.in[1].constant;
            std::vector<Shape> shapes;
            for (const ValueInfo& v : a.in) shapes.push_back(v.shape);
            const EinsumMatmul mm = einsum_as_matmul(*p, shapes, only_a_constant ? 1 : 0);
            if (!mm.why_not.empty()) return Compiled::decline(mm.why_not);
            if (mm.y.size() > DNNL_MAX_NDIMS || a.out[0].rank() > DNNL_MAX_NDIMS)
              return Compiled::decline("more dims than oneDNN's " + std::to_string(DNNL_MAX_NDIMS));
            EinsumDesc d;
            why = dnnl_refuses([&] { d = describe(mm); });
            if (!why.empty()) return Compiled::decline(why);
            if (is_reference(d.pd)) return Compiled::decline("oneDNN has only its reference matmul for these strides");
            return compile_or_refuse([&]() -> Compiled { return std::make_unique<EinsumDnnl>(std::move(d), a.in, a.context); });
          }};
}

}  // namespace cnnx
