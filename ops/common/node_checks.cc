#include "ops/common/node_checks.h"

namespace cnnx {

void check_node(const Node& node, size_t min_inputs, size_t max_inputs, std::initializer_list<const char*> attrs) {
  require_inputs(node, min_inputs, max_inputs);
  require_outputs(node, 1, 1);
  node.attrs.allow_only(attrs);
}

}  // namespace cnnx
