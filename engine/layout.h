// How a value's elements sit in its buffer within a plan. Plain is row-major, what cnnx::Tensor means
// everywhere outside a plan. Inside a plan, oneDNN kernels may keep values in the blocked layouts their
// primitives prefer (nChw16c, ...) so that chains of them run without reordering between nodes; the plan
// reorders only where a kernel needs another layout, and at the graph's edges.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <vector>

namespace cnnx {

// A oneDNN memory descriptor; the zero (default-constructed) descriptor means plain.
using Layout = dnnl::memory::desc;

inline bool is_plain(const Layout& l) { return l.is_zero(); }

// The layouts a compiled kernel reads its inputs in and writes its outputs in.
struct KernelLayouts {
  std::vector<Layout> in, out;
};

// Every one of `inputs` inputs plain, no wish for the outputs: what reference kernels are offered.
inline KernelLayouts plain_layouts(size_t inputs) { return {std::vector<Layout>(inputs), {}}; }

}  // namespace cnnx
