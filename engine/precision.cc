#include "engine/precision.h"

#include "engine/error.h"

namespace cnnx {

const char* precision_name(Precision p) { return p == Precision::bf16 ? "bf16" : "fp32"; }

Precision parse_precision(const std::string& name) {
  if (name == "fp32") return Precision::f32;
  if (name == "bf16") return Precision::bf16;
  fail("unknown precision '", name, "' (expected fp32 or bf16)");
}

}  // namespace cnnx
