// Which kernels a plan may choose (Options::backend), and its names on the command line and in the Python
// and C APIs. Part of the public API (api/cnnx.h); runtime/plan.cc reads it to pick kernels.
#pragma once

#include <string>

namespace cnnx {

enum class Backend {
  dnnl,  // oneDNN primitives, the reference kernel wherever they decline
  ref,   // reference kernels only: plain loops, exact ONNX semantics
};

const char* backend_name(Backend b);             // "dnnl" or "ref"
Backend parse_backend(const std::string& name);  // throws cnnx::Error on anything but "dnnl" / "ref"

}  // namespace cnnx
