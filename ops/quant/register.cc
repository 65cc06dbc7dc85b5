#include "ops/common/node_checks.h"
#include "ops/families.h"
#include "ops/quant/conv_integer.h"
#include "ops/quant/dynamic_quantize_linear.h"
#include "ops/quant/matmul_integer.h"
#include "ops/quant/matmul_integer_to_float.h"
#include "ops/quant/qgemm.h"
#include "ops/quant/qlinear_activation.h"
#include "ops/quant/qlinear_average_pool.h"
#include "ops/quant/qlinear_binary.h"
#include "ops/quant/qlinear_channel_lookup.h"
#include "ops/quant/qlinear_concat.h"
#include "ops/quant/qlinear_global_average_pool.h"
#include "ops/quant/qlinear_lookup.h"
#include "ops/quant/qlinear_conv.h"
#include "ops/quant/qlinear_matmul.h"
#include "ops/quant/qlinear_softmax.h"
#include "ops/quant/quantize_linear.h"

namespace cnnx {

// Reference kernels exact to the ONNX spec; oneDNN int8 kernels for the convolutions (QLinearConv, ConvInteger,
// and FusedQLinearConv, which passes/fold_qdq.cc makes from QDQ models).
void register_quant_ops(OpRegistry& r) {
  r.add(OpSpec<LinearQuantParams>{"QuantizeLinear", 10, parse_quantize_linear, infer_quantize_linear, kExact,
                                  {quantize_linear_native_kernel(), ref_kernel(quantize_linear_ref)}});
  r.add(OpSpec<LinearQuantParams>{"DequantizeLinear", 10, parse_dequantize_linear, infer_dequantize_linear, kExact,
                                  {dequantize_linear_native_kernel(), ref_kernel(dequantize_linear_ref)}});
  r.add(OpSpec<NoParams>{"DynamicQuantizeLinear", 11, parse_dynamic_quantize_linear, infer_dynamic_quantize_linear,
                         kExact, {ref_kernel(dynamic_quantize_linear_ref)}});
  r.add(OpSpec<ConvIntegerParams>{"ConvInteger", 10, parse_conv_integer, infer_conv_integer, kExact,
                                  {conv_integer_dnnl_kernel(), ref_kernel(conv_integer_ref)}});
  r.add(OpSpec<NoParams>{"MatMulInteger", 10, parse_no_attributes<2, 4>, infer_matmul_integer, kExact,
                         {ref_kernel(matmul_integer_ref)}});
  r.add(OpSpec<QLinearConvParams>{"QLinearConv", 10, parse_qlinear_conv, infer_qlinear_conv, kOneQuantStep,
                                  {qlinear_conv_dnnl_kernel(), ref_kernel(qlinear_conv_ref)}});
  // What the fold-qdq pass makes of DQ -> Conv [-> Relu/Clip] -> Q (passes/fold_qdq.cc).
  r.add(OpSpec<QLinearConvParams>{"FusedQLinearConv", 1, parse_fused_qlinear_conv, infer_qlinear_conv, kOneQuantStep,
                                  {qlinear_conv_dnnl_kernel(), ref_kernel(qlinear_conv_ref)},
                                  kInternalDomain});
  // What the fold-qdq pass makes of DQ(A), DQ(B) -> Add [-> Relu/Clip] -> Q.
  r.add(OpSpec<QLinearBinaryParams>{"FusedQLinearAdd", 1, parse_fused_qlinear_add, infer_qlinear_binary,
                                    kOneQuantStep,
                                    {qlinear_add_native_kernel(), ref_kernel(qlinear_binary_ref)},
                                    kInternalDomain});
  // What the fold-qdq pass makes of DQ -> elementwise float ops of one value -> Q (Swish): a table of 256.
  r.add(OpSpec<NoParams>{"QLinearLookup", 1, parse_no_attributes<2, 2>, infer_qlinear_lookup, kExact,
                         {qlinear_lookup_native_kernel(), ref_kernel(qlinear_lookup_ref)}, kInternalDomain});
  // What it makes of DQ, ... -> Concat -> per-channel float ops (BatchNormalization, Relu) -> Q: a table per channel.
  r.add(OpSpec<NoParams>{"QLinearChannelLookup", 1, parse_qlinear_channel_lookup, infer_qlinear_channel_lookup, kExact,
                         {qlinear_channel_lookup_native_kernel(), ref_kernel(qlinear_channel_lookup_ref)},
                         kInternalDomain});
  r.add(OpSpec<NoParams>{"QLinearMatMul", 10, parse_no_attributes<8, 8>, infer_qlinear_matmul, kOneQuantStep,
                         {ref_kernel(qlinear_matmul_ref)}});

  // ONNX Runtime's contrib ops that its quantizer writes for CNNs (QOperator format), domain com.microsoft.
  r.add(OpSpec<QLinearBinaryParams>{"QLinearAdd", 1, parse_qlinear_add, infer_qlinear_binary, kOneQuantStep,
                                    {qlinear_add_native_kernel(), ref_kernel(qlinear_binary_ref)},
                                    kMicrosoftDomain});
  r.add(OpSpec<QLinearBinaryParams>{"QLinearMul", 1, parse_qlinear_mul, infer_qlinear_binary, kOneQuantStep,
                                    {ref_kernel(qlinear_binary_ref)}, kMicrosoftDomain});
  r.add(OpSpec<QLinearActivationParams>{"QLinearSigmoid", 1, parse_qlinear_sigmoid, infer_qlinear_activation,
                                        kOneQuantStep, {ref_kernel(qlinear_activation_ref)},
                                        kMicrosoftDomain});
  r.add(OpSpec<QLinearActivationParams>{"QLinearLeakyRelu", 1, parse_qlinear_leaky_relu, infer_qlinear_activation,
                                        kOneQuantStep, {ref_kernel(qlinear_activation_ref)},
                                        kMicrosoftDomain});
  r.add(OpSpec<QLinearGlobalAveragePoolParams>{
      "QLinearGlobalAveragePool", 1, parse_qlinear_global_average_pool, infer_qlinear_global_average_pool,
      kOneQuantStep, {ref_kernel(qlinear_global_average_pool_ref)}, kMicrosoftDomain});
  r.add(OpSpec<QLinearAveragePoolParams>{"QLinearAveragePool", 1, parse_qlinear_average_pool,
                                         infer_qlinear_average_pool, kOneQuantStep,
                                         {ref_kernel(qlinear_average_pool_ref)},
                                         kMicrosoftDomain});
  r.add(OpSpec<QLinearConcatParams>{"QLinearConcat", 1, parse_qlinear_concat, infer_qlinear_concat, kOneQuantStep,
                                    {qlinear_concat_native_kernel(), ref_kernel(qlinear_concat_ref)},
                                    kMicrosoftDomain});
  r.add(OpSpec<QLinearSoftmaxParams>{"QLinearSoftmax", 1, parse_qlinear_softmax, infer_qlinear_softmax, kOneQuantStep,
                                     {ref_kernel(qlinear_softmax_ref)}, kMicrosoftDomain});
  r.add(OpSpec<QGemmParams>{"QGemm", 1, parse_qgemm, infer_qgemm, kOneQuantStep, {ref_kernel(qgemm_ref)},
                            kMicrosoftDomain});
  r.add(OpSpec<MatMulIntegerToFloatParams>{"MatMulIntegerToFloat", 1, parse_matmul_integer_to_float,
                                           infer_matmul_integer_to_float, kIntegerToFloatTolerance,
                                           {ref_kernel(matmul_integer_to_float_ref)},
                                           kMicrosoftDomain});
  r.add(OpSpec<MatMulIntegerToFloatParams>{"DynamicQuantizeMatMul", 1, parse_dynamic_quantize_matmul,
                                           infer_matmul_integer_to_float, kIntegerToFloatTolerance,
                                           {ref_kernel(matmul_integer_to_float_ref)},
                                           kMicrosoftDomain});
}

}  // namespace cnnx
