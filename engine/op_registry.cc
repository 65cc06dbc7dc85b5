#include "engine/op_registry.h"

#include <set>

namespace cnnx {

void OpRegistry::add_def(std::unique_ptr<const OpDef> owned) {
  const OpDef& def = *owned;
  auto key = std::make_pair(def.domain, def.type);
  require(!defs_.count(key), "op ", def.type, " is registered twice");
  // Its sum length, which its tolerance's terms bound grows with, is its multiply-adds per output (OpHints::flops).
  require(def.tolerance.terms_rel == 0 || def.hints.flops, "op ", def.type, " has a sums-of-products tolerance but no flops");
  require(!def.kernels.empty() && def.kernels.back().name == "ref", "op ", def.type,
          " must end its kernel list with a reference kernel");
  for (size_t i = 0; i < def.kernels.size(); ++i)
    require((def.kernels[i].name != "ref" || i + 1 == def.kernels.size()) && def.kernels[i].has_compile, "op ",
            def.type, " kernel ", i, " is a second reference or has no function (or both a compile and a run)");
  defs_.emplace(key, std::move(owned));
}

bool OpRegistry::has(const std::string& domain, const std::string& type) const {
  return defs_.count({domain, type}) != 0;
}

const OpDef& OpRegistry::find(const std::string& domain, const std::string& type, int opset) const {
  auto it = defs_.find({domain, type});
  if (it == defs_.end()) {
    bool domain_known = false;
    for (const auto& [key, def] : defs_) domain_known = domain_known || key.first == domain;
    if (!domain_known) fail("domain '", domain, "' is not supported");
    fail("op ", type, domain.empty() ? "" : " of domain '" + domain + "'", " is not supported");
  }
  require(opset >= it->second->since, "op ", type, " needs opset ", it->second->since,
          " or newer; the model imports opset ", opset);
  return *it->second;
}

void OpRegistry::check_disabled_kernels(const std::vector<std::string>& names) const {
  for (const std::string& name : names) {
    bool known = false;
    std::set<std::string> kernels;  // for the message
    for (const auto& [key, def] : defs_)
      for (const KernelDef& k : def->kernels) {
        if (k.name != "ref") kernels.insert(k.name);
        if (!def->names_kernel(name, k)) continue;
        require(k.name != "ref", "kernel '", name,
                "' cannot be disabled: reference kernels run what no other kernel takes");
        known = true;
      }
    if (known) continue;
    const size_t colon = name.rfind(':');
    for (const auto& [key, def] : defs_)
      if (colon != std::string::npos && colon > 0 &&
          (name.compare(0, colon, def->type) == 0 || name.compare(0, colon, def->domain + ":" + def->type) == 0)) {
        std::string own;
        for (const KernelDef& k : def->kernels) own += (own.empty() ? "" : ", ") + k.name;
        fail("op ", def->type, " has no kernel '", name.substr(colon + 1), "' (its kernels: ", own, ")");
      }
    std::string list;
    for (const std::string& k : kernels) list += (list.empty() ? "" : ", ") + k;
    fail("unknown kernel '", name, "' (known: ", list, ", each also as OP:KERNEL; `cnnx inspect` shows each node's)");
  }
}

std::vector<std::string> OpRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [key, def] : defs_) out.push_back(key.first.empty() ? key.second : key.first + ":" + key.second);
  return out;
}

}  // namespace cnnx
