// The resampling family: Resize and the Upsample it replaced (ops/resize/resize.h).
#include "ops/families.h"
#include "ops/resize/grid_sample.h"
#include "ops/resize/resize.h"

namespace cnnx {

void register_resize_ops(OpRegistry& r) {
  // The float inputs that set the output's shape: roi and scales (Resize-10: input 1 is scales).
  OpSpec<ResizeParams> resize{"Resize", 10, parse_resize, infer_resize, kResizeTolerance,
                              {resize_dnnl_kernel(), resize_native_kernel(), resize_ref_kernel()}};
  resize.hints.float_shape_inputs = {1, 2};
  r.add(std::move(resize));
  OpSpec<ResizeParams> upsample{"Upsample", 1, parse_upsample, infer_resize, kResizeTolerance,
                                {resize_dnnl_kernel(), resize_native_kernel(), resize_ref_kernel()}};
  upsample.hints.float_shape_inputs = {1};
  r.add(std::move(upsample));
  r.add(OpSpec<GridSampleParams>{"GridSample", 16, parse_grid_sample, infer_grid_sample, kResizeTolerance,
                                 {ref_kernel(grid_sample_ref)}});
}

}  // namespace cnnx
