// ReverseSequence (opset 10): for each batch entry b of `input` (rank >= 2), the first sequence_lens[b]
// slices along the time axis in reverse order, the rest copied; `batch_axis` and `time_axis` (defaults 1 and
// 0) are 0 and 1 in either order. sequence_lens is int64 [batch], each in [0, time length] (checked when the
// kernel runs: a length outside is an error naming it). tf2onnx writes it for bidirectional RNNs and
// tf.reverse_sequence. Exact; reference kernel only (a copy of slices).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct ReverseSequenceParams : OpParams {
  int64_t batch_axis = 1, time_axis = 0;
};

ReverseSequenceParams parse_reverse_sequence(const Node& node);
std::vector<ValueInfo> infer_reverse_sequence(const ReverseSequenceParams& p, const std::vector<ValueInfo>& in);
void reverse_sequence_ref(const ReverseSequenceParams& p, const KernelIO& io);

}  // namespace cnnx
