#include "engine/compare.h"

#include <cmath>
#include <sstream>

namespace cnnx {

Difference compare(const Tensor& got, const Tensor& want, Tolerance tol) {
  Difference d;
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    d.within = false;
    d.detail = "got " + dtype_name(got.dtype()) + to_string(got.shape()) + ", want " + dtype_name(want.dtype()) +
               to_string(want.shape());
    return d;
  }
  double worst_excess = 0;
  for (int64_t i = 0; i < want.numel(); ++i) {
    const double g = got.double_at(i), w = want.double_at(i);
    double excess;
    if (std::isnan(w) || std::isnan(g)) {
      excess = std::isnan(w) == std::isnan(g) ? 0 : INFINITY;
    } else if (std::isinf(w) || std::isinf(g)) {
      excess = g == w ? 0 : INFINITY;
    } else {
      const double diff = std::abs(g - w);
      d.max_abs = std::max(d.max_abs, diff);
      if (w != 0) d.max_rel = std::max(d.max_rel, diff / std::abs(w));
      excess = diff - (tol.abs + tol.rel * std::abs(w));
    }
    if (excess > 0 && (d.worst < 0 || excess > worst_excess)) {
      worst_excess = excess;
      d.worst = i;
    }
  }
  if (d.worst >= 0) {
    d.within = false;
    std::ostringstream os;
    os.precision(9);
    os << "element " << d.worst << ": got " << got.double_at(d.worst) << ", want " << want.double_at(d.worst)
       << " (tolerance abs " << tol.abs << " + rel " << tol.rel << ")";
    d.detail = os.str();
  }
  return d;
}

}  // namespace cnnx
