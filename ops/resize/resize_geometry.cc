#include "ops/resize/resize_geometry.h"

#include <algorithm>
#include <cmath>

namespace cnnx {

namespace {

// Antialiasing stretches the filter by 1 / scale: more taps per cell than this is refused (tiny scales).
constexpr double kMaxAntialiasTaps = double(1 << 20);

// The data of argument input i as doubles; false when it is absent (omitted or empty) or not known yet
// (`known` then says which).
bool argument(const std::vector<ValueInfo>& in, int i, std::initializer_list<DType> types, const char* what,
              std::vector<double>& values, bool& known) {
  values.clear();
  if (i < 0 || !present(in, size_t(i))) return false;
  const ValueInfo& v = in[size_t(i)];
  require_dtype(in, size_t(i), types, what);
  require(!v.rank_known || v.rank() <= 1, what, " ", i, " must be a 1-D tensor, got shape ", to_string(v.shape));
  if (v.rank_known && is_concrete(v.shape) && checked_numel(v.shape) == 0) return false;
  if (!v.constant) {
    known = false;
    return false;
  }
  for (int64_t k = 0; k < v.constant->numel(); ++k) values.push_back(v.constant->double_at(k));
  return !values.empty();
}

// The axes scales / sizes / roi list, normalized (every axis when the attribute is absent).
std::vector<int64_t> resized_axes(const ResizeParams& p, int64_t rank) {
  std::vector<int64_t> axes;
  if (p.axes.empty()) {
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
    return axes;
  }
  std::vector<bool> seen(size_t(rank), false);
  for (int64_t a : p.axes) {
    const int64_t n = normalize_axis(a, rank, "attribute 'axes'");
    require(!seen[size_t(n)], "attribute 'axes' ", list_string(p.axes), " names axis ", n, " twice");
    seen[size_t(n)] = true;
    axes.push_back(n);
  }
  return axes;
}

// Keys' cubic convolution kernel with coefficient a.
double cubic_kernel(double t, double a) {
  t = std::fabs(t);
  if (t <= 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
  return 0;
}

}  // namespace

Shape ResizeGeometry::output() const {
  Shape s;
  for (const ResizeAxis& a : axes) s.push_back(a.out);
  return s;
}

bool resolve_resize(const ResizeParams& p, const std::vector<ValueInfo>& in, ResizeGeometry& g) {
  const Shape& x = in[0].shape;
  const int64_t rank = int64_t(x.size());
  bool known = true;
  std::vector<double> roi, scales, sizes;
  const bool has_roi = argument(in, p.roi_input, {DType::f32, DType::f64}, "input", roi, known);
  const bool has_scales = argument(in, p.scales_input, {DType::f32}, "input", scales, known);
  const bool has_sizes = argument(in, p.sizes_input, {DType::i64}, "input", sizes, known);
  if (!known) return false;

  g.axes.assign(size_t(rank), {});
  for (int64_t a = 0; a < rank; ++a) {
    ResizeAxis& ax = g.axes[size_t(a)];
    ax.in = ax.out = x[size_t(a)];
    ax.length = double(ax.in);
  }
  if (!p.scale_attribute.empty()) {  // Upsample-1/7
    require(int64_t(p.scale_attribute.size()) == rank, "attribute scales (", p.scale_attribute.size(),
            " values) must have one value per axis of input 0 (rank ", rank, ")");
    scales.assign(p.scale_attribute.begin(), p.scale_attribute.end());
  } else {
    require(!(has_scales && has_sizes), "input 2 (scales) and input 3 (sizes) are both given; give one");
    require(has_scales || has_sizes, p.sizes_input < 0 ? "input 1 (scales) is empty"
                                                       : "neither input 2 (scales) nor input 3 (sizes) is given");
  }

  const std::vector<int64_t> axes = resized_axes(p, rank);
  const size_t n = axes.size();
  const char* what = has_sizes ? "sizes" : "scales";
  const size_t given = has_sizes ? sizes.size() : scales.size();
  require(given == n, what, " has ", given, " values; expected ", n, p.axes.empty() ? " (the rank of input 0)" : " (one per entry of 'axes')");
  if (has_roi && p.coordinates == ResizeCoordinates::tf_crop_and_resize) {
    require(roi.size() == 2 * n, "input 1 (roi) has ", roi.size(), " values; expected ", 2 * n,
            " (starts then ends of ", n, " axes)");
    for (double v : roi) require(std::isfinite(v), "input 1 (roi) ", list_string(roi), " must be finite");
    for (size_t i = 0; i < n; ++i) {
      g.axes[size_t(axes[i])].roi_start = roi[i];
      g.axes[size_t(axes[i])].roi_end = roi[n + i];
    }
  } else {
    require(p.coordinates != ResizeCoordinates::tf_crop_and_resize,
            "coordinate_transformation_mode 'tf_crop_and_resize' needs input 1 (roi)");
  }

  if (!has_sizes) {
    for (size_t i = 0; i < n; ++i) {
      ResizeAxis& ax = g.axes[size_t(axes[i])];
      const double s = scales[i];
      require(std::isfinite(s) && s > 0, "scales ", list_string(scales), " must be finite and > 0");
      require(!p.scales_at_least_one || s >= 1, "scales ", list_string(scales), " must be >= 1 for Upsample");
      ax.scale = s;
      ax.length = double(ax.in) * s * (ax.roi_end - ax.roi_start);
      require(ax.length >= 0 && ax.length < double(kMaxSize), "output axis ", axes[i], " would have ", ax.length,
              " cells (input ", ax.in, ", scale ", s, ")");
      // The product rounded to float32 before the floor, as onnxruntime computes it: exporters write size / in
      // as a float32 scale (PyTorch at opsets 9 and 10: 9 / 5 = 1.79999995f, times 5 = 8.99999976, 9.0f).
      ax.out = int64_t(std::floor(float(ax.length)));
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      // Checked as read (a double) before the conversion: an int64 size near 2^63 converts out of range.
      require(sizes[i] >= 0 && sizes[i] < double(kMaxSize), "sizes ", list_string(sizes),
              " must be >= 0 (and below 2^52)");
      const int64_t size = int64_t(sizes[i]);
      const ResizeAxis& ax = g.axes[size_t(axes[i])];
      require(ax.in > 0 || size == 0, "sizes ", list_string(sizes), " asks for ", size, " cells along axis ",
              axes[i], " of input 0, which is empty");
      if (p.aspect != AspectPolicy::stretch)
        require(ax.in > 0, "keep_aspect_ratio_policy needs non-empty input axes; axis ", axes[i], " is empty");
    }
    double common = 0;  // keep_aspect_ratio_policy's one scale
    for (size_t i = 0; i < n; ++i) {
      const double ratio = sizes[i] / double(g.axes[size_t(axes[i])].in);
      common = i == 0 ? ratio : p.aspect == AspectPolicy::not_larger ? std::min(common, ratio) : std::max(common, ratio);
    }
    for (size_t i = 0; i < n; ++i) {
      ResizeAxis& ax = g.axes[size_t(axes[i])];
      if (p.aspect == AspectPolicy::stretch) {
        ax.out = int64_t(sizes[i]);
        ax.scale = ax.in > 0 ? double(ax.out) / double(ax.in) : 1;
        ax.length = double(ax.out);
      } else {
        ax.scale = common;
        ax.length = common * double(ax.in);
        require(ax.length < double(kMaxSize), "output axis ", axes[i], " would have ", ax.length, " cells");
        ax.out = int64_t(std::floor(ax.length + 0.5));  // round half up
      }
    }
  }
  if (p.antialias && p.mode != ResizeMode::nearest)
    for (const ResizeAxis& ax : g.axes)
      require(ax.out == 0 || ax.scale * kMaxAntialiasTaps >= 4,
              "scale ", ax.scale, " is too small for antialias (over ", kMaxAntialiasTaps, " taps per output cell)");
  checked_numel(g.output());
  return true;
}

double source_coordinate(const ResizeParams& p, const ResizeAxis& a, int64_t o) {
  const double x = double(o), in = double(a.in), s = a.scale, L = a.length;
  switch (p.coordinates) {
    case ResizeCoordinates::half_pixel: return (x + 0.5) / s - 0.5;
    case ResizeCoordinates::half_pixel_symmetric:
      return in / 2 * (1 - double(a.out) / L) + (x + 0.5) / s - 0.5;
    case ResizeCoordinates::pytorch_half_pixel: return L > 1 ? (x + 0.5) / s - 0.5 : 0;
    case ResizeCoordinates::align_corners: return L == 1 ? 0 : x * (in - 1) / (L - 1);
    case ResizeCoordinates::asymmetric: return x / s;
    case ResizeCoordinates::tf_half_pixel_for_nn: return (x + 0.5) / s;
    case ResizeCoordinates::tf_crop_and_resize:
      return L > 1 ? a.roi_start * (in - 1) + x * (a.roi_end - a.roi_start) * (in - 1) / (L - 1)
                   : 0.5 * (a.roi_start + a.roi_end) * (in - 1);
  }
  return 0;
}

bool inside_crop(const ResizeParams& p, const ResizeAxis& a, double x) {
  return p.coordinates != ResizeCoordinates::tf_crop_and_resize || (x >= 0 && x <= double(a.in - 1));
}

int64_t nearest_index(const ResizeParams& p, const ResizeAxis& a, double x) {
  const double f = std::floor(x), r = x - f;
  double pick = f;
  if (r > 0) switch (p.rounding) {
      case NearestRounding::round_prefer_floor: pick = r <= 0.5 ? f : f + 1; break;
      case NearestRounding::round_prefer_ceil: pick = r < 0.5 ? f : f + 1; break;
      case NearestRounding::floor: pick = f; break;
      case NearestRounding::ceil: pick = f + 1; break;
    }
  return std::clamp<int64_t>(int64_t(std::clamp(pick, -1.0, double(a.in))), 0, a.in - 1);
}

AxisTaps axis_taps(const ResizeParams& p, const ResizeAxis& a) {
  AxisTaps t;
  t.first.reserve(size_t(a.out) + 1);
  if (a.out == 0) {
    t.first.push_back(0);
    return t;
  }
  const bool cubic = p.mode == ResizeMode::cubic;
  const double support = cubic ? 2 : 1;
  const double stretch = p.antialias ? std::min(a.scale, 1.0) : 1;  // s'
  const int64_t start = int64_t(std::floor(-support / stretch)) + 1;
  std::vector<double> w(size_t(2 - 2 * start));
  for (int64_t o = 0; o < a.out; ++o) {
    t.first.push_back(t.taps.size());
    // Coordinates of the formulas lie in (-1, in] (tf_crop_and_resize's are checked first); clamping keeps
    // the index arithmetic bounded whatever rounding did.
    const double x = source_coordinate(p, a, o);
    if (!inside_crop(p, a, x)) continue;
    if (p.mode == ResizeMode::nearest) {
      t.taps.push_back({nearest_index(p, a, x), 1.0});
      continue;
    }
    const double xc = std::clamp(x, -1.0, double(a.in));
    const int64_t b = int64_t(std::ceil(xc)) - 1;
    const double r = xc - double(b);  // (0, 1]
    double sum = 0, kept = 0;
    for (size_t i = 0; i < w.size(); ++i) {
      const double d = stretch * (double(start + int64_t(i)) - r);
      w[i] = cubic ? cubic_kernel(d, p.cubic_coeff_a) : std::max(0.0, 1 - std::fabs(d));
      sum += w[i];
      const int64_t idx = b + start + int64_t(i);
      if (p.exclude_outside && (idx < 0 || idx >= a.in)) w[i] = 0;
      kept += w[i];
    }
    // Antialias divides by the sum of the weights; exclude_outside by the sum of those kept.
    const double divisor = p.exclude_outside ? kept : p.antialias ? sum : 1;
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] == 0) continue;
      const int64_t idx = std::clamp<int64_t>(b + start + int64_t(i), 0, a.in - 1);
      t.taps.push_back({idx, divisor != 0 ? w[i] / divisor : w[i]});
    }
  }
  t.first.push_back(t.taps.size());
  return t;
}

}  // namespace cnnx
