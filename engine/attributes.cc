#include "engine/attributes.h"

#include <cstring>

namespace cnnx {

namespace {
const char* kind_name(Attribute::Kind k) {
  switch (k) {
    case Attribute::Kind::f: return "float";
    case Attribute::Kind::i: return "int";
    case Attribute::Kind::s: return "string";
    case Attribute::Kind::t: return "tensor";
    case Attribute::Kind::floats: return "floats";
    case Attribute::Kind::ints: return "ints";
    case Attribute::Kind::strings: return "strings";
    case Attribute::Kind::graph: return "graph";
    default: return "unsupported";
  }
}
}  // namespace

const Attribute* Attributes::find(const std::string& name, Attribute::Kind kind) const {
  auto it = map_.find(name);
  if (it == map_.end()) return nullptr;
  const Attribute& a = it->second;
  if (a.kind == Attribute::Kind::unsupported)
    fail("attribute '", name, "' has type ", a.onnx_type, ", which cnnx does not support");
  require(a.kind == kind, "attribute '", name, "' should be ", kind_name(kind), " but is ", kind_name(a.kind));
  return &a;
}

int64_t Attributes::get_int(const std::string& name, int64_t fallback) const {
  const Attribute* a = find(name, Attribute::Kind::i);
  return a ? a->i : fallback;
}

bool Attributes::get_flag(const std::string& name, bool fallback) const {
  const int64_t v = get_int(name, fallback ? 1 : 0);
  require(v == 0 || v == 1, "attribute '", name, "' is ", v, "; expected 0 or 1");
  return v == 1;
}

float Attributes::get_float(const std::string& name, float fallback) const {
  const Attribute* a = find(name, Attribute::Kind::f);
  return a ? a->f : fallback;
}

std::string Attributes::get_string(const std::string& name, const std::string& fallback) const {
  const Attribute* a = find(name, Attribute::Kind::s);
  return a ? a->s : fallback;
}

std::vector<int64_t> Attributes::get_ints(const std::string& name, std::vector<int64_t> fallback) const {
  const Attribute* a = find(name, Attribute::Kind::ints);
  return a ? a->ints : fallback;
}

std::vector<float> Attributes::get_floats(const std::string& name, std::vector<float> fallback) const {
  const Attribute* a = find(name, Attribute::Kind::floats);
  return a ? a->floats : fallback;
}

int64_t Attributes::require_int(const std::string& name) const {
  const Attribute* a = find(name, Attribute::Kind::i);
  require(a != nullptr, "attribute '", name, "' is required");
  return a->i;
}

const Tensor& Attributes::require_tensor(const std::string& name) const {
  const Attribute* a = find(name, Attribute::Kind::t);
  require(a != nullptr, "attribute '", name, "' is required");
  return a->t;
}

const std::shared_ptr<const Graph>& Attributes::require_graph(const std::string& name) const {
  const Attribute* a = find(name, Attribute::Kind::graph);
  require(a != nullptr && a->g != nullptr, "attribute '", name, "' is required");
  return a->g;
}

void Attributes::allow_only(std::initializer_list<const char*> known) const {
  for (const auto& [name, a] : map_) {
    bool ok = false;
    for (const char* k : known) ok = ok || name == k;
    require(ok, "unknown attribute '", name, "'");
  }
}

}  // namespace cnnx
