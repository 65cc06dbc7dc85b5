// Shape inference and constant folding for one node, shared by load-time graph building and planning.
#pragma once

#include <vector>

#include "engine/limits.h"
#include "engine/node.h"
#include "engine/value_info.h"

namespace cnnx {

// Output infos of `node` given its inputs' infos (omitted optional inputs: dtype undefined). When every
// input present is constant and the outputs' shapes are concrete, the node is run now with its reference
// kernel and the outputs carry their data; an output larger than `max_tensor_bytes` is then an error rather
// than an allocation. Errors name the node.
std::vector<ValueInfo> infer_node(const Node& node, const std::vector<ValueInfo>& in,
                                  int64_t max_tensor_bytes = kDefaultMaxTensorBytes);

// Prefixes a cnnx::Error thrown by f with the node's label.
template <class F>
decltype(auto) with_node_context(const Node& node, F&& f);

}  // namespace cnnx

#include "engine/error.h"

namespace cnnx {
template <class F>
decltype(auto) with_node_context(const Node& node, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    throw Error(node.label() + ": " + e.what());
  } catch (const std::bad_alloc&) {
    throw Error(node.label() + ": out of memory");
  } catch (const std::exception& e) {
    // Library errors (dnnl::error, std::length_error, ...) become cnnx errors naming the node.
    throw Error(node.label() + ": " + e.what());
  }
}
}  // namespace cnnx
