// ONNX import: the only part of cnnx that sees protobuf. Turns untrusted bytes into a built Graph (see
// build_graph) with every size checked: the message size and nesting depth are limited before parsing,
// ranks are at most 64, every dim must be >= 0, every product is overflow-checked, declared sizes must match
// the bytes present before anything is allocated, attributes must carry a valid type and its value, and
// external data must lie inside the model's folder (no absolute paths, no "..", no symlinks leading out).
// Every error is a cnnx::Error naming the tensor, node or file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/graph.h"
#include "engine/tensor.h"

namespace cnnx {

struct ImportLimits {
  int64_t max_model_bytes = (int64_t(1) << 31) - 1;  // protobuf's own ceiling is 2 GiB
  int64_t max_tensor_bytes = kDefaultMaxTensorBytes;       // any one initializer or constant
};

// Reads a model file. External data is looked up relative to the file's folder.
Graph import_onnx_file(const std::string& path, const ImportLimits& limits = {});
// Reads a model from memory. External data is looked up in `external_data_dir`; empty refuses it.
Graph import_onnx_bytes(const void* data, size_t size, const std::string& external_data_dir = "",
                        const ImportLimits& limits = {});
// What a model file uses, read without building the graph (so it works for models cnnx cannot run):
// the ops as (domain, type) and the element types of the graph inputs and outputs (ONNX enum values).
struct ModelOutline {
  std::vector<std::pair<std::string, std::string>> ops;
  std::vector<int32_t> io_element_types;
};
ModelOutline outline_onnx_file(const std::string& path, const ImportLimits& limits = {});

// Reads one serialized ONNX TensorProto (the input_N.pb / output_N.pb files of ONNX test data).
Tensor import_tensor_file(const std::string& path, std::string* name = nullptr,
                          const ImportLimits& limits = {});

}  // namespace cnnx
