// oneDNN Gather of one constant index: the input's sub-memory at that index (in the layout it arrives in, such
// as a Transpose's permuted view) copied by one reorder into an output whose dims are ordered like the
// input's. Swin's q, k and v are qkv[0], qkv[1], qkv[2] of a permuted [3, B*nW, heads, 49, 32]: each reads
// the projection's bytes in place instead of after a reorder of the whole of qkv to plain.
#include "dnnl/dnnl_runtime.h"
#include "ops/index/gather.h"

namespace cnnx {

namespace {

Compiled compile_gather(const std::shared_ptr<const GatherParams>& p, const KernelArgs& a) {
  std::string why = dnnl_declines_inputs(a.in, 0, 1);
  if (why.empty() && !a.in[1].constant) why = "the indices are known only at run time";
  if (why.empty() && a.in[1].constant->numel() != 1)
    why = std::to_string(a.in[1].constant->numel()) + " indices; one index only (a slice)";
  if (why.empty() && checked_numel(a.out[0].shape) == 0) why = "the output is empty";
  if (why.empty() && a.out[0].shape.empty()) why = "the output is a scalar (oneDNN memory has at least one dim)";
  if (!why.empty()) return Compiled::decline(why);
  const Shape& shape = a.in[0].shape;
  const size_t axis = size_t(normalize_axis(p->axis, int64_t(shape.size()), "axis"));
  const int64_t n = shape[axis], index = a.in[1].constant->int_at(0);
  require(index >= -n && index < n, "index ", index, " is out of range for axis ", axis, " of size ", n);
  Shape one = shape;  // the input's dims with the index's one at `axis`
  one[axis] = 1;
  dnnl::memory::dims offsets(shape.size(), 0);
  offsets[axis] = index < 0 ? index + n : index;
  return compile_or_refuse([&] {
    const SubmemoryView part = submemory_view(a.offered.in[0], shape, dnnl::memory::dims(one.begin(), one.end()), offsets);
    const dnnl::memory::dims out(a.out[0].shape.begin(), a.out[0].shape.end());
    return std::make_unique<ReorderCopy>(part.input, part.view.reshape(out),
                                         same_order_desc(layout_of(part.input), one).reshape(out), a.in.size());
  });
}

}  // namespace

Kernel<GatherParams> gather_dnnl_kernel() { return {"dnnl", compile_gather}; }

}  // namespace cnnx
