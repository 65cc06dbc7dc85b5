#include "ops/common/broadcast.h"

#include <algorithm>

#include "engine/error.h"

namespace cnnx {

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  Shape out(rank, 1);
  std::vector<bool> unknown(rank, false);
  for (const Shape& s : shapes) {
    for (size_t i = 0; i < s.size(); ++i) {
      size_t d = rank - s.size() + i;
      int64_t v = s[i];
      if (v < 0) {
        unknown[d] = true;
      } else if (v != 1) {
        if (out[d] != 1 && out[d] != v) {
          std::string all;
          for (const Shape& t : shapes) all += (all.empty() ? "" : " and ") + to_string(t);
          fail("shapes ", all, " do not broadcast");
        }
        out[d] = v;
      }
    }
  }
  // An unknown dim is only known when another input fixes it to a value other than 1.
  for (size_t d = 0; d < rank; ++d)
    if (unknown[d] && out[d] == 1) out[d] = kUnknownDim;
  return out;
}

std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out) {
  std::vector<int64_t> strides(out.size(), 0);
  std::vector<int64_t> own = strides_of(in);
  for (size_t i = 0; i < in.size(); ++i) {
    size_t d = out.size() - in.size() + i;
    strides[d] = in[i] == 1 ? 0 : own[i];
  }
  return strides;
}

}  // namespace cnnx
