// NumPy .npy files (format versions 1-3, little-endian, C order) for inputs and saved outputs.
// float16 is '<f2'. bfloat16 has no numpy type, so no .npy convention: writing one is a cnnx::Error that says
// so (bfloat16 inputs are read from ONNX TensorProto .pb files), and no .npy descr reads as bfloat16.
#pragma once

#include <string>

#include "engine/tensor.h"

namespace cnnx {

// Reads a .npy file; throws cnnx::Error naming the file for anything malformed or unsupported
// (Fortran order, big-endian, object arrays, sizes that do not match the bytes present).
Tensor read_npy(const std::string& path);
void write_npy(const std::string& path, const Tensor& t);

}  // namespace cnnx
