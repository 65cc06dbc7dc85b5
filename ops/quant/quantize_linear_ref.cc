// QuantizeLinear and DequantizeLinear: the reference kernels (plain loops over the elements; a per-axis scale is
// looked up by the element's index along the axis).
#include "ops/quant/quantize_linear.h"

#include "ops/quant/quantization.h"

namespace cnnx {

void quantize_linear_ref(const LinearQuantParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const QuantParams q = read_quant_params(io, 1, "y_scale");
  const AxisWalk walk = axis_walk(X.shape(), p.axis, int64_t(q.scale.size()));
  Tensor& Y = *io.out[0];
  const QuantRange range = quant_range(Y.dtype());
  if (X.dtype() == DType::i32) {  // int32 x: divided in double, as ONNX's reference (numpy) divides it
    const int32_t* x = X.data<int32_t>();
    for (int64_t i = 0; i < X.numel(); ++i) {
      const int64_t a = walk.index_of(i);
      store_quantized(Y, i, double(x[i]) / double(float(q.scale_at(a))), q.zero_point_at(a), range);
    }
    return;
  }
  const float* x = X.data<float>();
  uint8_t* y = static_cast<uint8_t*>(Y.raw());  // int8 or uint8, written as its byte
  for (int64_t i = 0; i < X.numel(); ++i) {
    const int64_t a = q.per_axis() ? walk.index_of(i) : 0;
    const float r = x[i] / float(q.scale_at(a));  // one float32 division, as ONNX's reference computes it
    y[i] = uint8_t(quantized(double(r), q.zero_point_at(a), range));
  }
}

void dequantize_linear_ref(const LinearQuantParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const QuantParams q = read_quant_params(io, 1, "x_scale");
  const AxisWalk walk = axis_walk(X.shape(), p.axis, int64_t(q.scale.size()));
  float* y = io.out[0]->data<float>();
  const uint8_t* bytes = static_cast<const uint8_t*>(X.raw());
  const DType t = X.dtype();
  for (int64_t i = 0; i < X.numel(); ++i) {
    const int64_t a = q.per_axis() ? walk.index_of(i) : 0;
    const int64_t v = t == DType::u8 ? int64_t(bytes[i]) : t == DType::i8 ? int64_t(int8_t(bytes[i])) : X.int_at(i);
    y[i] = float(v - q.zero_point_at(a)) * float(q.scale_at(a));
  }
}

}  // namespace cnnx
