// ONNX model bytes written field by field with protobuf's wire format (field numbers from onnx.proto), so
// tests need no protobuf headers and can write what protobuf's own API refuses to (invalid enum values).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace onnx_bytes {

// One protobuf message being written.
struct Proto {
  std::string bytes;

  Proto& varint(int field, uint64_t v) {
    key(field, 0);
    put_varint(v);
    return *this;
  }
  Proto& str(int field, const std::string& s) {
    key(field, 2);
    put_varint(s.size());
    bytes += s;
    return *this;
  }
  Proto& msg(int field, const Proto& m) { return str(field, m.bytes); }
  Proto& f32(int field, float v) {
    key(field, 5);
    char b[4];
    std::memcpy(b, &v, 4);
    bytes.append(b, 4);
    return *this;
  }

 private:
  void key(int field, int wire) { put_varint(uint64_t(field) << 3 | uint64_t(wire)); }
  void put_varint(uint64_t v) {
    for (; v >= 0x80; v >>= 7) bytes += char(v | 0x80);
    bytes += char(v);
  }
};

// onnx.proto field numbers used below.
namespace f {
constexpr int model_ir_version = 1, model_graph = 7, model_opset_import = 8;
constexpr int opset_domain = 1, opset_version = 2;
constexpr int graph_node = 1, graph_name = 2, graph_initializer = 5, graph_input = 11, graph_output = 12;
constexpr int node_input = 1, node_output = 2, node_name = 3, node_op_type = 4, node_attribute = 5, node_domain = 7;
constexpr int attr_name = 1, attr_f = 2, attr_i = 3, attr_type = 20;
constexpr int tensor_dims = 1, tensor_data_type = 2, tensor_name = 8, tensor_raw_data = 9, tensor_external_data = 13,
              tensor_data_location = 14;
constexpr int entry_key = 1, entry_value = 2;
constexpr int value_name = 1, value_type = 2, type_tensor = 1, tensor_type_elem = 1, tensor_type_shape = 2;
constexpr int shape_dim = 1, dim_value = 1, dim_param = 2;
}  // namespace f

inline constexpr int kFloat = 1, kAttrFloat = 1, kAttrInt = 2;

// ValueInfoProto of a float tensor; a negative dim is written as a dim_param ("N").
inline Proto value(const std::string& name, const std::vector<int64_t>& dims) {
  Proto shape;
  for (int64_t d : dims)
    shape.msg(f::shape_dim, d < 0 ? Proto().str(f::dim_param, "N") : Proto().varint(f::dim_value, uint64_t(d)));
  Proto tensor_type;
  tensor_type.varint(f::tensor_type_elem, kFloat).msg(f::tensor_type_shape, shape);
  return Proto().str(f::value_name, name).msg(f::value_type, Proto().msg(f::type_tensor, tensor_type));
}

inline Proto node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
           const std::string& name, const std::vector<Proto>& attrs = {}) {
  Proto n;
  for (const auto& s : in) n.str(f::node_input, s);
  for (const auto& s : out) n.str(f::node_output, s);
  n.str(f::node_name, name).str(f::node_op_type, op);
  for (const auto& a : attrs) n.msg(f::node_attribute, a);
  return n;
}

inline Proto float_attr(const std::string& name, float v) {
  return Proto().str(f::attr_name, name).f32(f::attr_f, v).varint(f::attr_type, kAttrFloat);
}

// A float initializer with raw_data of `raw_bytes` bytes (dims may disagree: that is the point).
inline Proto initializer(const std::string& name, const std::vector<int64_t>& dims, size_t raw_bytes) {
  Proto t;
  for (int64_t d : dims) t.varint(f::tensor_dims, uint64_t(d));  // negative dims: two's complement varint
  return t.varint(f::tensor_data_type, kFloat)
      .str(f::tensor_name, name)
      .str(f::tensor_raw_data, std::string(raw_bytes, '\0'));
}

inline Proto external_initializer(const std::string& name, int64_t n, const std::string& location,
                           const std::string& offset = "") {
  Proto t;
  t.varint(f::tensor_dims, uint64_t(n)).varint(f::tensor_data_type, kFloat).str(f::tensor_name, name);
  t.msg(f::tensor_external_data, Proto().str(f::entry_key, "location").str(f::entry_value, location));
  if (!offset.empty()) t.msg(f::tensor_external_data, Proto().str(f::entry_key, "offset").str(f::entry_value, offset));
  return t.varint(f::tensor_data_location, 1);  // EXTERNAL
}

struct GraphParts {
  std::vector<Proto> nodes, initializers, inputs, outputs;
};

inline std::string model_bytes(const GraphParts& g, int opset = 19) {
  Proto graph;
  for (const auto& n : g.nodes) graph.msg(f::graph_node, n);
  graph.str(f::graph_name, "g");
  for (const auto& t : g.initializers) graph.msg(f::graph_initializer, t);
  for (const auto& v : g.inputs) graph.msg(f::graph_input, v);
  for (const auto& v : g.outputs) graph.msg(f::graph_output, v);
  Proto m;
  m.varint(f::model_ir_version, 8).msg(f::model_graph, graph);
  m.msg(f::model_opset_import, Proto().str(f::opset_domain, "").varint(f::opset_version, uint64_t(opset)));
  return m.bytes;
}

// A float initializer holding `data` as raw_data.
inline Proto float_initializer(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& data) {
  Proto t;
  for (int64_t d : dims) t.varint(f::tensor_dims, uint64_t(d));
  return t.varint(f::tensor_data_type, kFloat)
      .str(f::tensor_name, name)
      .str(f::tensor_raw_data, std::string(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(float)));
}

inline Proto int_attr(const std::string& name, int64_t v) {
  return Proto().str(f::attr_name, name).varint(f::attr_i, uint64_t(v)).varint(f::attr_type, kAttrInt);
}

}  // namespace onnx_bytes
