// Which kernels a plan may choose (Options::backend). Part of the public API (api/cnnx.h); the graph
// passes read it too, which is why it lives in the core.
#pragma once

namespace cnnx {

enum class Backend {
  dnnl,  // oneDNN primitives, the reference kernel wherever they decline
  ref,   // reference kernels only: plain loops, exact ONNX semantics
};

}  // namespace cnnx
