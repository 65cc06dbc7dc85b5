#include "engine/dnnl_runtime.h"

#include "engine/error.h"

namespace cnnx {

dnnl::engine& dnnl_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::stream& dnnl_stream() {
  thread_local dnnl::stream stream(dnnl_engine());
  return stream;
}

dnnl::memory::desc plain_f32_desc(const std::vector<int64_t>& shape) {
  dnnl::memory::dims dims(shape.begin(), shape.end());
  require(dims.size() <= DNNL_MAX_NDIMS, "rank ", dims.size(), " is beyond oneDNN's ", DNNL_MAX_NDIMS);
  // oneDNN cannot describe rank-0 tensors; a scalar is a 1-element vector to it.
  if (dims.empty()) dims.push_back(1);
  dnnl::memory::dims strides(dims.size(), 1);
  for (size_t i = dims.size() - 1; i-- > 0;) strides[i] = strides[i + 1] * dims[i + 1];
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, strides);
}

}  // namespace cnnx
