#include "ops/detect/roi_align.h"

#include <omp.h>

#include <cmath>

#include "ops/common/node_checks.h"

namespace cnnx {

RoiAlignParams parse_roi_align(const Node& node) {
  if (node.opset >= 16)
    check_node(node, 3, 3, {"coordinate_transformation_mode", "mode", "output_height", "output_width",
                            "sampling_ratio", "spatial_scale"});
  else
    check_node(node, 3, 3, {"mode", "output_height", "output_width", "sampling_ratio", "spatial_scale"});
  RoiAlignParams p;
  const std::string mode = node.attrs.get_string("mode", "avg");
  require(mode == "avg" || mode == "max", "attribute 'mode' must be \"avg\" or \"max\", got \"", mode, "\"");
  p.max_mode = mode == "max";
  const std::string ctm = node.opset >= 16 ? node.attrs.get_string("coordinate_transformation_mode", "half_pixel")
                                           : "output_half_pixel";
  require(ctm == "half_pixel" || ctm == "output_half_pixel",
          "attribute 'coordinate_transformation_mode' must be \"half_pixel\" or \"output_half_pixel\", got \"", ctm,
          "\"");
  p.half_pixel = ctm == "half_pixel";
  p.output_height = node.attrs.get_int("output_height", 1);
  p.output_width = node.attrs.get_int("output_width", 1);
  constexpr int64_t kMaxBins = int64_t(1) << 20;  // each a real grid of points; beyond, a model is hostile or broken
  require(p.output_height >= 1 && p.output_width >= 1 && p.output_height <= kMaxBins && p.output_width <= kMaxBins &&
              p.output_height * p.output_width <= kMaxBins,
          "attributes 'output_height' (", p.output_height, ") and 'output_width' (", p.output_width,
          ") must be >= 1, at most ", kMaxBins, " bins");
  p.sampling_ratio = node.attrs.get_int("sampling_ratio", 0);
  require(p.sampling_ratio >= 0 && p.sampling_ratio <= 1024, "attribute 'sampling_ratio' must be in [0, 1024], got ",
          p.sampling_ratio);
  p.spatial_scale = node.attrs.get_float("spatial_scale", 1.f);
  require(std::isfinite(p.spatial_scale), "attribute 'spatial_scale' must be finite, got ", p.spatial_scale);
  return p;
}

std::vector<ValueInfo> infer_roi_align(const RoiAlignParams& p, const std::vector<ValueInfo>& in) {
  // At load a value computed under an If may not be known yet: what is known is checked, the rest when planned.
  const char* names[] = {"X", "rois", "batch_indices"};
  const DType types[] = {DType::f32, DType::f32, DType::i64};
  for (size_t i = 0; i < 3; ++i)
    if (present(in, i)) require_dtype(in, i, {types[i]}, names[i]);
  auto known = [&](size_t i) { return present(in, i) && in[i].rank_known; };
  const Shape x = known(0) ? in[0].shape : Shape{kUnknownDim, kUnknownDim, kUnknownDim, kUnknownDim};
  const Shape rois = known(1) ? in[1].shape : Shape{kUnknownDim, 4};
  const Shape idx = known(2) ? in[2].shape : Shape{kUnknownDim};
  require(x.size() == 4, "X must be [N, C, H, W], got ", to_string(x));
  require(rois.size() == 2 && (rois[1] == 4 || rois[1] < 0), "rois must be [num_rois, 4], got ", to_string(rois));
  require(idx.size() == 1, "batch_indices must be [num_rois], got ", to_string(idx));
  require(rois[0] < 0 || idx[0] < 0 || rois[0] == idx[0], "rois ", to_string(rois), " and batch_indices ",
          to_string(idx), " disagree on the number of RoIs");
  const int64_t r = rois[0] >= 0 ? rois[0] : idx[0];
  return {ValueInfo::of(DType::f32, {r, x[1], p.output_height, p.output_width})};
}

// ONNX Runtime's RoiAlignForward and PreCalcForBilinearInterpolate (onnxruntime/core/providers/cpu/
// object_detection/roialign.cc), which torchvision's roi_align (aligned=False) matches: same float32 steps.
void roi_samples(const RoiAlignParams& p, const float* roi, int64_t height, int64_t width, RoiSamples& s) {
  const float offset = p.half_pixel ? 0.5f : 0.f;
  const float start_w = roi[0] * p.spatial_scale - offset, start_h = roi[1] * p.spatial_scale - offset;
  const float end_w = roi[2] * p.spatial_scale - offset, end_h = roi[3] * p.spatial_scale - offset;
  float roi_w = end_w - start_w, roi_h = end_h - start_h;
  if (!p.half_pixel) {  // malformed RoIs forced to 1 x 1
    roi_w = std::max(roi_w, 1.f);
    roi_h = std::max(roi_h, 1.f);
  }
  const float bin_h = roi_h / float(p.output_height), bin_w = roi_w / float(p.output_width);
  // A grid of ceil(size) points; an inverted RoI (half_pixel) has none. Bounded: the points are kept.
  auto grid = [&](float size, int64_t out) -> int64_t {
    if (p.sampling_ratio > 0) return p.sampling_ratio;
    const float g = std::ceil(size / float(out));
    return g > 0 ? int64_t(std::min(g, 4096.f)) : 0;
  };
  s.grid_h = grid(roi_h, p.output_height);
  s.grid_w = grid(roi_w, p.output_width);
  s.count = std::max<int64_t>(s.grid_h * s.grid_w, 1);
  const int64_t points = p.output_height * p.output_width * s.grid_h * s.grid_w;  // each factor < 2^20
  require(points <= kRoiMaxPoints, "RoI [", roi[0], ", ", roi[1], ", ", roi[2], ", ", roi[3], "] takes ", s.grid_h, " x ",
          s.grid_w, " sampling points per bin, ", points, " in all: more than ", kRoiMaxPoints);
  s.points.resize(size_t(points));
  size_t k = 0;
  for (int64_t ph = 0; ph < p.output_height; ++ph)
    for (int64_t pw = 0; pw < p.output_width; ++pw)
      for (int64_t iy = 0; iy < s.grid_h; ++iy) {
        const float yy = start_h + float(ph) * bin_h + float(iy + .5f) * bin_h / float(s.grid_h);
        for (int64_t ix = 0; ix < s.grid_w; ++ix, ++k) {
          const float xx = start_w + float(pw) * bin_w + float(ix + .5f) * bin_w / float(s.grid_w);
          RoiPoint& pt = s.points[k];
          float y = yy, x = xx;
          if (height <= 0 || width <= 0 || y < -1.f || y > float(height) || x < -1.f || x > float(width) || !(y == y) || !(x == x)) {
            pt = RoiPoint{};
            continue;
          }
          if (y <= 0) y = 0;
          if (x <= 0) x = 0;
          int64_t y_low = int64_t(y), x_low = int64_t(x), y_high, x_high;
          if (y_low >= height - 1) {
            y_high = y_low = height - 1;
            y = float(y_low);
          } else {
            y_high = y_low + 1;
          }
          if (x_low >= width - 1) {
            x_high = x_low = width - 1;
            x = float(x_low);
          } else {
            x_high = x_low + 1;
          }
          const float ly = y - float(y_low), lx = x - float(x_low), hy = 1.f - ly, hx = 1.f - lx;
          pt.w = {hy * hx, hy * lx, ly * hx, ly * lx};
          pt.at = {y_low * width + x_low, y_low * width + x_high, y_high * width + x_low, y_high * width + x_high};
        }
      }
}

namespace {

// Output planes [first, last) of the RoIs from `first_roi` on, whose points `rois` holds.
void roi_align_planes(const RoiAlignParams& p, const KernelIO& io, const std::vector<RoiSamples>& rois,
                      int64_t first_roi, int64_t first, int64_t last) {
  const Tensor& X = *io.in[0];
  const int64_t C = X.dim(1), plane = X.dim(2) * X.dim(3), bins = p.output_height * p.output_width;
  const int64_t* batch = io.in[2]->data<int64_t>();
  float* y = io.out[0]->data<float>();
  for (int64_t q = first; q < last; ++q) {
    const int64_t r = q / C, c = q % C;
    const RoiSamples& s = rois[size_t(r - first_roi)];
    const float* x = X.data<float>() + (batch[r] * C + c) * plane;
    const int64_t per_bin = s.grid_h * s.grid_w;
    const RoiPoint* pt = s.points.data();
    for (int64_t b = 0; b < bins; ++b) {
      if (p.max_mode) {
        float best = 0;
        for (int64_t i = 0; i < per_bin; ++i, ++pt) {
          const float v = std::max(std::max(pt->w[0] * x[pt->at[0]], pt->w[1] * x[pt->at[1]]),
                                   std::max(pt->w[2] * x[pt->at[2]], pt->w[3] * x[pt->at[3]]));
          best = i == 0 ? v : std::max(best, v);
        }
        y[q * bins + b] = best;
      } else {
        double sum = 0;  // float products are exact in double
        for (int64_t i = 0; i < per_bin; ++i, ++pt)
          sum += double(pt->w[0]) * x[pt->at[0]] + double(pt->w[1]) * x[pt->at[1]] +
                 double(pt->w[2]) * x[pt->at[2]] + double(pt->w[3]) * x[pt->at[3]];
        y[q * bins + b] = float(sum / double(s.count));
      }
    }
  }
}

}  // namespace

void roi_align_run(const RoiAlignParams& p, const KernelIO& io, bool parallel) {
  const Tensor &X = *io.in[0], &rois = *io.in[1], &batch_indices = *io.in[2];
  const int64_t* b = batch_indices.data<int64_t>();
  for (int64_t r = 0; r < batch_indices.numel(); ++r)
    require(b[r] >= 0 && b[r] < X.dim(0), "batch_indices[", r, "] is ", b[r], "; X has ", X.dim(0),
            " images, so it must be in [0, ", X.dim(0), ")");
  const int64_t R = rois.dim(0), C = X.dim(1);
  std::vector<RoiSamples> chunk;
  for (int64_t first = 0, points = 0; first < R; points = 0) {
    chunk.clear();
    int64_t end = first;
    for (; end < R && points < kRoiChunkPoints; ++end) {
      chunk.emplace_back();
      roi_samples(p, rois.data<float>() + 4 * end, X.dim(2), X.dim(3), chunk.back());
      points += int64_t(chunk.back().points.size()) + 1;
    }
    const int64_t planes = (end - first) * C;
#pragma omp parallel if (parallel)
    {
      const int64_t team = omp_get_num_threads(), me = omp_get_thread_num();
      roi_align_planes(p, io, chunk, first, first * C + planes * me / team, first * C + planes * (me + 1) / team);
    }
    first = end;
  }
}

}  // namespace cnnx
