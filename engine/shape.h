// Shapes and overflow-checked size arithmetic. Every size cnnx derives from a model goes through these.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cnnx {

// Integer division rounding toward -infinity / +infinity, for any signs (b != 0).
constexpr int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }
constexpr int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

// Dims of a tensor. In graph-level (load-time) shapes a dim may be kUnknownDim; shapes of real tensors never are.
using Shape = std::vector<int64_t>;
constexpr int64_t kUnknownDim = -1;

// Largest element count or byte count cnnx will compute; products beyond it are errors, never wrap-around.
constexpr int64_t kMaxSize = int64_t(1) << 52;

// a * b, or throws cnnx::Error (`what` names the quantity) when a or b is negative or the product exceeds kMaxSize.
int64_t checked_mul(int64_t a, int64_t b, const char* what = "size");
// a + b under the same rule.
int64_t checked_add(int64_t a, int64_t b, const char* what = "size");
// Product of all dims; throws for negative/unknown dims or overflow. The product of no dims is 1.
int64_t checked_numel(const Shape& shape);
// Product of dims [begin, end) (no checks beyond those of checked_numel).
int64_t numel_range(const Shape& shape, size_t begin, size_t end);
// True when every dim is known (>= 0).
bool is_concrete(const Shape& shape);
// "[1,3,224,224]" with "?" for unknown dims.
std::string to_string(const Shape& shape);
// "[1,-2,3]" for messages about attribute values (unlike to_string(Shape), negatives are printed as they are).
std::string list_string(const std::vector<int64_t>& values);
// "[0.5,1,2.25]": floating-point values to 9 significant digits (a float prints exactly).
std::string list_string(const std::vector<double>& values);
// Maps axis in [-rank, rank) to [0, rank); throws naming `what` otherwise.
int64_t normalize_axis(int64_t axis, int64_t rank, const char* what = "axis");
// Row-major strides (in elements) of a concrete shape.
std::vector<int64_t> strides_of(const Shape& shape);

}  // namespace cnnx
