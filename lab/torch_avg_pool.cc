#include "lab/torch_avg_pool.h"

#include <algorithm>
#include <sstream>

namespace cnnx::lab {

namespace {

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

}  // namespace

TorchAvgPool torch_avg_pool(const PoolWindow& w, bool count_include_pad, const PoolGeometry& g) {
  TorchAvgPool t;
  std::vector<int64_t> k, s, pad;
  for (size_t d = 0; d < g.axes.size(); ++d) {
    const PoolAxis& a = g.axes[d];
    k.push_back(a.kernel), s.push_back(a.stride), pad.push_back(a.pad_begin);
    if (a.dilation > 1) t.reasons.push_back("dilation " + std::to_string(a.dilation) + " on axis " + std::to_string(d) +
                                           ": PyTorch's average pooling has no dilation");
    if (a.pad_begin != a.pad_end)
      t.reasons.push_back("pads " + std::to_string(a.pad_begin) + " + " + std::to_string(a.pad_end) + " on axis " +
                          std::to_string(d) +
                          ": PyTorch pads both sides equally (an F.pad before the pooling makes the padded cells "
                          "count as input, i.e. count_include_pad = 1 semantics)");
    else if (2 * a.pad_begin > a.kernel)
      t.reasons.push_back("pad " + std::to_string(a.pad_begin) + " on axis " + std::to_string(d) + " exceeds half the kernel (" +
                          std::to_string(a.kernel) + "): PyTorch refuses it");
  }
  if (w.auto_pad == PoolAutoPad::same_upper || w.auto_pad == PoolAutoPad::same_lower)
    t.reasons.push_back("auto_pad SAME_*: PyTorch pooling has no SAME padding (the pads above are what ONNX resolves)");
  t.expressible = t.reasons.empty() || (t.reasons.size() == 1 && w.auto_pad != PoolAutoPad::notset &&
                                        t.reasons[0].rfind("auto_pad", 0) == 0);
  const bool ceil = w.ceil_mode && w.auto_pad == PoolAutoPad::notset;
  std::ostringstream c;
  c << "F.avg_pool" << g.axes.size() << "d(x, kernel_size=" << list_string(k) << ", stride=" << list_string(s)
    << ", padding=" << list_string(pad) << ", ceil_mode=" << (ceil ? "True" : "False")
    << ", count_include_pad=" << (count_include_pad ? "True" : "False") << ")";
  t.call = c.str();
  if (!t.expressible) return t;
  for (size_t d = 0; d < g.axes.size(); ++d) {
    const PoolAxis& a = g.axes[d];
    // ATen: out = div_rtn(in + 2p - k + (ceil ? s - 1 : 0), s) + 1, then if ceil and (out - 1) * s >= in + p: out - 1.
    const int64_t pp = a.pad_begin;
    int64_t out = floor_div(a.in + 2 * pp - a.kernel + (ceil ? a.stride - 1 : 0), a.stride) + 1;
    if (ceil && (out - 1) * a.stride >= a.in + pp) --out;
    if (out != a.out) {
      t.differences.push_back("axis " + std::to_string(d) + ": PyTorch's output size is " + std::to_string(out) +
                              ", ONNX's " + std::to_string(a.out));
      continue;
    }
    for (int64_t o = 0; o < out; ++o) {
      const int64_t start = o * a.stride - pp, end = std::min(start + a.kernel, a.in + pp);
      const int64_t in_input = std::min(end, a.in) - std::max<int64_t>(start, 0);
      const int64_t torch_div = count_include_pad ? end - start : in_input;
      const int64_t onnx_div = count_include_pad ? a.taps_in_padded(o) : a.taps_in_input(o);
      if (torch_div != onnx_div)
        t.differences.push_back("axis " + std::to_string(d) + " window " + std::to_string(o) + ": PyTorch divides by " +
                                std::to_string(torch_div) + ", ONNX by " + std::to_string(onnx_div));
    }
  }
  return t;
}

}  // namespace cnnx::lab
