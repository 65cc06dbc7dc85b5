#include "engine/tensor.h"

#include "engine/float16.h"

#include <cstring>
#include <new>
#include <type_traits>

namespace cnnx {

namespace {
constexpr size_t kAlign = 64;

std::shared_ptr<void> allocate(size_t bytes, bool zero = true) {
  // Never allocate 0 bytes so raw() is non-null and aligned for empty tensors too.
  size_t n = (bytes + kAlign - 1) / kAlign * kAlign;
  if (n == 0) n = kAlign;
  void* p = ::operator new(n, std::align_val_t(kAlign), std::nothrow);
  require(p != nullptr, "out of memory allocating ", bytes, " bytes");
  if (zero) std::memset(p, 0, n);
  return std::shared_ptr<void>(p, [](void* q) { ::operator delete(q, std::align_val_t(kAlign)); });
}
}  // namespace

Tensor::Tensor(DType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)) {
  require(dtype_size(dtype) > 0, "cannot allocate a tensor of undefined element type");
  numel_ = checked_numel(shape_);
  data_ = allocate(size_t(checked_mul(numel_, int64_t(dtype_size(dtype)), "tensor byte size")));
}

Tensor Tensor::uninitialized(DType dtype, Shape shape) {
  require(dtype_size(dtype) > 0, "cannot allocate a tensor of undefined element type");
  Tensor t;
  t.dtype_ = dtype;
  t.numel_ = checked_numel(shape);
  t.shape_ = std::move(shape);
  t.data_ = allocate(size_t(checked_mul(t.numel_, int64_t(dtype_size(dtype)), "tensor byte size")), false);
  return t;
}

Tensor Tensor::borrow(DType dtype, Shape shape, void* data) {
  Tensor t;
  t.dtype_ = dtype;
  t.numel_ = checked_numel(shape);
  t.shape_ = std::move(shape);
  t.data_ = std::shared_ptr<void>(data, [](void*) {});
  return t;
}

Tensor Tensor::adopt(DType dtype, Shape shape, std::shared_ptr<void> data) {
  Tensor t = borrow(dtype, std::move(shape), data.get());
  t.data_ = std::move(data);
  return t;
}

Tensor Tensor::reshaped(Shape shape) const {
  Tensor t = *this;
  require(checked_numel(shape) == numel_, "cannot view ", to_string(shape_), " as ", to_string(shape));
  t.shape_ = std::move(shape);
  return t;
}

void Tensor::canonicalize_bools() {
  if (dtype_ != DType::boolean) return;
  auto* b = static_cast<uint8_t*>(raw());
  for (int64_t i = 0; i < numel_; ++i) b[i] = b[i] != 0;
}

Tensor Tensor::clone() const {
  Tensor t(dtype_, shape_);
  if (bytes()) std::memcpy(t.raw(), raw(), bytes());
  return t;
}

int64_t Tensor::int_at(int64_t i) const {
  require(i >= 0 && i < numel_, "element ", i, " is outside a tensor of ", numel_);
  if (is_float16_family(dtype_)) fail("expected an integer tensor, got ", dtype_name(dtype_));
  return visit_dtype(dtype_, [&](auto v) -> int64_t {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) fail("expected an integer tensor, got ", dtype_name(dtype_));
    else return int64_t(static_cast<const T*>(raw())[i]);
  });
}

double Tensor::double_at(int64_t i) const {
  require(i >= 0 && i < numel_, "element ", i, " is outside a tensor of ", numel_);
  if (dtype_ == DType::f16) return float16_to_float(static_cast<const uint16_t*>(raw())[i]);
  if (dtype_ == DType::bf16) return bfloat16_to_float(static_cast<const uint16_t*>(raw())[i]);
  return visit_dtype(dtype_, [&](auto v) -> double {
    using T = decltype(v);
    return double(static_cast<const T*>(raw())[i]);
  });
}

}  // namespace cnnx
