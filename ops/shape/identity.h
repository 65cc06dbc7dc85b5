// Ops that pass their input through at inference: Identity and Dropout.
//
// Dropout (opset 7+) is the identity at inference; its optional mask output is all true (bool from opset
// 10, ones of the data's type before). Before opset 12 `ratio` is an attribute; from 12 on ratio and
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

// The message for training-mode Dropout, shared by infer, the kernel and tests.
constexpr const char* kTrainingDropoutRefused = "training-mode Dropout is not supported (cnnx is inference-only)";

}  // namespace cnnx
