// AveragePool settings where engines are known to give different results (OpHints::caution, shown once per node
// at load). What each engine does was measured with the cases of bench/pool_semantics.py: ONNX Runtime 1.30,
// PyTorch 1.13, oneDNN 2.6 and the ONNX opset-19 text; docs/pooling.md has the worked examples.
#include <sstream>

#include "ops/pool/pool.h"

namespace cnnx {

namespace {


// The ceil_mode cautions of a resolved geometry (explicit pads, concrete sizes), one per kind, naming the axes.
void ceil_mode_cautions(const PoolParams& p, const PoolGeometry& g, std::vector<std::string>& out) {
  std::ostringstream dropped, overhang;
  for (size_t d = 0; d < g.axes.size(); ++d) {
    const PoolAxis& a = g.axes[d];
    const int64_t rounded_up = ceil_div(a.in + a.pad_begin + a.pad_end - a.window_extent(), a.stride) + 1;
    if (rounded_up > a.out)
      dropped << (dropped.tellp() ? ", " : "") << "axis " << d << ": " << a.out << " (the dropped window would start at "
              << a.start(a.out) << ", in the right padding; engines that only round up give " << rounded_up << ")";
    if (p.count_include_pad && a.last_window_overhangs())
      overhang << (overhang.tellp() ? ", " : "") << "axis " << d << ": " << a.taps_in_padded(a.out - 1) << " of "
               << a.kernel;
  }
  if (dropped.tellp())
    out.push_back("ceil_mode drops last windows that would start in the right padding, as ONNX opset 19, PyTorch and "
                  "ONNX Runtime 1.30 do (output size along " + dropped.str() + ")");
  if (overhang.tellp())
    out.push_back("ceil_mode with count_include_pad=1: the last window reaches past input + pads and is divided by its "
                  "taps inside input + pads (ONNX opset 19, PyTorch, ONNX Runtime 1.30) where oneDNN's include-padding "
                  "pooling and older ONNX Runtime (onnxruntime issue 16203) divide by the whole kernel (divisor "
                  "factor along " + overhang.str() + "); cnnx runs its reference kernel here");
}

}  // namespace

std::string average_pool_caution(const PoolParams& p, const std::vector<ValueInfo>& in) {
  const PoolWindow& w = p.window;
  std::vector<std::string> notes;
  bool dilated = false;
  for (int64_t v : w.dilations) dilated = dilated || v > 1;
  if (dilated && (w.auto_pad == PoolAutoPad::same_upper || w.auto_pad == PoolAutoPad::same_lower))
    notes.push_back("auto_pad " + std::string(w.auto_pad == PoolAutoPad::same_upper ? "SAME_UPPER" : "SAME_LOWER") +
                    " with dilations " + list_string(w.dilations) +
                    ": ONNX pads for the dilated window (output size ceil(in / stride)) but ONNX Runtime 1.30 pads "
                    "for the undilated kernel and gives a smaller output; PyTorch's average pooling has neither "
                    "SAME padding nor dilations");
  if (w.ceil_mode && w.auto_pad == PoolAutoPad::notset && !in.empty() && in[0].rank_known &&
      in[0].rank() == int64_t(w.spatial_rank()) + 2) {
    const Shape spatial(in[0].shape.begin() + 2, in[0].shape.end());
    if (is_concrete(spatial)) {
      try {
        const PoolGeometry g = resolve_pool_geometry(w, spatial);
        ceil_mode_cautions(p, g, notes);
      } catch (const Error&) {
        // Not a valid geometry: infer reports that.
      }
    } else if (p.count_include_pad) {
      notes.push_back("ceil_mode with count_include_pad=1: if the last window reaches past input + pads (it "
                      "depends on the input size), ONNX opset 19, PyTorch and ONNX Runtime 1.30 divide it by its "
                      "taps inside input + pads, oneDNN and older ONNX Runtime by the kernel size");
    }
  }
  std::string all;
  for (const std::string& n : notes) all += (all.empty() ? "" : "; ") + n;
  return all;
}

}  // namespace cnnx
