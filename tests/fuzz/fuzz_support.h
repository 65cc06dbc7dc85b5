// Shared by the libFuzzer targets: inputs made from a model's input specs, and the bounds that keep one
// fuzz iteration small. A fuzzer must spend its time on many small cases, not on one huge-but-legal model
// (cnnx does not promise to bound the CPU time or memory of those beyond Options' limits; see SECURITY.md),
// so an input spec or a plan over these bounds is skipped, not run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "api/cnnx.h"
#include "runtime/model_access.h"
#include "runtime/plan.h"

namespace cnnx::fuzz {

constexpr int64_t kMaxInputElements = int64_t(1) << 16;    // per input
constexpr int64_t kMaxValueBytes = int64_t(16) << 20;       // any one initializer, constant or intermediate
constexpr int64_t kMaxPlanWork = int64_t(1) << 28;          // see plan_is_small

// Options for loading fuzzed models: one thread, the tensor limit lowered to kMaxValueBytes, the arena limit to
// 4 of them and a Loop's iterations to kMaxLoopIterations (so these limits' checks are fuzzed too). Why the
// last: a Loop whose carried value grows by a Concat each iteration copies the whole value every time, work
// quadratic in the iterations; at the default 65536 iterations one such 311-byte model took 14 s to reach its
// limit error in a release build and over the 25 s timeout under ASan.
constexpr int64_t kMaxLoopIterations = 1024;
inline Options fuzz_options(Backend backend) {
  Options o;
  o.backend = backend;
  o.threads = 1;
  o.max_tensor_bytes = kMaxValueBytes;
  o.max_arena_bytes = 4 * kMaxValueBytes;
  o.max_loop_iterations = kMaxLoopIterations;
  return o;
}

// One deterministic tensor per input spec: unknown dims are 2, an unknown rank is [2]; floats take small
// values around zero (zeros and negatives included), integers 0..3 (valid as indices, axes and most shape
// arguments), booleans alternate. nullopt when an input would exceed kMaxInputElements.
inline std::optional<std::vector<Tensor>> inputs_for(const std::vector<TensorSpec>& specs) {
  std::vector<Tensor> inputs;
  for (const TensorSpec& s : specs) {
    Shape shape = s.shape_known ? s.shape : Shape{2};
    int64_t numel = 1;
    for (int64_t& d : shape) {
      if (d < 0) d = 2;
      if (d > kMaxInputElements) return std::nullopt;
      numel *= d;
      if (numel > kMaxInputElements) return std::nullopt;
    }
    Tensor t(s.dtype, shape);
    for (int64_t i = 0; i < numel; ++i) {
      int64_t k = (i * 7 + 3) % 9;  // 3, 1, 8, 6, 4, 2, 0, 7, 5, ...
      switch (s.dtype) {
        case DType::f32: t.data<float>()[i] = 0.5f * float(k - 4); break;
        case DType::f64: t.data<double>()[i] = 0.5 * double(k - 4); break;
        case DType::i64: t.data<int64_t>()[i] = k % 4; break;
        case DType::i32: t.data<int32_t>()[i] = int32_t(k % 4); break;
        case DType::i8: t.data<int8_t>()[i] = int8_t(k % 4); break;
        case DType::u8: t.data<uint8_t>()[i] = uint8_t(k % 4); break;
        case DType::boolean: t.data<bool>()[i] = k % 2; break;
        case DType::f16: static_cast<uint16_t*>(t.raw())[i] = uint16_t(0x3800 + (k % 8) * 0x100); break;
        case DType::bf16: static_cast<uint16_t*>(t.raw())[i] = uint16_t(0x3f00 + (k % 8) * 0x10); break;
        default: return std::nullopt;
      }
    }
    inputs.push_back(t);
  }
  return inputs;
}

// True when running the plan stays small: no value over kMaxValueBytes, and the sum over steps of
// (output elements x largest input's elements) at most kMaxPlanWork. That product bounds the work of
// every cnnx op but Conv/Pool-like ones, whose windows lie inside their (padded) input; it is a crude
// over-estimate for Conv, Gemm and MatMul, which only matters for models far bigger than fuzzing builds.
inline bool plan_is_small(const Plan& plan) {
  int64_t work = 0;
  for (const PlanStep& step : plan.steps()) {
    int64_t largest_in = 1, out = 0;
    for (const ValueInfo& v : step.in)
      if (v.dtype != DType::undefined) largest_in = std::max(largest_in, checked_numel(v.shape));
    for (const ValueInfo& v : step.out) {
      if (v.dtype == DType::undefined) continue;
      int64_t n = checked_numel(v.shape);
      if (n * int64_t(dtype_size(v.dtype)) > kMaxValueBytes) return false;
      out += n;
    }
    if (out > 0 && largest_in > (kMaxPlanWork - work) / out) return false;
    work += out * largest_in;
  }
  return true;
}

}  // namespace cnnx::fuzz
