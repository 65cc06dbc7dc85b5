#include "ops/conv/conv.h"
#include "ops/conv/conv_transpose.h"
#include "ops/conv/fused_conv.h"
#include "ops/families.h"

namespace cnnx {

namespace {

FusedConvParams refuse_fused_conv(const Node&) {
  fail("FusedConv is made by cnnx's fuse-conv pass, not read from models");
}

}  // namespace

void register_conv_ops(OpRegistry& r) {
  // Opsets 1 and 11 differ only in documentation and type constraints for float32.
  OpSpec<ConvParams> conv{"Conv", 1, parse_conv, infer_conv, kConvTolerance, {conv_dnnl_kernel(), conv_ref_kernel()}};
  conv.hints.flops = conv_flops;
  r.add(std::move(conv));
  // Opsets 1 and 11 differ only in documentation and type constraints for float32.
  OpSpec<ConvTransposeParams> transpose{"ConvTranspose", 1, parse_conv_transpose, infer_conv_transpose,
                                        kConvTransposeTolerance, {conv_transpose_dnnl_kernel(), conv_transpose_ref_kernel()}};
  transpose.hints.flops = conv_transpose_flops;
  r.add(std::move(transpose));
  // The convolution's tolerance: the add and the activation are one or two more roundings on top. The
  // convolution's accumulation error (and the residual add's rounding) reaches the output through the
  // activation, scaled by at most its slope: the magnitudes are those of Conv + Add, times that slope.
  OpSpec<FusedConvParams> fused{"FusedConv", 1, refuse_fused_conv, infer_fused_conv, kConvTolerance,
                                {fused_conv_dnnl_kernel(), fused_conv_ref_kernel()}};
  fused.domain = kInternalDomain;
  fused.hints.terms = terms_before_activation<FusedConvParams>;
  fused.hints.flops = [](const FusedConvParams& p, const std::vector<ValueInfo>& in) { return conv_flops(p.conv, {in[0], in[1]}); };
  r.add(std::move(fused));
}

}  // namespace cnnx
