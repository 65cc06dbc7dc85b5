#include "engine/backend.h"

#include "engine/error.h"

namespace cnnx {

const char* backend_name(Backend b) { return b == Backend::dnnl ? "dnnl" : "ref"; }

Backend parse_backend(const std::string& name) {
  if (name == "dnnl") return Backend::dnnl;
  if (name == "ref") return Backend::ref;
  fail("unknown backend '", name, "' (expected dnnl or ref)");
}

}  // namespace cnnx
