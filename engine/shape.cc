#include "engine/shape.h"

#include <sstream>

#include "engine/error.h"

namespace cnnx {

int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  require(a >= 0 && b >= 0, what, " has a negative factor (", a, " x ", b, ")");
  if (a != 0 && b > kMaxSize / a) fail(what, " overflows (", a, " x ", b, ")");
  return a * b;
}

int64_t checked_add(int64_t a, int64_t b, const char* what) {
  require(a >= 0 && b >= 0, what, " has a negative term (", a, " + ", b, ")");
  require(a <= kMaxSize - b, what, " overflows (", a, " + ", b, ")");
  return a + b;
}

int64_t checked_numel(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) fail("shape ", to_string(shape), " has a negative or unknown dim");
    n = checked_mul(n, d, "element count");
  }
  return n;
}

int64_t numel_range(const Shape& shape, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end && i < shape.size(); ++i) n = checked_mul(n, shape[i], "element count");
  return n;
}

bool is_concrete(const Shape& shape) {
  for (int64_t d : shape)
    if (d < 0) return false;
  return true;
}

std::string to_string(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ",";
    s += shape[i] < 0 ? "?" : std::to_string(shape[i]);
  }
  return s + "]";
}

int64_t normalize_axis(int64_t axis, int64_t rank, const char* what) {
  require(axis >= -rank && axis < rank, what, " ", axis, " is out of range for rank ", rank);
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> strides_of(const Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

std::string list_string(const std::vector<int64_t>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? "," : "") + std::to_string(values[i]);
  return s + "]";
}

std::string list_string(const std::vector<double>& values) {
  std::ostringstream os;
  os.precision(9);
  os << "[";
  for (size_t i = 0; i < values.size(); ++i) os << (i ? "," : "") << values[i];
  os << "]";
  return os.str();
}

}  // namespace cnnx
