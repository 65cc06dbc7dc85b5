#include "engine/compare.h"

#include <cmath>
#include <sstream>

namespace cnnx {

Difference compare(const Tensor& got, const Tensor& want, Tolerance tol, const Tensor* magnitude) {
  Difference d;
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    d.within = false;
    d.detail = "got " + dtype_name(got.dtype()) + to_string(got.shape()) + ", want " + dtype_name(want.dtype()) +
               to_string(want.shape());
    return d;
  }
  require(!magnitude || magnitude->numel() == want.numel(), "internal error: ", magnitude ? magnitude->numel() : 0,
          " magnitudes for ", want.numel(), " elements");
  auto allowed = [&](int64_t i) {
    return tol.abs + tol.rel * std::abs(want.double_at(i)) + (magnitude ? tol.terms_rel * magnitude->double_at(i) : 0);
  };
  double worst_excess = 0;
  for (int64_t i = 0; i < want.numel(); ++i) {
    const double g = got.double_at(i), w = want.double_at(i);
    double excess;
    if (std::isnan(w) || std::isnan(g)) {
      excess = std::isnan(w) == std::isnan(g) ? 0 : INFINITY;
    } else if (std::isinf(w) || std::isinf(g)) {
      excess = g == w ? 0 : INFINITY;
    } else {
      const double diff = std::abs(g - w), bound = allowed(i);
      d.max_abs = std::max(d.max_abs, diff);
      if (w != 0) d.max_rel = std::max(d.max_rel, diff / std::abs(w));
      if (diff > 0) d.max_ratio = std::max(d.max_ratio, bound > 0 ? diff / bound : INFINITY);
      excess = diff - bound;
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
       << " (tolerance abs " << tol.abs << " + rel " << tol.rel;
    if (magnitude) os << " + terms_rel " << tol.terms_rel << " * magnitude " << magnitude->double_at(d.worst);
    os << " = " << allowed(d.worst) << ")";
    d.detail = os.str();
  }
  return d;
}

std::vector<Tensor> term_magnitudes(const OpDef& def, const ParamsPtr& params, const std::vector<ValueInfo>& in,
                                    const std::vector<ValueInfo>& out, const std::vector<const Tensor*>& inputs) {
  if (def.tolerance.terms_rel == 0) return {};
  auto [terms_params, scale] = def.hints.terms ? def.hints.terms(*params) : TermsRun<OpParams>{params, 1};
  // |inputs|, presented without their data: a reference kernel may read constant inputs when it compiles.
  std::vector<Tensor> abs_in(inputs.size());
  std::vector<ValueInfo> abs_info = in;
  KernelIO io;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] && (inputs[i]->dtype() == DType::f32 || inputs[i]->dtype() == DType::f64)) {
      abs_in[i] = inputs[i]->clone();
      for (int64_t k = 0, n = abs_in[i].numel(); k < n; ++k)
        if (abs_in[i].dtype() == DType::f32) abs_in[i].data<float>()[k] = std::abs(abs_in[i].data<float>()[k]);
        else abs_in[i].data<double>()[k] = std::abs(abs_in[i].data<double>()[k]);
      abs_info[i] = ValueInfo::of(abs_in[i].dtype(), abs_in[i].shape());
      io.in.push_back(&abs_in[i]);
    } else {
      io.in.push_back(inputs[i]);
    }
  }
  std::vector<Tensor> magnitudes;
  magnitudes.reserve(out.size());
  // Zero-filled, as "ref" expects; an omitted output (undefined type: LSTM's Y when only Y_h is wanted) stays
  // undefined and reaches the kernel as nullptr.
  for (const ValueInfo& o : out) magnitudes.push_back(o.dtype == DType::undefined ? Tensor() : Tensor(o.dtype, o.shape));
  for (Tensor& m : magnitudes) io.out.push_back(m.defined() ? &m : nullptr);
  compile_reference(def, terms_params, abs_info, out)->run(io);
  // The node's sum length K: its multiply-adds per output element (2 flops each) of its first output present.
  // The rounding error of a sum of K products grows as sqrt(K + 2) (ops/common/sum_of_products.h; + 2: a bias
  // and a residual).
  int64_t outputs = 0;
  for (const ValueInfo& o : out)
    if (o.dtype != DType::undefined) {
      outputs = checked_numel(o.shape);
      break;
    }
  const double sum_length = outputs > 0 ? std::ceil(def.hints.flops(*params, in) / (2.0 * double(outputs))) : 0;
  scale *= std::sqrt(sum_length + 2);
  for (Tensor& m : magnitudes)
    for (int64_t k = 0, n = m.numel(); k < n; ++k)
      if (m.dtype() == DType::f32) m.data<float>()[k] = float(scale * m.data<float>()[k]);
      else if (m.dtype() == DType::f64) m.data<double>()[k] = scale * m.data<double>()[k];
  return magnitudes;
}

}  // namespace cnnx
