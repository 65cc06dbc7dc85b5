// Node attributes as the importer read them, free of protobuf. Ops read them once, in their parse step,
// through the typed getters, which throw cnnx::Error naming the attribute on a type mismatch.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/tensor.h"

namespace cnnx {

struct Graph;  // engine/graph.h

struct Attribute {
  enum class Kind { f, i, s, t, floats, ints, strings, graph, unsupported };
  Kind kind = Kind::unsupported;
  float f = 0;
  int64_t i = 0;
  std::string s;
  Tensor t;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  std::shared_ptr<const Graph> g;  // a subgraph (If's branches, Loop's body), built by the importer
  std::string onnx_type;  // for `unsupported` (graphs, sparse tensors, type protos): the ONNX type name
};

// Attributes written in code (graph passes, the lab, tests).
inline Attribute int_attr(int64_t v) {
  Attribute a;
  a.kind = Attribute::Kind::i;
  a.i = v;
  return a;
}
inline Attribute ints_attr(std::vector<int64_t> v) {
  Attribute a;
  a.kind = Attribute::Kind::ints;
  a.ints = std::move(v);
  return a;
}
inline Attribute float_attr(float v) {
  Attribute a;
  a.kind = Attribute::Kind::f;
  a.f = v;
  return a;
}
inline Attribute string_attr(std::string v) {
  Attribute a;
  a.kind = Attribute::Kind::s;
  a.s = std::move(v);
  return a;
}

class Attributes {
 public:
  void set(const std::string& name, Attribute a) { map_[name] = std::move(a); }
  bool has(const std::string& name) const { return map_.count(name) != 0; }
  const std::map<std::string, Attribute>& all() const { return map_; }

  int64_t get_int(const std::string& name, int64_t fallback) const;
  // An int attribute that must be 0 or 1 (throws naming it otherwise).
  bool get_flag(const std::string& name, bool fallback) const;
  float get_float(const std::string& name, float fallback) const;
  std::string get_string(const std::string& name, const std::string& fallback) const;
  std::vector<int64_t> get_ints(const std::string& name, std::vector<int64_t> fallback = {}) const;
  std::vector<float> get_floats(const std::string& name, std::vector<float> fallback = {}) const;
  // Throws when absent.
  int64_t require_int(const std::string& name) const;
  const Tensor& require_tensor(const std::string& name) const;
  const std::shared_ptr<const Graph>& require_graph(const std::string& name) const;
  // Throws unless every attribute name is one of `known` (catches typos and attributes of newer opsets).
  void allow_only(std::initializer_list<const char*> known) const;

 private:
  const Attribute* find(const std::string& name, Attribute::Kind kind) const;
  std::map<std::string, Attribute> map_;
};

}  // namespace cnnx
