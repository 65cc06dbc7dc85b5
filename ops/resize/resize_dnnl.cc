// oneDNN resampling_forward (resampling_nearest, resampling_linear) for Resize and Upsample on float32
// N x C x [D] [H] W tensors (1 to 3 spatial dims) whose N and C keep their size, in the layout input 0
// arrives in (resampling is memory-bound: it never reorders).
//
// What oneDNN computes (dev guide "Resampling"): along a spatial axis of ID input and OD output cells, output
// cell o reads source coordinate x = (o + 0.5) * ID / OD - 0.5, in float32 (cpu/resampling_utils.hpp):
//   nearest  cell round(x), halves away from zero (x > -0.5: up);
//   linear   the two cells around x weighted by distance, the edge cell past the edges: ONNX's linear with
//            half_pixel coordinates (and without exclude_outside, which changes nothing for 2 taps).
// So the kernel runs an axis when:
//   - nearest: every output cell's input cell is the same computed both ways (compared at compile time, for
//     any coordinate mode: half_pixel with round_prefer_ceil always agrees; PyTorch's asymmetric floor, as
//     Upsample and Resize-10 do it, agrees for integer upscaling factors);
//   - linear: ONNX maps the axis the same way: half_pixel; pytorch_half_pixel with more than one output cell
//     (its one-cell coordinate is 0); half_pixel_symmetric (its offset is 0 where in * scale = out); and ONNX's
//     scale is oneDNN's size ratio out / in (scales 0.6 on 5 cells make 3 cells, but ONNX then maps by 1 / 0.6
//     and oneDNN by 5 / 3); no antialias if the axis shrinks (antialias widens the filter there); and at
//     most kMaxLinearCells input cells (below);
//   - or the axis keeps its size with scale 1: every mode but tf_crop_and_resize maps cell o to o.
// Everything else declines with the reason: cubic (oneDNN has none), tf_crop_and_resize (its extrapolation),
// linear with align_corners / asymmetric / tf_half_pixel_for_nn coordinates (Upsample and Resize-10 map
// asymmetric), nearest cells rounded another way.
#include <cmath>

#include "dnnl/primitive_kernel.h"
#include "ops/resize/resize_geometry.h"

namespace cnnx {

namespace {

using namespace dnnl;

// oneDNN's float32 coordinate (o + 0.5) * ID / OD - 0.5 is off by up to 2 roundings of its size, ~ID * 2^-23
// cells, and a linear output by that fraction of the difference of its two cells. kResizeTolerance allows 2e-5
// for differences up to 2 (activations of O(1)): ID * 2^-23 * 2 <= 2e-5 holds to ID = 83; beyond 64 cells the
// kernel declines (measured: 100 cells 1.9e-5, 1000 cells 9.4e-5 on N(0, 1) data).
constexpr int64_t kMaxLinearCells = 64;

const char* coordinates_name(ResizeCoordinates c) {
  switch (c) {
    case ResizeCoordinates::half_pixel: return "half_pixel";
    case ResizeCoordinates::half_pixel_symmetric: return "half_pixel_symmetric";
    case ResizeCoordinates::pytorch_half_pixel: return "pytorch_half_pixel";
    case ResizeCoordinates::align_corners: return "align_corners";
    case ResizeCoordinates::asymmetric: return "asymmetric";
    case ResizeCoordinates::tf_half_pixel_for_nn: return "tf_half_pixel_for_nn";
    case ResizeCoordinates::tf_crop_and_resize: return "tf_crop_and_resize";
  }
  return "?";
}

// oneDNN's nearest input cell for output cell o (its float32 formula, round half away from zero).
int64_t dnnl_nearest_index(int64_t o, int64_t out, int64_t in) {
  const float x = (float(o) + 0.5f) * float(in) / float(out) - 0.5f;
  return int64_t(std::round(x));
}

// "" when oneDNN resamples axis `axis` (a spatial one) as ONNX asks; otherwise why not.
std::string declines_axis(const ResizeParams& p, const ResizeAxis& a, size_t axis) {
  if (p.coordinates == ResizeCoordinates::tf_crop_and_resize)
    return "oneDNN resampling has no crop box or extrapolation; this node asks for tf_crop_and_resize";
  if (a.identity()) return "";
  const std::string where = "axis " + std::to_string(axis) + " (" + std::to_string(a.in) + " -> " +
                            std::to_string(a.out) + " cells)";
  if (p.mode == ResizeMode::nearest) {
    for (int64_t o = 0; o < a.out; ++o) {
      const int64_t want = nearest_index(p, a, source_coordinate(p, a, o)), got = dnnl_nearest_index(o, a.out, a.in);
      if (want != got)
        return "oneDNN rounds the half-pixel coordinate half up (cell " + std::to_string(got) + " for output cell " +
               std::to_string(o) + " of " + where + "); this node's " + coordinates_name(p.coordinates) +
               " coordinates and nearest_mode pick cell " + std::to_string(want);
    }
    return "";
  }
  switch (p.coordinates) {
    case ResizeCoordinates::half_pixel:
    case ResizeCoordinates::half_pixel_symmetric: break;
    case ResizeCoordinates::pytorch_half_pixel:
      if (a.out > 1) break;
      return "pytorch_half_pixel maps a one-cell output to cell 0; oneDNN resampling uses half-pixel centres (" +
             where + ")";
    default:
      return std::string("oneDNN resampling uses half-pixel centres; this node asks for ") +
             coordinates_name(p.coordinates);
  }
  if (a.scale != double(a.out) / double(a.in))
    return "scale " + std::to_string(a.scale) + " on " + where +
           " is not the size ratio: ONNX maps coordinates by the scale, oneDNN by the size ratio";
  if (p.antialias && a.scale < 1) return "antialias on shrinking " + where + " (oneDNN's linear filter has 2 taps)";
  if (a.in > kMaxLinearCells)
    return where + " has more than " + std::to_string(kMaxLinearCells) +
           " input cells: oneDNN's float32 coordinates would move linear outputs beyond the op's tolerance";
  return "";
}

// "" when oneDNN resamples the whole node as ONNX asks; otherwise why not.
std::string declines(const ResizeParams& p, const std::vector<ValueInfo>& in, const ResizeGeometry& g) {
  std::string why = dnnl_declines_inputs(in, 0, 1);
  if (!why.empty()) return why;
  const int64_t rank = in[0].rank();
  if (rank < 3 || rank > 5)
    return "input 0 has rank " + std::to_string(rank) + "; oneDNN resamples N x C x 1 to 3 spatial dims";
  if (p.mode == ResizeMode::cubic) return "oneDNN 2.6 resampling has no cubic interpolation";
  // An empty output may still have an axis of any length (the plan bounds only non-empty values by the tensor
  // limit): nothing to resample, and no per-cell check to make over that axis.
  if (checked_numel(g.output()) == 0) return "the output is empty";
  if (!g.axes[0].identity() || !g.axes[1].identity())
    return "N or C is resized; oneDNN resamples spatial dims only";
  for (size_t a = 2; a < g.axes.size(); ++a) {
    why = declines_axis(p, g.axes[a], a);
    if (!why.empty()) return why;
  }
  return "";
}

struct ResampleDesc {
  memory::desc src_md, dst_md;
  resampling_forward::primitive_desc pd;
};

ResampleDesc describe(algorithm algo, const Shape& x_shape, const Shape& y_shape, const Layout& arriving) {
  ResampleDesc d;
  // Plain in, plain out; a blocked input keeps its layout family (the primitive picks dst with `any`).
  d.src_md = follow(arriving, plain_f32_desc(x_shape));
  d.dst_md = is_plain(arriving) ? plain_f32_desc(y_shape)
                                : memory::desc(y_shape, memory::data_type::f32, memory::format_tag::any);
  // No factors: oneDNN derives them from the dims, the size ratio the mapping above uses.
  const resampling_forward::desc desc(prop_kind::forward_inference, algo, d.src_md, d.dst_md);
  d.pd = resampling_forward::primitive_desc(desc, dnnl_attr(), dnnl_engine());
  d.dst_md = d.pd.dst_desc();
  return d;
}

}  // namespace

Kernel<ResizeParams> resize_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const ResizeParams>& p, const KernelArgs& a) -> Compiled {
            ResizeGeometry g;
            if (!resolve_resize(*p, a.in, g)) return Compiled::decline("the scales or sizes are not known");
            const std::string why = declines(*p, a.in, g);
            if (!why.empty()) return Compiled::decline(why);
            const algorithm algo =
                p->mode == ResizeMode::nearest ? algorithm::resampling_nearest : algorithm::resampling_linear;
            return compile_or_refuse([&] {
              const ResampleDesc d = describe(algo, a.in[0].shape, g.output(), a.offered.in[0]);
              KernelLayouts layouts{std::vector<Layout>(a.in.size()), {layout_of(d.dst_md)}};  // roi, scales, sizes: plain (never read)
              layouts.in[0] = a.offered.in[0];
              return std::make_unique<DnnlPrimitiveKernel>(
                  d.pd, DnnlTensorArgs{{DNNL_ARG_SRC, in(0), d.src_md}, {DNNL_ARG_DST, out(0), d.dst_md}},
                  std::move(layouts));
            });
          }};
}

}  // namespace cnnx
