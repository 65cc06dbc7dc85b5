#include "ops/pool/pool_geometry.h"

#include <algorithm>
#include <numeric>

#include "engine/error.h"

namespace cnnx {

namespace {


// A list attribute with `count` values (default: `fallback` each), every one in [min, kMaxSize].
std::vector<int64_t> read_list(const Attributes& attrs, const char* name, size_t count, int64_t fallback,
                               int64_t min, const char* count_rule) {
  std::vector<int64_t> v = attrs.get_ints(name, std::vector<int64_t>(count, fallback));
  require(v.size() == count, "attribute '", name, "' has ", v.size(), " values; expected ", count, " (",
          count_rule, ")");
  for (size_t i = 0; i < v.size(); ++i)
    require(v[i] >= min && v[i] <= kMaxSize, "attribute '", name, "' has value ", v[i], " at index ", i,
            "; it must be ", min == 0 ? "non-negative" : "positive");
  return v;
}

// Every window along axis `d` contains at least one input cell (see the header: otherwise its max or
// pad-excluding mean is undefined). Windows starting in [0, in) contain their first tap, so only those starting
// in the left padding and the last window need a look.
void require_no_empty_window(const PoolAxis& a, size_t d) {
  const int64_t last = a.out - 1;
  require(a.start(last) < a.in, "output position ", last, " along spatial axis ", d, " would pool padding only: its window starts at ",
          a.start(last), ", past the input of size ", a.in, " (pads ", a.pad_begin, ", ", a.pad_end, ")");
  if (a.pad_begin == 0) return;
  // Window 0 must reach the input: its last tap is at -pad_begin + extent - 1.
  require(a.pad_begin < a.window_extent(), "output position 0 along spatial axis ", d,
          " would pool padding only: pad_begin ", a.pad_begin, " >= window extent ", a.window_extent());
  // From here on every left window has a tap in [0, dilation); it is an input cell when in >= dilation.
  if (a.in >= a.dilation) return;
  // A dilation longer than the input: window o has an input cell iff start(o) mod dilation < in. The residues
  // repeat with period dilation / gcd(stride, dilation), so one period of the left windows decides.
  const int64_t left_windows = std::min(a.out, ceil_div(a.pad_begin, a.stride));
  const int64_t period = a.dilation / std::gcd(a.stride, a.dilation);
  const int64_t to_check = std::min(left_windows, period);
  require(to_check <= (int64_t(1) << 24), "spatial axis ", d, ": dilation ", a.dilation, " beyond the input size ",
          a.in, " with pads ", a.pad_begin, " is not supported");
  for (int64_t o = 0; o < to_check; ++o)
    require(a.tap_end(o) > a.tap_begin(o), "output position ", o, " along spatial axis ", d,
            " would pool padding only: dilation ", a.dilation, " steps over the input of size ", a.in, " (pads ",
            a.pad_begin, ", ", a.pad_end, ")");
}

}  // namespace

PoolWindow parse_pool_window(const Attributes& attrs) {
  PoolWindow w;
  require(attrs.has("kernel_shape"), "attribute 'kernel_shape' is required");
  const size_t k = attrs.get_ints("kernel_shape").size();
  require(k > 0, "attribute 'kernel_shape' is empty");
  const char* per_axis = "one per spatial axis of kernel_shape";
  w.kernel = read_list(attrs, "kernel_shape", k, 1, 1, per_axis);
  int64_t volume = 1;
  for (int64_t v : w.kernel) volume = checked_mul(volume, v, "kernel_shape volume");
  w.strides = read_list(attrs, "strides", k, 1, 1, per_axis);
  w.dilations = read_list(attrs, "dilations", k, 1, 1, per_axis);
  for (size_t i = 0; i < k; ++i)
    checked_mul(w.kernel[i] - 1, w.dilations[i], "window extent (kernel_shape - 1) x dilations");
  w.pads = read_list(attrs, "pads", 2 * k, 0, 0, "a begin and an end per spatial axis of kernel_shape");

  const std::string auto_pad = attrs.get_string("auto_pad", "NOTSET");
  if (auto_pad == "NOTSET") w.auto_pad = PoolAutoPad::notset;
  else if (auto_pad == "SAME_UPPER") w.auto_pad = PoolAutoPad::same_upper;
  else if (auto_pad == "SAME_LOWER") w.auto_pad = PoolAutoPad::same_lower;
  else if (auto_pad == "VALID") w.auto_pad = PoolAutoPad::valid;
  else fail("attribute 'auto_pad' is '", auto_pad, "'; expected NOTSET, SAME_UPPER, SAME_LOWER or VALID");
  if (w.auto_pad != PoolAutoPad::notset)
    for (int64_t p : w.pads)
      require(p == 0, "attribute 'pads' cannot be used together with auto_pad ", auto_pad);

  w.ceil_mode = attrs.get_flag("ceil_mode", false);
  return w;
}

int64_t PoolAxis::tap_begin(int64_t o) const {
  const int64_t s = start(o);
  return s >= 0 ? 0 : ceil_div(-s, dilation);
}

int64_t PoolAxis::tap_end(int64_t o) const {
  const int64_t s = start(o);
  return s >= in ? 0 : std::min(kernel, ceil_div(in - s, dilation));
}

int64_t PoolAxis::taps_in_padded(int64_t o) const {
  return std::min(kernel, ceil_div(in + pad_end - start(o), dilation));
}

bool PoolAxis::last_window_overhangs() const { return start(out - 1) + window_extent() > in + pad_end; }

Shape PoolGeometry::output_spatial() const {
  Shape s;
  for (const PoolAxis& a : axes) s.push_back(a.out);
  return s;
}

Shape PoolGeometry::input_spatial() const {
  Shape s;
  for (const PoolAxis& a : axes) s.push_back(a.in);
  return s;
}

int64_t PoolGeometry::divisor(const std::vector<int64_t>& out_index, bool count_include_pad) const {
  int64_t n = 1;
  for (size_t d = 0; d < axes.size(); ++d)
    n *= count_include_pad ? axes[d].taps_in_padded(out_index[d]) : axes[d].taps_in_input(out_index[d]);
  return n;  // <= the kernel_shape volume, checked at parse time
}

PoolGeometry resolve_pool_geometry(const PoolWindow& w, const Shape& input_spatial) {
  const size_t k = w.spatial_rank();
  require(input_spatial.size() == k, "kernel_shape has ", k, " spatial dims but the input has ",
          input_spatial.size(), " (input rank must be ", k + 2, ")");
  PoolGeometry g;
  for (size_t d = 0; d < k; ++d) {
    PoolAxis a;
    a.in = input_spatial[d];
    a.kernel = w.kernel[d];
    a.stride = w.strides[d];
    a.dilation = w.dilations[d];
    const int64_t extent = a.window_extent();
    switch (w.auto_pad) {
      case PoolAutoPad::notset:
        a.pad_begin = w.pads[d];
        a.pad_end = w.pads[k + d];
        break;
      case PoolAutoPad::valid:
        break;
      case PoolAutoPad::same_upper:
      case PoolAutoPad::same_lower:
        a.pad_begin = a.pad_end = kUnknownDim;
        break;
    }
    if (a.in == kUnknownDim) {
      a.out = kUnknownDim;
      g.axes.push_back(a);
      continue;
    }
    require(a.in >= 0 && a.in <= kMaxSize, "input spatial dim ", d, " is ", a.in);
    if (w.auto_pad == PoolAutoPad::same_upper || w.auto_pad == PoolAutoPad::same_lower) {
      a.out = ceil_div(a.in, a.stride);
      const int64_t total = std::max<int64_t>(0, (a.out - 1) * a.stride + extent - a.in);
      a.pad_begin = w.auto_pad == PoolAutoPad::same_upper ? total / 2 : total - total / 2;
      a.pad_end = total - a.pad_begin;
    } else {
      const int64_t padded = checked_add(checked_add(a.in, a.pad_begin, "padded input size"), a.pad_end,
                                         "padded input size");
      const bool ceil = w.ceil_mode && w.auto_pad == PoolAutoPad::notset;
      a.out = (ceil ? ceil_div(padded - extent, a.stride) : floor_div(padded - extent, a.stride)) + 1;
      // ceil_mode: a last window that would start in the right padding is dropped.
      if (ceil && a.out >= 1 && a.start(a.out - 1) >= a.in) --a.out;
    }
    require(a.out >= 1, "kernel_shape ", a.kernel, " (window extent ", extent, " with dilation ", a.dilation,
            ") is larger than the padded input along spatial axis ", d, ": input ", a.in, ", pads ", a.pad_begin,
            " + ", a.pad_end);
    require_no_empty_window(a, d);
    g.axes.push_back(a);
  }
  return g;
}

}  // namespace cnnx
