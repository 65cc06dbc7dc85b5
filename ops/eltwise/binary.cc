// Add, Sub, Mul, Div and Sum with multidirectional broadcasting (opset 7+).
#include "ops/eltwise/binary.h"

#include <cmath>
#include <type_traits>

#include "engine/op.h"
#include "ops/common/broadcast.h"

namespace cnnx {

namespace {

// Sum of k inputs: the order of k - 1 additions may differ.
constexpr Tolerance kSumOrder{1e-7, 1e-6};

std::vector<ValueInfo> infer_broadcast(const std::vector<ValueInfo>& in) {
  std::vector<Shape> shapes;
  for (size_t i = 0; i < in.size(); ++i) {
    require_dtype(in, i, {DType::f32, DType::f64, DType::i64, DType::i32, DType::i8, DType::u8});
    require(in[i].dtype == in[0].dtype, "input ", i, " has element type ", dtype_name(in[i].dtype),
            " but input 0 has ", dtype_name(in[0].dtype));
    shapes.push_back(in[i].shape);
  }
  return {ValueInfo::of(in[0].dtype, broadcast_shapes(shapes))};
}

template <class T>
T apply(BinaryKind kind, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // Integers wrap on overflow like numpy (computed unsigned, where wrapping is defined).
    using U = std::make_unsigned_t<T>;
    switch (kind) {
      case BinaryKind::add: return T(U(a) + U(b));
      case BinaryKind::sub: return T(U(a) - U(b));
      case BinaryKind::mul: return T(U(a) * U(b));
      case BinaryKind::div: break;
    }
  }
  switch (kind) {
    case BinaryKind::add: return a + b;
    case BinaryKind::sub: return a - b;
    case BinaryKind::mul: return a * b;
    case BinaryKind::div:
      if constexpr (std::is_integral_v<T>) {
        require(b != 0, "integer division by zero");
        // ONNX integer Div truncates toward zero (C semantics); the one overflowing case wraps like numpy.
        if (b == -1) return T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(a));
      }
      return a / b;
  }
  return a;
}

void binary_ref(const BinaryParams& p, const KernelIO& io) {
  const Tensor& a = *io.in[0];
  const Tensor& b = *io.in[1];
  Tensor& y = *io.out[0];
  std::vector<std::vector<int64_t>> strides{broadcast_strides(a.shape(), y.shape()),
                                            broadcast_strides(b.shape(), y.shape())};
  visit_dtype(y.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      fail("element type ", dtype_name(y.dtype()), " is not supported");
    } else {
      const T* pa = a.data<T>();
      const T* pb = b.data<T>();
      T* py = y.data<T>();
      for_each_broadcast<2>(y.shape(), strides, [&](int64_t o, const int64_t* off) {
        py[o] = apply<T>(p.kind, pa[off[0]], pb[off[1]]);
      });
    }
  });
}

void sum_ref(const NoParams&, const KernelIO& io) {
  Tensor& y = *io.out[0];
  visit_dtype(y.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      fail("element type ", dtype_name(y.dtype()), " is not supported");
    } else {
      T* py = y.data<T>();
      for (size_t k = 0; k < io.in.size(); ++k) {
        const T* px = io.in[k]->data<T>();
        std::vector<std::vector<int64_t>> strides{broadcast_strides(io.in[k]->shape(), y.shape())};
        for_each_broadcast<1>(y.shape(), strides, [&](int64_t o, const int64_t* off) {
          py[o] = k == 0 ? px[off[0]] : apply<T>(BinaryKind::add, py[o], px[off[0]]);
        });
      }
    }
  });
}

// Add, Sub, Mul, Div: the kind is the op's only parameter.
std::function<BinaryParams(const Node&)> binary_parser(BinaryKind kind) {
  return [kind](const Node& node) {
    require_inputs(node, 2, 2);
    require_outputs(node, 1, 1);
    node.attrs.allow_only({});
    BinaryParams p;
    p.kind = kind;
    return p;
  };
}

NoParams parse_sum(const Node& node) {
  require_inputs(node, 1, 1 << 20);
  require_outputs(node, 1, 1);
  node.attrs.allow_only({});
  return {};
}

std::vector<ValueInfo> infer_binary(const OpParams&, const std::vector<ValueInfo>& in) { return infer_broadcast(in); }

}  // namespace

void register_binary_ops(OpRegistry& r) {
  const auto binary_kernels = [] {
    return std::vector<Kernel<BinaryParams>>{binary_dnnl_kernel(), ref_kernel<BinaryParams>(binary_ref)};
  };
  r.add(OpSpec<BinaryParams>{"Add", 7, binary_parser(BinaryKind::add), infer_binary, kExact, binary_kernels()});
  r.add(OpSpec<BinaryParams>{"Sub", 7, binary_parser(BinaryKind::sub), infer_binary, kExact, binary_kernels()});
  r.add(OpSpec<BinaryParams>{"Mul", 7, binary_parser(BinaryKind::mul), infer_binary, kExact, binary_kernels()});
  r.add(OpSpec<BinaryParams>{"Div", 7, binary_parser(BinaryKind::div), infer_binary, kExact, binary_kernels()});
  r.add(OpSpec<NoParams>{"Sum", 6, parse_sum, infer_binary, kSumOrder, {ref_kernel<NoParams>(sum_ref)}});
}

}  // namespace cnnx
