// Ops that pass their input through at inference: Identity and Dropout.
//
// Dropout (opset 1+) is the identity at inference; its optional mask output is all true (bool from opset
// 10, ones of the data's type before). Before opset 12 `ratio` is an attribute (opset 1-6 also `is_test`,
// ignored: inference either way); from 12 on ratio and
// training_mode are optional inputs 1 and 2. training_mode = true with ratio > 0 (the default ratio is 0.5)
// would draw random masks: cnnx is inference-only and refuses it, at load/plan time when both are known,
// otherwise when the kernel runs. training_mode = true with ratio = 0 is the identity and runs.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct DropoutParams : OpParams {
  bool ratio_from_input = false;  // opset 12+
  float ratio = 0.5f;             // attribute form (opset 7-11); unused at inference beyond validation
  bool mask_is_bool = true;       // opset 10+
};

// The output is the input, data included when known (a constant stays a constant without running).
std::vector<ValueInfo> infer_identity(const NoParams& p, const std::vector<ValueInfo>& in);
void identity_ref(const NoParams& p, const KernelIO& io);

DropoutParams parse_dropout(const Node& node);
std::vector<ValueInfo> infer_dropout(const DropoutParams& p, const std::vector<ValueInfo>& in);
void dropout_ref(const DropoutParams& p, const KernelIO& io);

// The message for training-mode Dropout, shared by infer, the kernel and tests.
constexpr const char* kTrainingDropoutRefused = "training-mode Dropout is not supported (cnnx is inference-only)";
// The value of a one-element bool tensor, read as a byte (any nonzero byte is true); Dropout's training_mode.
bool bool_scalar_value(const Tensor& t);

}  // namespace cnnx
