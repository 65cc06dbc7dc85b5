// cnnx::Tensor: a dense, row-major, typed n-d array. Copies share the buffer (like a shared_ptr);
// `clone()` copies the data. Buffers are 64-byte aligned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "dtype.h"
#include "error.h"
#include "shape.h"

namespace cnnx {

class Tensor {
 public:
  Tensor() = default;
  // Allocates a zero-filled tensor. Throws cnnx::Error when the size overflows or a dim is negative.
  Tensor(DType dtype, Shape shape);
  // Allocates without zero-filling, for code that writes every element before reading any (saves touching
  // the memory twice, e.g. when copying weights in).
  static Tensor uninitialized(DType dtype, Shape shape);
  // Wraps memory the caller owns and keeps alive while this tensor (or a copy) lives.
  static Tensor borrow(DType dtype, Shape shape, void* data);
  // Over `data` (at least the tensor's bytes, uninitialized), sharing its ownership: the importer puts large
  // constants in releasable buffers (engine/releasable_pages.h).
  static Tensor adopt(DType dtype, Shape shape, std::shared_ptr<void> data);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t rank() const { return int64_t(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_[size_t(i)]; }
  int64_t numel() const { return numel_; }
  size_t bytes() const { return size_t(numel_) * dtype_size(dtype_); }
  bool defined() const { return dtype_ != DType::undefined; }

  void* raw() { return data_.get(); }
  const void* raw() const { return data_.get(); }
  // Typed access; throws cnnx::Error when T does not match dtype().
  template <class T> T* data() { check<T>(); return static_cast<T*>(raw()); }
  template <class T> const T* data() const { check<T>(); return static_cast<const T*>(raw()); }

  // Same data viewed with another shape of equal element count.
  Tensor reshaped(Shape shape) const;
  Tensor clone() const;
  // For bytes read from a file into a bool tensor (raw_data, external data, .npy): each byte made 0 or 1, the
  // only values a C++ bool may hold (a byte of 16 read as bool is undefined behaviour); any nonzero byte is true.
  void canonicalize_bools();
  // Element i converted to int64/double (for shape arguments and tests).
  int64_t int_at(int64_t i) const;
  double double_at(int64_t i) const;

 private:
  template <class T> void check() const {
    require(dtype_of<T>() == dtype_, "tensor holds ", dtype_name(dtype_), ", accessed as ",
            dtype_name(dtype_of<T>()));
  }
  DType dtype_ = DType::undefined;
  Shape shape_;
  int64_t numel_ = 0;
  std::shared_ptr<void> data_;
};

}  // namespace cnnx
