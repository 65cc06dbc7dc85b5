// The oneDNN runtime every dnnl kernel shares: one CPU engine for the process and one stream per calling
// thread (streams are not thread-safe; primitives are, so one plan's primitives run from many threads).
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

namespace cnnx {

dnnl::engine& dnnl_engine();
dnnl::stream& dnnl_stream();

// A plain (row-major) f32 memory descriptor for a concrete shape; dims as oneDNN wants them.
dnnl::memory::desc plain_f32_desc(const std::vector<int64_t>& shape);

}  // namespace cnnx
