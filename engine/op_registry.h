// The op registry: every op cnnx knows, looked up by (domain, type, opset). The built-in one is
// builtin_ops() (ops/builtin_ops.h); the core takes a registry as an argument and never reaches for it.
#pragma once

#include <map>
#include <memory>
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
  // Registers an op (engine/op.h); throws if (domain, type) is already there or its kernel list does not
  // end with the reference kernel "ref" (so a table with a forgotten entry fails at start-up, and the
  // registry's unit test fails with it).
  template <class P>
  void add(OpSpec<P> spec) {
    add_def(std::make_unique<const OpDef>(std::move(spec)));
  }
  // The definition for a node, or throws cnnx::Error saying why (unknown op, unknown domain, opset too old).
  const OpDef& find(const std::string& domain, const std::string& type, int opset) const;
  bool has(const std::string& domain, const std::string& type) const;
  std::vector<std::string> names() const;  // "Conv", "org.pytorch.aten:adaptive_avg_pool2d", ...
  // Throws cnnx::Error unless each of `names` names a kernel of some op (OpDef::names_kernel) other than a
  // reference kernel: those run what no other kernel takes, so they cannot be turned off.
  void check_disabled_kernels(const std::vector<std::string>& names) const;

 private:
  void add_def(std::unique_ptr<const OpDef> def);
  std::map<std::pair<std::string, std::string>, std::unique_ptr<const OpDef>> defs_;
};

}  // namespace cnnx
