// com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul: the reference kernel (A quantized first where it
// is float, the exact integer product, then one double scaling and one rounding per output).
#include "ops/quant/dynamic_quantize_linear.h"
#include "ops/quant/integer_matmul.h"
#include "ops/quant/matmul_integer_to_float.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void matmul_integer_to_float_ref(const MatMulIntegerToFloatParams& p, const KernelIO& io) {
  const IntegerToFloatInputs at = integer_to_float_inputs(p);
  auto in = [&](int i) { return i >= 0 && size_t(i) < io.in.size() ? io.in[size_t(i)] : nullptr; };
  const Tensor& B = *io.in[size_t(at.b)];
  Tensor A = *io.in[0];
  double a_scale = 0;
  std::vector<int64_t> a_zp;
  if (p.dynamic) {
    Tensor quantized(DType::u8, A.shape());
    const DynamicQuantization q = dynamic_quantize(A.data<float>(), A.numel(), quantized.data<uint8_t>());
    A = quantized;
    a_scale = double(q.scale);
    a_zp = {q.zero_point};
  } else {
    const QuantParams aq = read_quant_params(*in(at.a_scale), in(at.a_zero_point), "a_scale");
    a_scale = aq.scale_at(0);
    a_zp = aq.zero_point;
  }
  const MatMulGeometry g = matmul_geometry_of(A, B);
  const QuantParams bq = read_quant_params(*in(at.b_scale), in(at.b_zero_point), "b_scale");
  require(!bq.per_axis() || int64_t(bq.scale.size()) == g.N, "b_scale has ", bq.scale.size(), " values; B has ", g.N,
          " columns");
  const Tensor* bias = in(at.bias);
  const std::vector<int64_t> acc = integer_matmul(A, B, g, a_zp, bq.zero_point);
  float* y = io.out[0]->data<float>();
  for (int64_t i = 0; i < int64_t(acc.size()); ++i) {
    const int64_t n = i % g.N;
    y[i] = float(double(acc[size_t(i)]) * (a_scale * bq.scale_at(n)) + (bias ? double(bias->data<float>()[n]) : 0.0));
  }
}

}  // namespace cnnx
