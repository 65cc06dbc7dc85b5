#include "lab/avg_pool_explain.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "lab/lab_input.h"

namespace cnnx::lab {

namespace {

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

// The output-size formula of one axis with its numbers, as ONNX opset 19 states it.
std::string size_formula(const PoolWindow& w, const PoolAxis& a) {
  std::ostringstream s;
  const int64_t eff = a.window_extent();
  if (a.dilation > 1) s << "window extent (" << a.kernel << " - 1) * " << a.dilation << " + 1 = " << eff << "; ";
  if (w.auto_pad == PoolAutoPad::same_upper || w.auto_pad == PoolAutoPad::same_lower) {
    s << "out = ceil(" << a.in << " / " << a.stride << ") = " << a.out << ", total pad max(0, (" << a.out << " - 1) * "
      << a.stride << " + " << eff << " - " << a.in << ") = " << a.pad_begin + a.pad_end << " -> pads " << a.pad_begin
      << " + " << a.pad_end << " (odd cell at the " << (w.auto_pad == PoolAutoPad::same_upper ? "end" : "beginning")
      << ")";
    return s.str();
  }
  if (w.auto_pad == PoolAutoPad::valid) {
    s << "out = floor((" << a.in << " - " << eff << ") / " << a.stride << ") + 1 = " << a.out;
    return s.str();
  }
  const int64_t num = a.in + a.pad_begin + a.pad_end - eff;
  if (!w.ceil_mode) {
    s << "out = floor((" << a.in << " + " << a.pad_begin << " + " << a.pad_end << " - " << eff << ") / " << a.stride
      << ") + 1 = " << a.out;
    return s.str();
  }
  const int64_t up = ceil_div(num, a.stride) + 1;
  s << "out = ceil((" << a.in << " + " << a.pad_begin << " + " << a.pad_end << " - " << eff << ") / " << a.stride
    << ") + 1 = " << up;
  if (up > a.out)
    s << ", minus the last window, which would start at " << a.start(up - 1) << " (in the right padding): " << a.out;
  return s.str();
}

AvgPoolWindowInfo window_info(const PoolAxis& a, int64_t o, bool count_include_pad) {
  AvgPoolWindowInfo w;
  w.index = o;
  w.start = a.start(o);
  w.taps_in_input = a.taps_in_input(o);
  w.taps_in_padded = a.taps_in_padded(o);
  w.divisor_factor = count_include_pad ? w.taps_in_padded : w.taps_in_input;
  w.starts_in_padding = w.start < 0 || w.start >= a.in;
  w.overhangs = w.start + a.window_extent() > a.in + a.pad_end;
  return w;
}

// Windows to show along an axis: all when few, else the first and last three (the edges, where padding is).
std::vector<int64_t> shown_windows(int64_t out) {
  std::vector<int64_t> v;
  for (int64_t o = 0; o < out; ++o)
    if (out <= 12 || o < 3 || o >= out - 3) v.push_back(o);
  return v;
}

}  // namespace

AvgPoolExplanation explain_avg_pool(const AvgPoolSettings& s) {
  Attributes attrs;
  attrs.set("kernel_shape", ints_attr(s.kernel));
  if (!s.strides.empty()) attrs.set("strides", ints_attr(s.strides));
  if (!s.dilations.empty()) attrs.set("dilations", ints_attr(s.dilations));
  if (!s.pads.empty()) attrs.set("pads", ints_attr(s.pads));
  if (s.auto_pad != "NOTSET") attrs.set("auto_pad", string_attr(s.auto_pad));
  if (s.ceil_mode) attrs.set("ceil_mode", int_attr(1));
  if (s.count_include_pad) attrs.set("count_include_pad", int_attr(1));

  // The node as a model of opset 19 (dilations need it): parse, infer and cautions as at load. The op's parse
  // reads its window with parse_pool_window from these attributes, and count_include_pad as set.
  ModelSketch sketch(19);
  sketch.input("x", s.shape).node("AveragePool", {"x"}, {"y"}, "AveragePool", attrs).output("y");
  const Model model = sketch.build();
  const PoolWindow window = parse_pool_window(attrs);

  AvgPoolExplanation e;
  e.input_shape = s.shape;
  e.count_include_pad = s.count_include_pad;
  e.geometry = resolve_pool_geometry(window, Shape(s.shape.begin() + 2, s.shape.end()));
  const PoolGeometry& g = e.geometry;
  e.output_shape = {s.shape[0], s.shape[1]};
  for (int64_t v : g.output_spatial()) e.output_shape.push_back(v);

  // dnnl backend against the reference kernel on one seeded input.
  Tensor x(DType::f32, s.shape);
  fill_lab_input(x);
  const PlanView ref_plan = plan_apart(model, {x}, Backend::ref);
  const PlanView dnnl_plan = plan_apart(model, {x}, Backend::dnnl);
  const StepReport step = dnnl_plan.steps().at(0);
  const Tensor want = ref_plan.run({x})[0], got = dnnl_plan.run({x})[0];
  double diff = 0;
  for (int64_t i = 0; i < want.numel(); ++i)
    diff = std::max(diff, std::abs(double(got.data<float>()[i]) - double(want.data<float>()[i])));
  e.dnnl_backend_kernel = step.kernel;
  e.declined = step.declined;
  e.max_abs_diff_vs_ref = diff;
  // What oneDNN's own include-padding average would divide by where cnnx declines it: the kernel volume.
  int64_t volume = 1;
  for (const PoolAxis& a : g.axes) volume *= a.kernel;
  if (s.count_include_pad)
    for (size_t d = 0; d < g.axes.size(); ++d)
      if (g.axes[d].last_window_overhangs())
        e.onednn_include_padding_differs.push_back(
            "axis " + std::to_string(d) + ": the last window's divisor factor is " +
            std::to_string(g.axes[d].taps_in_padded(g.axes[d].out - 1)) + "; oneDNN's include-padding pooling uses " +
            std::to_string(g.axes[d].kernel) + " (it divides every window by the kernel volume " +
            std::to_string(volume) + ")");
  e.pytorch = torch_avg_pool(window, s.count_include_pad, g);
  e.warnings = model_report(model).warnings;

  for (const PoolAxis& a : g.axes) {
    AvgPoolAxisInfo info;
    info.axis = a;
    info.formula = size_formula(window, a);
    for (int64_t o : shown_windows(a.out)) info.windows.push_back(window_info(a, o, s.count_include_pad));
    e.axes.push_back(std::move(info));
  }
  return e;
}

}  // namespace cnnx::lab
