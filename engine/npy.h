// NumPy .npy files (format versions 1-3, little-endian, C order) for inputs and saved outputs.
#pragma once

#include <string>

#include "engine/tensor.h"

namespace cnnx {

// Reads a .npy file; throws cnnx::Error naming the file for anything malformed or unsupported
// (Fortran order, big-endian, object arrays, sizes that do not match the bytes present).
Tensor read_npy(const std::string& path);
void write_npy(const std::string& path, const Tensor& t);

}  // namespace cnnx
