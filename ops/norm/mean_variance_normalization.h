// MeanVarianceNormalization (opsets 9, 13): (x - mean) / (sqrt(mean(x^2) - mean^2) + 1e-9), the statistics over
// `axes` (default [0, 2, 3]: per channel of an NCHW batch), float32; exactly ONNX's function body, epsilon
// after the square root included (Caffe's MVN layer, as converters write it). Reference kernel only: the
// statistics in double, each output rounded once; tolerance as LayerNormalization's (ops/norm/layer_norm.h:
// the same normalized values).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct MvnParams : OpParams {
  std::vector<int64_t> axes = {0, 2, 3};  // as written
};

constexpr Tolerance kMvnTolerance{2e-5, 2e-5};

MvnParams parse_mvn(const Node& node);
std::vector<ValueInfo> infer_mvn(const MvnParams& p, const std::vector<ValueInfo>& in);
void mvn_ref(const MvnParams& p, const KernelIO& io);

}  // namespace cnnx
