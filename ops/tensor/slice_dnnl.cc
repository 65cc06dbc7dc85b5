// oneDNN Slice: one reorder from a sub-memory view of the input (in the layout it arrives in) to an output
// whose dims are ordered like the input's (channels-last stays channels-last). Unit steps only.
#include <algorithm>

#include "dnnl/dnnl_runtime.h"
#include "ops/tensor/slice.h"

namespace cnnx {

namespace {

Compiled compile_slice(const std::shared_ptr<const SliceParams>& p, const KernelArgs& a) {
  std::string why = dnnl_declines_inputs(a.in, 0, 1);
  SliceGeometry g;
  if (why.empty() && !constant_geometry(*p, a.in, g)) why = "starts, ends, axes or steps are known only at run time";
  if (why.empty() && std::any_of(g.step.begin(), g.step.end(), [](int64_t s) { return s != 1; }))
    why = "steps other than 1";
  if (why.empty() && checked_numel(g.out) == 0) why = "the slice is empty";
  if (!why.empty()) return Compiled::decline(why);
  const SubmemoryView part = submemory_view(a.offered.in[0], a.in[0].shape, g.out, g.start);
  return std::make_unique<ReorderCopy>(part.input, part.view, same_order_desc(layout_of(part.input), a.out[0].shape),
                                       a.in.size());
}

}  // namespace

Kernel<SliceParams> slice_dnnl_kernel() { return {"dnnl", compile_slice}; }

}  // namespace cnnx
