// Pad (opset 1+; opset 1 calls the `pads` attribute `paddings`). Before opset 11 `pads` and `value` are attributes; from 11 on pads is input 1 and
// constant_value input 2 (optional, a one-element tensor of the data's type, default 0); from 18 the
// optional input 3 `axes` says which axes the pads are for (default: all). pads = [begin of each axis...,
// end of each axis...]. Negative pads crop: the cropped input is padded (ONNX's reference order); an axis
// cropped away entirely and padded again is all constant_value (constant mode only).
// Modes: constant; reflect (mirror without repeating the edge; needs a cropped length >= 2 and pads <= that
// length - 1); edge (repeat the edge; needs a non-empty axis); wrap (opset 19, periodic; non-empty axis).
#pragma once

#include <optional>
#include <vector>

#include "engine/op.h"

namespace cnnx {

enum class PadMode { constant, reflect, edge, wrap };

struct PadParams : OpParams {
  PadMode mode = PadMode::constant;
  bool from_inputs = false;    // opset 11+
  std::vector<int64_t> pads;   // attribute form only
  float value = 0;             // attribute form only
};

// Per input axis: the pads before and after (negative: crop) and the output dim (kUnknownDim when the
// input dim is unknown).
struct PadGeometry {
  std::vector<int64_t> begin, end;
  Shape out;
};

PadParams parse_pad(const Node& node);
// The geometry for `pads` over `axes` (nullptr: every axis), validated against the mode.
PadGeometry resolve_pad(PadMode mode, const Shape& data, const std::vector<int64_t>& pads,
                        const std::vector<int64_t>* axes);
std::vector<ValueInfo> infer_pad(const PadParams& p, const std::vector<ValueInfo>& in);

// A Pad's amounts when they are known before a run (attributes, or constant pads and axes inputs): per axis of
// input 0 the cells added before and after (negative: cropped), and the constant when it is known too (0 when
// not given; empty when input 2 is read at run time). False when the pads are read at run time.
struct KnownPads {
  std::vector<int64_t> begin, end;
  std::optional<double> value;
};
bool known_pads(const PadParams& p, const std::vector<ValueInfo>& in, KnownPads& pads);
void pad_ref(const PadParams& p, const KernelIO& io);
// oneDNN: constant mode with pads >= 0 known when compiled, float32: the output filled with the constant, then
// one reorder of the input into its place (pad_dnnl.cc). Keeps a channels-last input channels-last.
Kernel<PadParams> pad_dnnl_kernel();

}  // namespace cnnx
