// ConvInteger (opset 10): Y int32 = (X - x_zero_point) conv (W - w_zero_point), X and W int8/uint8, with Conv's
// attributes and geometry (ops/conv/conv.h). x_zero_point (X's type) is one value, w_zero_point (W's type) one
// value or one per output channel [M]; omitted: 0. Padding is the real value 0 (ops/quant/integer_conv.h).
// Sums are exact in int64 and stored as int32 (wrapping past int32's range, as int32 accumulation does; a sum
// needs K > 33000 terms of full range to get there). Exact (kExact).
#pragma once

#include "ops/conv/conv.h"

namespace cnnx {

struct ConvIntegerParams : OpParams {
  ConvParams conv;
};

// Checks a quantized convolution's input count and one output, then reads Conv's attributes and validates them
// as Conv does (parse_conv_window).
ConvParams parse_quantized_conv_window(const Node& node, size_t min_inputs, size_t max_inputs);

ConvIntegerParams parse_conv_integer(const Node& node);
std::vector<ValueInfo> infer_conv_integer(const ConvIntegerParams& p, const std::vector<ValueInfo>& in);
void conv_integer_ref(const ConvIntegerParams& p, const KernelIO& io);

}  // namespace cnnx
