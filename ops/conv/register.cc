#include "ops/conv/conv.h"
#include "ops/conv/conv_transpose.h"
#include "ops/conv/fused_conv.h"
#include "ops/families.h"

namespace cnnx {

namespace {

FusedConvParams refuse_fused_conv(const Node&) {
  fail("FusedConv and FusedConvFloat16 are made by cnnx's fuse-conv pass, not read from models");
}

// FusedConv or FusedConvFloat16: one params type, the same kernels (to_float16 says whether they round).
OpSpec<FusedConvParams> fused_conv_spec(const char* type, Tolerance tolerance) {
  OpSpec<FusedConvParams> spec{type, 1, refuse_fused_conv, infer_fused_conv, tolerance,
                               {fused_conv_dnnl_kernel(), fused_conv_ref_kernel()}};
  spec.domain = kInternalDomain;
  spec.hints.terms = [](const FusedConvParams& p) {  // the magnitudes of Conv + Add, unrounded
    TermsRun<FusedConvParams> run = terms_before_activation(p);
    run.params.fusion.to_float16 = false;
    return run;
  };
  spec.hints.flops = [](const FusedConvParams& p, const std::vector<ValueInfo>& in) { return conv_flops(p.conv, {in[0], in[1]}); };
  return spec;
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
  r.add(fused_conv_spec("FusedConv", kConvTolerance));
  // FusedConv, then Y rounded to float16 (ops/conv/fused_conv.h). Two results within FusedConv's tolerance
  // may round to neighbouring float16 values: |r(a) - r(b)| <= |a - b| + one ulp of the larger, and the ulp of
  // [2^e, 2^(e+1)) is 2^(e-10) <= 2^-10 |y|; below 2^-14 (subnormals) it is 2^-24.
  r.add(fused_conv_spec("FusedConvFloat16",
                        {kConvTolerance.abs + 0x1p-24, kConvTolerance.rel + 0x1p-10, kConvTolerance.terms_rel}));
}

}  // namespace cnnx
