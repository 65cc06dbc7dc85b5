// numpy arrays in and out of cnnx tensors, for the Python module.
//
// In: an array that is C-contiguous, aligned, in native byte order and of the input's element type is
// borrowed (no copy); anything else numpy can cast to that type under its "same_kind" rule (float64 ->
// float32, int32 -> int64, lists, non-contiguous views) is converted once into a new array. Other types are
// a cnnx::Error naming the input. Out: an array over the tensor's own buffer, which a capsule keeps alive.
// float16 is numpy's float16 both ways; bfloat16, which numpy lacks, is refused with a cnnx::Error.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "api/cnnx.h"

namespace cnnx::python {

namespace py = pybind11;

// numpy's dtype for a cnnx element type.
py::dtype numpy_dtype(DType dtype);

// ONNX Runtime's name of an element type: "tensor(float)", "tensor(int64)", ...
std::string onnx_type_name(DType dtype);

// `value` as a tensor for the input `spec`. The tensor may borrow the memory of the array it was read
// from, which is appended to `keep_alive`: keep that list until the tensor is no longer used.
Tensor input_tensor(const TensorSpec& spec, py::handle value, std::vector<py::object>& keep_alive);

// A numpy array that shares the tensor's buffer and keeps it alive.
py::array output_array(Tensor tensor);

}  // namespace cnnx::python
