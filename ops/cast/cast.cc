// Cast (opset 1+; before opset 6 `to` is a string). Conversions: see cast_value in cast.h.
#include "ops/cast/cast.h"

#include <cctype>
#include <string>

namespace cnnx {

namespace {

const char* onnx_type_name(int64_t t) {
  static const char* const names[] = {"undefined", "float32", "uint8", "int8", "uint16", "int16", "int32",
                                      "int64", "string", "bool", "float16", "float64", "uint32", "uint64",
                                      "complex64", "complex128", "bfloat16", "float8e4m3fn", "float8e4m3fnuz",
                                      "float8e5m2", "float8e5m2fnuz"};
  return t >= 0 && t < int64_t(sizeof(names) / sizeof(names[0])) ? names[t] : nullptr;
}

}  // namespace

CastParams parse_cast(const Node& node) {
  require_inputs(node, 1, 1);
  require_outputs(node, 1, 1);
  if (node.opset >= 19) node.attrs.allow_only({"to", "saturate"});  // saturate only concerns float8 targets
  else node.attrs.allow_only({"to"});
  CastParams p;
  if (node.opset < 6) {
    // Opset 1-5: `to` is the TensorProto.DataType name as a string ("FLOAT", "INT64", ...).
    require(node.attrs.has("to"), "attribute 'to' is required");
    std::string want = node.attrs.get_string("to", "");
    for (char& c : want) c = char(std::toupper(static_cast<unsigned char>(c)));
    static const char* const proto_names[] = {"UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32",
                                              "INT64", "STRING", "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64",
                                              "COMPLEX64", "COMPLEX128", "BFLOAT16"};
    int32_t code = -1;
    for (int32_t i = 1; i < int32_t(sizeof(proto_names) / sizeof(proto_names[0])); ++i)
      if (want == proto_names[i]) code = i;
    require(code > 0, "attribute 'to' = '", node.attrs.get_string("to", ""), "' is not an ONNX element type name");
    p.to = dtype_from_onnx(code);
    require(p.to != DType::undefined, "attribute 'to' = '", want,
            "' is not supported; cnnx casts to FLOAT, DOUBLE, FLOAT16, BFLOAT16, INT64, INT32, INT8, UINT8 and BOOL");
    return p;
  }
  const int64_t to = node.attrs.require_int("to");
  const char* name = onnx_type_name(to);
  require(name != nullptr, "attribute 'to' = ", to, " is not an ONNX element type");
  p.to = to > 0 && to <= std::numeric_limits<int32_t>::max() ? dtype_from_onnx(int32_t(to)) : DType::undefined;
  require(p.to != DType::undefined, "attribute 'to' = ", to, " (", name,
          ") is not supported; cnnx casts to float32, float64, float16, bfloat16, int64, int32, int8, uint8 and bool");
  return p;
}

std::vector<ValueInfo> infer_cast(const CastParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  return {ValueInfo::of(p.to, x.shape)};
}

}  // namespace cnnx
