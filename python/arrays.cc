#include "python/arrays.h"

namespace cnnx::python {

py::dtype numpy_dtype(DType dtype) {
  if (dtype == DType::f16) return py::dtype("float16");
  if (dtype == DType::bf16)
    fail("bfloat16 has no numpy type: the Python module does not take or return bfloat16 arrays (Cast the "
         "model's bfloat16 inputs and outputs to float32)");
  return visit_dtype(dtype, [](auto t) { return py::dtype::of<decltype(t)>(); });
}

std::string onnx_type_name(DType dtype) {
  switch (dtype) {
    case DType::f32: return "tensor(float)";
    case DType::f64: return "tensor(double)";
    case DType::f16: return "tensor(float16)";
    case DType::bf16: return "tensor(bfloat16)";
    case DType::u8: return "tensor(uint8)";
    case DType::i8: return "tensor(int8)";
    case DType::i32: return "tensor(int32)";
    case DType::i64: return "tensor(int64)";
    case DType::boolean: return "tensor(bool)";
    case DType::undefined: break;
  }
  return "tensor(undefined)";
}

namespace {
// numpy, imported under the GIL on first use and never released (a static py::object would be released after
// the interpreter is gone, at exit).
py::handle numpy() {
  static py::handle np = py::module_::import("numpy").release();
  return np;
}

py::array as_array(const TensorSpec& spec, py::handle value) {
  if (py::isinstance<py::array>(value)) return py::reinterpret_borrow<py::array>(value);
  try {
    return numpy().attr("asarray")(value);
  } catch (py::error_already_set& e) {
    fail("input '", spec.name, "' is not an array: ", e.what());
  }
}
}  // namespace

Tensor input_tensor(const TensorSpec& spec, py::handle value, std::vector<py::object>& keep_alive) {
  const py::dtype want = numpy_dtype(spec.dtype);
  py::array array = as_array(spec, value);
  constexpr int kReadable = py::array::c_style | 0x0100;  // C-contiguous and NPY_ARRAY_ALIGNED
  if (!array.dtype().equal(want) || (array.flags() & kReadable) != kReadable) {
    if (!numpy().attr("can_cast")(array.dtype(), want, "same_kind").cast<bool>())
      fail("input '", spec.name, "' must be ", dtype_name(spec.dtype), ", got ", py::str(array.dtype()).cast<std::string>());
    array = array.attr("astype")(want, "C");  // a new C-contiguous, aligned, native array
  }
  Shape shape(array.shape(), array.shape() + array.ndim());
  keep_alive.push_back(array);
  // Inputs are only read (a plan never works in place on a graph input), so read-only arrays are fine.
  return Tensor::borrow(spec.dtype, std::move(shape), const_cast<void*>(array.data()));
}

py::array output_array(Tensor tensor) {
  auto* owner = new Tensor(std::move(tensor));
  py::capsule keep(owner, [](void* p) { delete static_cast<Tensor*>(p); });
  return py::array(numpy_dtype(owner->dtype()), owner->shape(), owner->raw(), keep);
}

}  // namespace cnnx::python
