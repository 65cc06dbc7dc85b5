// The op registry: every OpDef cnnx knows, looked up by (domain, type, opset).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/op.h"

namespace cnnx {

// Newest default-domain opset cnnx implements; models importing a newer one are refused at load.
constexpr int kMaxOpset = 19;
constexpr int kMinOpset = 1;  // ops refuse attributes of old opsets they do not implement

class OpRegistry {
 public:
  // Adds a definition; throws if (domain, type) is already there.
  void add(OpDef def);
  // The definition for a node, or throws cnnx::Error saying why (unknown op, unknown domain, opset too old).
  const OpDef& find(const std::string& domain, const std::string& type, int opset) const;
  bool has(const std::string& domain, const std::string& type) const;
  std::vector<std::string> names() const;  // "Conv", "org.pytorch.aten:adaptive_avg_pool2d", ...

  // The registry with every built-in op (made on first use by calling register_builtin_ops).
  static const OpRegistry& builtin();

 private:
  std::map<std::pair<std::string, std::string>, OpDef> defs_;
};

// Adds every op cnnx ships. Each op family has a register_<family>_ops called from here.
void register_builtin_ops(OpRegistry& registry);

}  // namespace cnnx
