// .npy reading and writing: round trips, and malformed files throw cnnx::Error naming the file.
#include "engine/npy.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace cnnx;

namespace {

struct TempFolder {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("cnnx_npy_test_" + std::to_string(::getpid()));
  TempFolder() { std::filesystem::create_directories(path); }
  ~TempFolder() { std::filesystem::remove_all(path); }
  std::string write(const std::string& name, const std::string& data) const {
    std::string file = (path / name).string();
    std::ofstream(file, std::ios::binary) << data;
    return file;
  }
};

// A version-1 .npy file with this header text (padded as numpy pads it) followed by `data`.
std::string npy(const std::string& dict, const std::string& data) {
  std::string header = dict;
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  return std::string("\x93NUMPY\x01\x00", 8) + char(header.size() & 0xff) + char(header.size() >> 8) + header + data;
}

}  // namespace

TEST_CASE("write_npy then read_npy gives the same tensor") {
  TempFolder tmp;
  const Shape shapes[] = {{}, {0}, {3}, {2, 3}, {1, 0, 2}, Shape(40, 1)};
  for (const Shape& shape : shapes) {
    CAPTURE(to_string(shape));
    Tensor t(DType::f32, shape);
    for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = float(i) - 0.5f;
    std::string file = (tmp.path / "t.npy").string();
    write_npy(file, t);
    Tensor back = read_npy(file);
    CHECK(back.dtype() == DType::f32);
    CHECK(back.shape() == shape);
    for (int64_t i = 0; i < t.numel(); ++i) CHECK(back.data<float>()[i] == t.data<float>()[i]);
  }
}

TEST_CASE("read_npy accepts the header spellings numpy writes") {
  TempFolder tmp;
  const std::string six(24, '\0');
  struct Case {
    std::string dict;
    Shape shape;
    DType dtype;
  };
  const Case cases[] = {
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", {2, 3}, DType::f32},
      {"{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", {3}, DType::i64},
      {"{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (6,)}", {6}, DType::f32},
      {"{'shape': (2L, 3L), 'fortran_order': False, 'descr': '<f4'}", {2, 3}, DType::f32},
      {"{'descr': '|u1', 'fortran_order': False, 'shape': (24,), }", {24}, DType::u8},
  };
  for (const Case& c : cases) {
    CAPTURE(c.dict);
    Tensor t = read_npy(tmp.write("ok.npy", npy(c.dict, six)));
    CHECK(t.shape() == c.shape);
    CHECK(t.dtype() == c.dtype);
  }
}

TEST_CASE("malformed .npy files throw cnnx::Error naming the file") {
  TempFolder tmp;
  const std::string data(12, '\0');
  struct Case {
    std::string name, bytes, message;
  };
  const Case cases[] = {
      {"empty", "", "is not a .npy file"},
      {"bad magic", "\x93NUMPZ\x01\x00\x00\x00", "is not a .npy file"},
      {"version 4", std::string("\x93NUMPY\x04\x00", 8), "version 4"},
      {"truncated length", std::string("\x93NUMPY\x01\x00\x10", 9), "header is truncated"},
      {"header beyond file", std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 18), "header is truncated"},
      {"not a dict", npy("[1, 2, 3]", data), "malformed"},
      {"no descr", npy("{'fortran_order': False, 'shape': (3,), }", data), "has no descr"},
      {"unknown key", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", data), "unknown key 'x'"},
      {"key twice", npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", data), "twice"},
      {"text after dict", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} junk", data), "after the dict"},
      {"negative dim", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }", data), "malformed"},
      {"dim too long", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1234567890123456789,), }", data),
       "malformed"},
      {"unclosed tuple", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, }", data), "malformed"},
      {"unclosed string", npy("{'descr': '<f4, 'fortran_order': False, 'shape': (3,), }", data), "malformed"},
      {"big endian", npy("{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }", data), "'>f4' is not supported"},
      {"fortran order", npy("{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }", data), "Fortran"},
      {"overflow", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", data),
       "overflows"},
      {"short data", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", data),
       "needs 16 bytes, the file holds 12"},
      {"long data", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", data),
       "needs 8 bytes, the file holds 12"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::string file = tmp.write("bad.npy", c.bytes);
    CHECK_THROWS_WITH_AS(read_npy(file), doctest::Contains(c.message.c_str()), cnnx::Error);
    CHECK_THROWS_WITH_AS(read_npy(file), doctest::Contains("bad.npy"), cnnx::Error);
  }
  std::string many = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
  for (int i = 0; i < 65; ++i) many += "1, ";
  many += "3), }";
  CHECK_THROWS_WITH_AS(read_npy(tmp.write("many.npy", npy(many, data))), doctest::Contains("more than 64 dims"),
                       cnnx::Error);
  CHECK_THROWS_WITH_AS(read_npy(tmp.path.string()), doctest::Contains("not a readable file"), cnnx::Error);
}
