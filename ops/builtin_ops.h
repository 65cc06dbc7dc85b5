// The registry of every op cnnx ships, made on first use (thread-safe). Adding an op family adds one line
// to register_builtin_ops (ops/builtin_ops.cc) and its register_<family>_ops to ops/families.h.
#pragma once

#include "engine/op_registry.h"

namespace cnnx {

const OpRegistry& builtin_ops();

}  // namespace cnnx
