// The ONNX loader on hand-built protobuf bytes (tests/unit/onnx_bytes.h): valid models import, malformed ones
// throw cnnx::Error naming the node or tensor, and no prefix or single-byte corruption of a model escapes as
// anything else.
#include "runtime/onnx_import.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/unit/onnx_bytes.h"

using namespace cnnx;
using namespace onnx_bytes;

namespace {

// y = Relu(x) with x: [1, 3].
GraphParts relu_graph() {
  return {{node("Relu", {"x"}, {"y"}, "relu")}, {}, {value("x", {1, 3})}, {value("y", {1, 3})}};
}

// y = Add(x, W) with x: [4] and W an initializer given by the caller.
GraphParts add_graph(Proto weight) {
  return {{node("Add", {"x", "W"}, {"y"}, "add")}, {weight}, {value("x", {4})}, {value("y", {4})}};
}

Graph import(const std::string& bytes, const std::string& dir = "", const ImportLimits& limits = {}) {
  return import_onnx_bytes(bytes.data(), bytes.size(), dir, limits);
}

// A fresh, empty folder under the system temp dir, removed at scope exit.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() / ("cnnx_import_test_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path / "model");
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  void write(const std::string& rel, const std::string& data) const {
    std::ofstream(path / rel, std::ios::binary) << data;
  }
};

}  // namespace

TEST_CASE("a valid model imports with inferred shapes") {
  Graph g = import(model_bytes(relu_graph()));
  REQUIRE(g.inputs.size() == 1);
  REQUIRE(g.outputs.size() == 1);
  CHECK(g.value(g.inputs[0]).name == "x");
  CHECK(g.value(g.outputs[0]).info.shape == Shape{1, 3});
  REQUIRE(g.nodes.size() == 1);
  CHECK(g.nodes[0].label() == "node 'relu' (Relu)");
  CHECK(g.opsets.at("") == 19);
}

TEST_CASE("valid edge cases import") {
  const float w[3] = {1, 2, 3};
  Proto init;
  init.varint(f::tensor_dims, 3)
      .varint(f::tensor_data_type, kFloat)
      .str(f::tensor_name, "W")
      .str(f::tensor_raw_data, std::string(reinterpret_cast<const char*>(w), sizeof w));
  struct Case {
    std::string name;
    GraphParts graph;
    size_t inputs;
  };
  const Case cases[] = {
      {"output is a graph input", {{}, {}, {value("x", {1, 3})}, {value("x", {1, 3})}}, 1},
      {"initializer listed as an input (IR 3)",
       {{node("Add", {"x", "W"}, {"y"}, "add")}, {init}, {value("x", {1, 3}), value("W", {3})}, {value("y", {1, 3})}},
       1},
      {"dynamic batch", {{node("Relu", {"x"}, {"y"}, "relu")}, {}, {value("x", {-1, 3})}, {value("y", {-1, 3})}}, 1},
      {"zero-size initializer",
       {{node("Add", {"x", "W"}, {"y"}, "add")}, {initializer("W", {0}, 0)}, {value("x", {0})}, {value("y", {0})}},
       1},
      {"float attribute",
       {{node("LeakyRelu", {"x"}, {"y"}, "lrelu", {float_attr("alpha", 0.5f)})},
        {},
        {value("x", {4})},
        {value("y", {4})}},
       1},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Graph g = import(model_bytes(c.graph));
    CHECK(g.inputs.size() == c.inputs);
  }
}

TEST_CASE("a 3000-node chain imports without deep recursion") {
  GraphParts g{{}, {}, {value("x", {1, 3})}, {value("y", {1, 3})}};
  for (int i = 0; i < 3000; ++i)
    g.nodes.push_back(node("Relu", {i ? "t" + std::to_string(i - 1) : "x"}, {i < 2999 ? "t" + std::to_string(i) : "y"},
                           "relu" + std::to_string(i)));
  std::reverse(g.nodes.begin(), g.nodes.end());  // file order is not topological order
  Graph graph = import(model_bytes(g));
  REQUIRE(graph.nodes.size() == 3000);
  CHECK(graph.nodes.front().name == "relu0");
  CHECK(graph.nodes.back().name == "relu2999");
}

TEST_CASE("malformed models throw cnnx::Error naming the node or tensor") {
  auto with_attr = [](Proto attr) {
    return GraphParts{{node("LeakyRelu", {"x"}, {"y"}, "lrelu", {attr})}, {}, {value("x", {4})}, {value("y", {4})}};
  };
  Proto relu_twice_out = node("Relu", {"x"}, {"y"}, "second");
  struct Case {
    std::string name, bytes, message;
  };
  const Case cases[] = {
      {"empty", "", "has no graph"},
      {"garbage", std::string("\xff\xff\xff\xff\x0f", 5), "not a valid ONNX protobuf"},
      {"opset 20", model_bytes(relu_graph(), 20), "opset 20"},
      {"unknown op",
       model_bytes({{node("Frobnicate", {"x"}, {"y"}, "frob")}, {}, {value("x", {1})}, {value("y", {1})}}),
       "node 'frob' (Frobnicate)"},
      {"unknown domain",
       model_bytes(
           {{node("Relu", {"x"}, {"y"}, "r").str(f::node_domain, "com.x")}, {}, {value("x", {1})}, {value("y", {1})}}),
       "node 'r' (com.x:Relu)"},
      {"cycle",
       model_bytes({{node("Add", {"x", "c"}, {"b"}, "a1"), node("Relu", {"b"}, {"c"}, "r1")},
                    {},
                    {value("x", {1})},
                    {value("b", {1})}}),
       "node 'a1' (Add): is part of a cycle"},
      {"cycle behind a consumer",
       model_bytes({{node("Relu", {"b"}, {"out"}, "consumer"), node("Add", {"x", "c"}, {"b"}, "a1"),
                     node("Relu", {"b"}, {"c"}, "r1")},
                    {},
                    {value("x", {1})},
                    {value("out", {1})}}),
       "node 'a1' (Add): is part of a cycle ('a1' -> 'r1' -> 'a1')"},
      {"self loop", model_bytes({{node("Add", {"x", "y"}, {"y"}, "s")}, {}, {value("x", {1})}, {value("y", {1})}}),
       "node 's' (Add): is part of a cycle ('s' -> 's')"},
      {"undefined input",
       model_bytes({{node("Relu", {"ghost"}, {"y"}, "r")}, {}, {value("x", {1})}, {value("y", {1})}}),
       "node 'r' (Relu): input 'ghost'"},
      {"duplicate output",
       model_bytes({{node("Relu", {"x"}, {"y"}, "first"), relu_twice_out}, {}, {value("x", {1})}, {value("y", {1})}}),
       "node 'second' (Relu): output 'y' is already defined"},
      {"output listed twice",
       model_bytes({{node("Relu", {"x"}, {"y"}, "r")}, {}, {value("x", {1})}, {value("y", {1}), value("y", {1})}}),
       "graph output 'y' is listed twice"},
      {"input without name",
       model_bytes({{node("Relu", {"x"}, {"y"}, "r")}, {}, {value("x", {1}), value("", {1})}, {value("y", {1})}}),
       "a graph input has no name"},
      {"raw_data short", model_bytes(add_graph(initializer("W", {4}, 12))), "tensor 'W': raw_data holds 12 bytes"},
      {"raw_data long", model_bytes(add_graph(initializer("W", {4}, 20))), "tensor 'W': raw_data holds 20 bytes"},
      {"float_data missing",
       model_bytes(
           add_graph(Proto().varint(f::tensor_dims, 4).varint(f::tensor_data_type, kFloat).str(f::tensor_name, "W"))),
       "tensor 'W': float_data holds 0 values"},
      {"negative dim", model_bytes(add_graph(initializer("W", {-4}, 16))), "tensor 'W': dim -4 is negative"},
      {"dims overflow", model_bytes(add_graph(initializer("W", {int64_t(1) << 40, int64_t(1) << 40}, 0))),
       "tensor 'W': shape"},
      {"rank over 64", model_bytes(add_graph(initializer("W", std::vector<int64_t>(65, 1), 4))), "tensor 'W': rank 65"},
      {"external data from memory", model_bytes(add_graph(external_initializer("W", 4, "w.bin"))),
       "tensor 'W': external data is not allowed"},
      {"attribute of the wrong type",
       model_bytes(with_attr(Proto().str(f::attr_name, "alpha").varint(f::attr_i, 3).varint(f::attr_type, kAttrInt))),
       "node 'lrelu' (LeakyRelu): attribute 'alpha' should be float"},
      {"attribute type enum 99",
       model_bytes(with_attr(Proto().str(f::attr_name, "alpha").f32(f::attr_f, 1).varint(f::attr_type, 99))),
       "node 'lrelu' (LeakyRelu): attribute 'alpha': has type 99"},
      {"attribute without type", model_bytes(with_attr(Proto().str(f::attr_name, "alpha").f32(f::attr_f, 1))),
       "attribute 'alpha': has no type"},
      {"attribute type without value",
       model_bytes(with_attr(Proto().str(f::attr_name, "alpha").varint(f::attr_type, kAttrFloat))),
       "attribute 'alpha': has type FLOAT but no value"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CAPTURE(c.message);
    CHECK_THROWS_WITH_AS(import(c.bytes), doctest::Contains(c.message.c_str()), cnnx::Error);
  }
}

TEST_CASE("import limits are enforced before allocating") {
  std::string bytes = model_bytes(add_graph(initializer("W", {4}, 16)));
  ImportLimits small_model;
  small_model.max_model_bytes = int64_t(bytes.size()) - 1;
  CHECK_THROWS_WITH_AS(import(bytes, "", small_model), doctest::Contains("over the limit"), cnnx::Error);
  ImportLimits small_tensor;
  small_tensor.max_tensor_bytes = 15;
  CHECK_THROWS_WITH_AS(import(bytes, "", small_tensor), doctest::Contains("tensor 'W': 16 bytes exceeds"), cnnx::Error);
  // 64 GiB declared with no data: refused by size, never allocated.
  CHECK_THROWS_AS(import(model_bytes(add_graph(initializer("W", {int64_t(1) << 34}, 0)))), cnnx::Error);
}

TEST_CASE("model files that cannot be read whole are clean errors naming the file") {
  // Files are mapped by their reported size: a read error (or a refused open, in some sandboxes), and a file
  // with bytes but a reported size of 0 (/proc's) are refused.
  CHECK_THROWS_WITH_AS(import_onnx_file("/proc/self/mem"), doctest::Contains("'/proc/self/mem'"),
                       cnnx::Error);
  CHECK_THROWS_WITH_AS(import_onnx_file("/proc/self/status"),
                       doctest::Contains("cannot read '/proc/self/status': its size is 0 but it has bytes"),
                       cnnx::Error);
  CHECK_THROWS_WITH_AS(import_onnx_file("/nonexistent/model.onnx"),
                       doctest::Contains("cannot open '/nonexistent/model.onnx'"), cnnx::Error);
}

TEST_CASE("external data stays inside the model's folder") {
  TempDir tmp;
  const float w[4] = {1, 2, 3, 4};
  tmp.write("model/w.bin", std::string(8, '\0') + std::string(reinterpret_cast<const char*>(w), sizeof w));
  tmp.write("outside.bin", std::string(reinterpret_cast<const char*>(w), sizeof w));
  std::filesystem::create_symlink("../outside.bin", tmp.path / "model" / "link.bin");
  const std::string dir = (tmp.path / "model").string();

  Graph g = import(model_bytes(add_graph(external_initializer("W", 4, "w.bin", "8"))), dir);
  const Tensor& t = *g.value(g.find_value("W")).info.constant;
  CHECK(t.data<float>()[3] == 4.f);

  struct Case {
    std::string name, location, offset, message;
  };
  const Case cases[] = {
      {"absolute", (tmp.path / "model" / "w.bin").string(), "8", "must be a relative path"},
      {"dot-dot", "../outside.bin", "", "may not contain '..'"},
      {"symlink out", "link.bin", "", "resolves outside the model's folder"},
      {"offset beyond", "w.bin", "40", "lies beyond the end"},
      {"offset at end, data missing", "w.bin", "24", "lies beyond the end"},
      {"offset int64 max", "w.bin", "9223372036854775807", "lies beyond the end"},
      {"offset negative", "w.bin", "-8", "is not a non-negative integer"},
      {"missing file", "nope.bin", "", "is missing"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK_THROWS_WITH_AS(import(model_bytes(add_graph(external_initializer("W", 4, c.location, c.offset))), dir),
                         doctest::Contains(c.message.c_str()), cnnx::Error);
  }
}

TEST_CASE("every truncation and byte corruption of a model is a clean error or a valid model") {
  const std::string good = model_bytes(add_graph(initializer("W", {4}, 16)));
  for (size_t n = 0; n < good.size(); ++n) {
    CAPTURE(n);
    try {
      import(good.substr(0, n));
    } catch (const cnnx::Error&) {
    }
  }
  for (size_t i = 0; i < good.size(); ++i)
    for (unsigned char v : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = char(v);
      CAPTURE(i);
      int value = v;
      CAPTURE(value);
      try {
        import(bad);
      } catch (const cnnx::Error&) {
      }
    }
}

// The import reads each initializer's raw_data straight from the model's bytes (a file's with pread), having
// parsed the rest without it: what protobuf would make of the same bytes is what it must give.
TEST_CASE("initializers' raw_data is read where the model holds it, with protobuf's meaning") {
  auto floats = [](std::vector<float> v) { return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4); };
  auto weight = [](const std::string& name, const std::vector<std::string>& raws) {
    Proto t;
    t.varint(f::tensor_dims, 4).varint(f::tensor_data_type, kFloat).str(f::tensor_name, name);
    for (const std::string& raw : raws) t.str(f::tensor_raw_data, raw);
    return t;
  };
  auto values = [](const Graph& g, const std::string& name) {
    const Tensor& t = *g.value(g.find_value(name)).info.constant;
    return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
  };
  const std::string model = model_bytes(add_graph(weight("W", {floats({1, 2, 3, 4})})));
  CHECK(values(import(model), "W") == std::vector<float>{1, 2, 3, 4});
  TempDir tmp;
  tmp.write("model/m.onnx", model);
  CHECK(values(import_onnx_file((tmp.path / "model" / "m.onnx").string()), "W") == std::vector<float>{1, 2, 3, 4});

  // raw_data given twice: the last one counts.
  CHECK(values(import(model_bytes(add_graph(weight("W", {floats({9, 9, 9, 9}), floats({5, 6, 7, 8})})))), "W") ==
        std::vector<float>{5, 6, 7, 8});

  // The graph given twice: protobuf merges them, the second's initializers after the first's.
  GraphParts parts = add_graph(weight("W", {floats({1, 2, 3, 4})}));
  const Proto second_graph = Proto().msg(f::graph_initializer, weight("V", {floats({4, 3, 2, 1})}));
  const std::string split = model_bytes(parts) + Proto().msg(f::model_graph, second_graph).bytes;
  const Graph merged = import(split);
  CHECK(values(merged, "W") == std::vector<float>{1, 2, 3, 4});
  CHECK(values(merged, "V") == std::vector<float>{4, 3, 2, 1});

  // A tensor whose length ends inside its raw_data is no valid protobuf.
  Proto cut;
  cut.varint(f::tensor_dims, 4).varint(f::tensor_data_type, kFloat).str(f::tensor_raw_data, floats({1, 2, 3, 4}));
  cut.bytes.resize(cut.bytes.size() - 3);
  CHECK_THROWS_WITH_AS(import(model_bytes(add_graph(cut))), doctest::Contains("not a valid ONNX protobuf"), cnnx::Error);
}

TEST_CASE("bool tensors read from raw bytes hold 0 or 1 (a byte of 16 read as bool is undefined behaviour)") {
  // fuzz_load_plan's find (UBSan, engine/tensor.cc double_at): a Compress whose bool condition 'keep' is the raw
  // bytes 01 10 01. Importing it must not read 0x10 as a bool; the bytes become 1 1 1.
  static const char found[] =
      "\010\010\022\011bad_input:p\0126\012\001x\012\004keep\022\001y\032\010compress\"\010Compress*\024\012\004axis"
      "\030\376\377\377\377\377\377\377\377\377\001\240\001\002\022\001g*\017\010\003\020\011B\004keepJ\003\001\020"
      "\001Z\027\012\001x\022\022\012\020\010\001\022\014\012\002\010\002\012\002\010\003\012\002\010\004b\011\012"
      "\001y\022\004\012\002\010\001B\004\012\000\020\012";
  const std::string bytes(found, sizeof found - 1);
  try {
    const Graph g = import(bytes);
    for (const auto& v : g.values) {
      if (v.name != "keep" || !v.info.constant) continue;
      const auto* b = static_cast<const uint8_t*>(v.info.constant->raw());
      for (int64_t i = 0; i < v.info.constant->numel(); ++i) CHECK(int(b[i]) == 1);
    }
  } catch (const Error& e) {
    MESSAGE("refused: ", e.what());  // refusing it is fine too; reading 0x10 as bool is not
  }
  Tensor t = Tensor::uninitialized(DType::boolean, {4});
  const uint8_t raw[] = {0, 16, 255, 1};
  std::memcpy(t.raw(), raw, sizeof raw);
  t.canonicalize_bools();
  const auto* b = static_cast<const uint8_t*>(t.raw());
  CHECK((b[0] == 0 && b[1] == 1 && b[2] == 1 && b[3] == 1));
}
