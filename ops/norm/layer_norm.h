// LayerNormalization (opset 17), float32. With r = rank(X) and axis in [-r, r] (normalized: a), X is viewed as
// rows = d0 * ... * d(a-1) by cols = da * ... * d(r-1); each row is normalized over its cols values:
//
//   Mean = mean of the row, Var = population variance (divide by cols), InvStdDev = 1 / sqrt(Var + epsilon)
//   Y = (X - Mean) * InvStdDev * Scale + B
//
// Scale and the optional B broadcast unidirectionally to X (numpy rules, as the spec's function body does with
// Mul and Add; usually they have shape X.shape[a:]). The optional outputs Mean and InvStdDev have shape
// [d0, ..., d(a-1), 1, ..., 1]. axis = r normalizes each value alone (cols = 1: Y = B, Mean = X), as ONNX's
// reference implementation does. stash_type must be 1 (float32 statistics): cnnx holds no bfloat16.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct LayerNormParams : OpParams {
  int64_t axis = -1;  // as given; normalized against the rank in infer and the kernels
  float epsilon = 1e-5f;
};

// y = (x - mean) * inv * scale + B. The reference sums in double and rounds once. Another engine computes in
// float32: the mean of n = cols values errs by up to ~g u max|x| (u = 2^-24; g the length of its longest
// sequential partial sum: n for a plain loop, ~n/8..n/16 for vectorized ones), the variance likewise
// relative to itself; in y that is g u max|x| / sigma times |scale|, plus 3-4 roundings of the terms
// |z scale| and |B| (z = (x - mean) / sigma, |z| <= a few for ordinary data). For rows of up to ~1000
// values whose |x| stays within a few sigma of the mean (the node tests have n <= 120, models 64..4096 in
// vectorized loops): ~50 * 6e-8 * 3 plus 4 * 6e-8 * 4 ~ 1e-5 absolute, scaling with |scale| and |B|, hence
// an equal relative term. Rows whose mean is far larger than their spread (|mean| >> sigma) lose more in
// every float32 engine.
constexpr Tolerance kLayerNormTolerance{2e-5, 2e-5};

LayerNormParams parse_layer_norm(const Node& node);
std::vector<ValueInfo> infer_layer_norm(const LayerNormParams& p, const std::vector<ValueInfo>& in);
// Rows in double, two passes (mean, then the squared deviations), one rounding per output
// (ops/norm/layer_norm_ref.cc).
void layer_norm_ref(const LayerNormParams& p, const KernelIO& io);
// oneDNN layer_normalization_forward over the [rows, cols] view with Scale (and B) as its per-column scale
// and shift; declines a Scale or B that is not one value per normalized element (ops/norm/layer_norm_dnnl.cc).
Kernel<LayerNormParams> layer_norm_dnnl_kernel();

// The first normalized axis of a rank-r X (axis in [-r, r]); throws naming the attribute otherwise.
size_t layer_norm_axis(int64_t axis, size_t rank);
// True when `s` (Scale or B) holds exactly one value per element of X.shape[a:] in row-major order: after
// padding with leading 1s to rank(x), its dims before a are 1 and from a on equal x's.
bool is_per_normalized_element(const Shape& s, const Shape& x, size_t a);

}  // namespace cnnx
