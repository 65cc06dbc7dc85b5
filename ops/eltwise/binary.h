// Binary elementwise ops with multidirectional (numpy) broadcasting from opset 7 on: Add, Sub, Mul, Div, Pow,
// Mod, the comparisons Equal, Less, LessOrEqual, Greater, GreaterOrEqual and the logical And, Or, Xor (bool
// outputs); the variadic Sum, Max, Min, Mean; and Where (3 inputs).
//
// Before opset 7 the binary ops broadcast only when the attribute broadcast=1, and then only B onto A: B's
// shape is a contiguous run of A's dims starting at `axis` (suffix matching when axis is absent), or B has one
// element. Without broadcast=1 the shapes must be equal. Add, Sub, Mul and Div before opset 6 also take the
// legacy `consumed_inputs` (an in-place hint of old runtimes, with no effect on the result). The variadic ops
// before opset 8 need inputs of one shape; before opset 6 they take `consumed_inputs` too.
#pragma once

#include <cstdint>
#include <limits>

#include "engine/op_registry.h"

namespace cnnx {

enum class BinaryKind {
  add, sub, mul, div, pow, mod, max, min, mean,  // mean: only the variadic Mean
  equal, less, less_equal, greater, greater_equal,
  logical_and, logical_or, logical_xor,
};

// True for the comparisons and the logical ops: their output is bool.
bool binary_gives_bool(BinaryKind kind);

struct BinaryParams : OpParams {
  BinaryKind kind = BinaryKind::add;
  bool fmod = false;     // Mod: C fmod (sign of the dividend) instead of the sign of the divisor
  bool legacy = false;   // opset < 7: the broadcast/axis rule below instead of multidirectional broadcasting
  bool broadcast = false;                                    // legacy: B may be broadcast onto A
  int64_t axis = std::numeric_limits<int64_t>::min();        // legacy: where B's dims start in A; min(): suffix
};

// B's shape as it broadcasts numpy-style onto A: B itself from opset 7 on; for the legacy form B placed at
// `axis` among rank(A) dims with 1s around it (B's shape itself when broadcast=0, after checking the shapes
// are equal). Throws for shapes the legacy rule refuses. Unknown dims (load time) pass unchecked. The shape
// inference, the reference kernel and the oneDNN kernel all read B through it.
Shape binary_b_shape(const BinaryParams& p, const Shape& a, const Shape& b);

// Sum, Max, Min, Mean: any number of inputs, broadcast together (opset 8+) or of one shape (before).
struct VariadicParams : OpParams {
  BinaryKind kind = BinaryKind::add;  // add, max, min or mean
  bool same_shapes = false;           // opset < 8
};

void register_binary_ops(OpRegistry& r);

// oneDNN binary (ops/eltwise/binary_dnnl.cc), float32 inputs only: Add, Sub, Mul, Div (binary_add/sub/mul/div)
// and the comparisons Equal, Less, LessOrEqual, Greater, GreaterOrEqual (binary_eq/lt/le/gt/ge into a u8 dst:
// oneDNN writes 1 or 0, exactly the bytes of ONNX's bool). oneDNN's gt/ge are true for a NaN operand (ONNX:
// false), so Greater and GreaterOrEqual run as lt/le with the operands swapped, and decline when B would need
// broadcasting. oneDNN broadcasts src1 alone: when input A would need broadcasting, Add, Mul and Equal swap
// their operands, and Sub, Div, Less and LessOrEqual decline.
Kernel<BinaryParams> binary_dnnl_kernel();
// Add, Sub, Mul and Div of a float32 tensor arriving channel-blocked (nChw8c, nChw16c, ...) and one value per
// channel (and batch), or one value, as squeeze-and-excitation blocks multiply (ops/eltwise/binary_channel.cc):
// a native loop over the blocked bytes, where oneDNN 2.6 has only its reference implementation. It declines
// plain and channels-last inputs (oneDNN broadcasts over those in JIT code) and every other broadcast.
Kernel<BinaryParams> binary_channel_kernel();
// Pow of a float32 X with one constant exponent (ops/eltwise/pow_dnnl.cc): oneDNN's eltwise pow; oneDNN 2.6
// has no binary pow, so other exponents run the reference.
Kernel<BinaryParams> pow_dnnl_kernel();
// Sum, Max and Min of exactly two float32 inputs (binary_add/max/min, operands swapped as above). oneDNN's
// max and min (maxps/minps) give src1 when src0 is NaN, where ONNX (numpy) gives NaN: a documented
// difference a kernel cannot decline by data (pinned in tests/unit/dnnl_kernels_test.cc). Mean runs its reference only: oneDNN has no mean,
// and (a + b) * 0.5 in float32 overflows where the mean itself does not.
Kernel<VariadicParams> variadic_dnnl_kernel();
// The op's name for a kind ("Add", ...), for messages.
const char* binary_kind_name(BinaryKind k);
// The reference kernels (binary_ref.cc): any numeric type, double pow, Python's or C's Mod.
void binary_ref(const BinaryParams& p, const KernelIO& io);
void variadic_ref(const VariadicParams& p, const KernelIO& io);
void where_ref(const NoParams& p, const KernelIO& io);

}  // namespace cnnx
