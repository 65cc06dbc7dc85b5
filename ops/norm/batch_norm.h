// BatchNormalization (opsets 1, 6, 7, 9, 14, 15), float32, over channel dim 1 of an (N x C x D1 ... Dn) input.
//
//   test mode:      Y = scale * (X - mean) / sqrt(var + epsilon) + B
//   training mode:  the same with the batch's own mean and population variance over every dim but 1;
//                   optional outputs running_mean = mean * momentum + batch_mean * (1 - momentum), and
//                   running_var likewise from the batch variance (ONNX opset 14+, training_mode = 1).
//
// Opsets 1 and 6: is_test = 1 is test mode; is_test = 0 (the default) is training mode as the spec defines it
// (Y from the batch statistics, optional outputs mean and var = the running statistics as above; a caution
// says so at load); saved_mean and saved_var are refused, since the spec leaves saved_var's meaning open
// (engines store 1/std there). Opset 1's consumed_inputs is a legacy in-place hint: accepted, no effect.
// Opsets 7 to 13 run test mode only: their training outputs (mean, var, saved_mean, saved_var) are refused.
// Opsets 1 to 7: spatial = 0 means per-activation statistics: scale, B, mean and var hold one value per
// (c, d1, ..., dn), shape (C x D1 x ... x Dn) or those values in 1-D; X is then normalized as (N x C') with
// C' = C * D1 * ... * Dn. From opset 9 a 1-D input of size N means C = 1.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct BatchNormParams : OpParams {
  float epsilon = 1e-5f;
  float momentum = 0.9f;
  bool training = false;        // opset 14+ training_mode = 1: normalize with the batch statistics
  bool allow_rank1 = false;     // opset 9+: a 1-D input is (N) with C = 1
  bool spatial = true;          // opsets 1-7 spatial = 0: per-activation statistics
  bool legacy_is_test = false;  // opsets 1-6: the mode came from is_test
  bool then_relu = false;       // never from a model: the fuse-conv pass absorbed the Relu reading Y
};

// y = scale * (x - mean) / sqrt(var + eps) + B. The reference rounds once from double; another engine (or
// the Conv+BN folding pass) computes a = scale / sqrt(var + eps) and x * a + (B - mean * a) in float32:
// about 4 roundings of u = 2^-24, each relative to the largest term |x a|, |mean a|, |B|, so the error is
// absolute even where y cancels to ~0: 4 u * 16 ~ 4e-6 for activations of unit scale (terms up to ~16).
// Training mode adds the batch statistics: a float32 sum over the n = N * D1 * ... * Dn values of a channel
// (numpy's reference sums sequentially along strided axes) errs by up to ~n u mean|x| in the mean, times
// |a| in y: ~6e-6 for the n ~ 40..100 of the node tests. Both scale with the data, hence the equal rel term.
constexpr Tolerance kBatchNormTolerance{1e-5, 1e-5};

BatchNormParams parse_batch_norm(const Node& node);
std::vector<ValueInfo> infer_batch_norm(const BatchNormParams& p, const std::vector<ValueInfo>& in);
// The warning for is_test = 0 before opset 7 (OpHints::caution), "" otherwise.
std::string batch_norm_caution(const BatchNormParams& p, const std::vector<ValueInfo>& in);
// Per channel in double (batch statistics in two passes when training), one rounding per output; applies
// then_relu (ops/norm/batch_norm_ref.cc).
void batch_norm_ref(const BatchNormParams& p, const KernelIO& io);
// oneDNN batch_normalization_forward for test mode; declines training mode (ops/norm/batch_norm_dnnl.cc).
Kernel<BatchNormParams> batch_norm_dnnl_kernel();
// Test mode over a channels-last input stored in float32 or bfloat16, constant statistics
// (ops/norm/batch_norm_native.cc).
Kernel<BatchNormParams> batch_norm_native_kernel();

}  // namespace cnnx
