#include "engine/npy.h"

#include <cstring>
#include <fstream>
#include <regex>

namespace cnnx {

namespace {

const char* descr_of(DType t) {
  switch (t) {
    case DType::f32: return "<f4";
    case DType::f64: return "<f8";
    case DType::i64: return "<i8";
    case DType::i32: return "<i4";
    case DType::i8: return "|i1";
    case DType::u8: return "|u1";
    case DType::boolean: return "|b1";
    default: fail("cannot write element type ", dtype_name(t), " to .npy");
  }
}

DType dtype_of_descr(const std::string& d) {
  for (DType t : {DType::f32, DType::f64, DType::i64, DType::i32, DType::i8, DType::u8, DType::boolean})
    if (d == descr_of(t)) return t;
  // Single-byte types may be written with '<' or '=' too.
  if (d == "<i1" || d == "=i1") return DType::i8;
  if (d == "<u1" || d == "=u1") return DType::u8;
  return DType::undefined;
}

}  // namespace

Tensor read_npy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  require(bool(f), "cannot open '", path, "'");
  char magic[8];
  f.read(magic, 8);
  require(f.gcount() == 8 && std::memcmp(magic, "\x93NUMPY", 6) == 0, "'", path, "' is not a .npy file");
  uint32_t header_len = 0;
  int major = uint8_t(magic[6]);
  if (major == 1) {
    uint8_t b[2];
    f.read(reinterpret_cast<char*>(b), 2);
    header_len = uint32_t(b[0]) | uint32_t(b[1]) << 8;
  } else {
    require(major == 2 || major == 3, "'", path, "': .npy version ", major, " is not supported");
    uint8_t b[4];
    f.read(reinterpret_cast<char*>(b), 4);
    header_len = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
  }
  require(bool(f) && header_len <= 1 << 16, "'", path, "': .npy header is truncated or too long");
  std::string header(header_len, '\0');
  f.read(header.data(), header_len);
  require(f.gcount() == std::streamsize(header_len), "'", path, "': .npy header is truncated");

  std::smatch m;
  require(std::regex_search(header, m, std::regex("'descr'\\s*:\\s*'([^']*)'")), "'", path,
          "': .npy header has no descr");
  DType dtype = dtype_of_descr(m[1]);
  require(dtype != DType::undefined, "'", path, "': .npy element type '", m[1].str(), "' is not supported");
  require(std::regex_search(header, m, std::regex("'fortran_order'\\s*:\\s*(True|False)")) && m[1] == "False",
          "'", path, "': Fortran-order .npy files are not supported");
  require(std::regex_search(header, m, std::regex("'shape'\\s*:\\s*\\(([^)]*)\\)")), "'", path,
          "': .npy header has no shape");
  Shape shape;
  std::string dims = m[1];
  require(std::regex_match(dims, std::regex("\\s*(\\d{1,18}\\s*,\\s*)*(\\d{1,18}\\s*,?)?\\s*")), "'", path,
          "': .npy shape (", dims, ") is not a tuple of non-negative integers");
  std::regex dim_re("\\s*(\\d{1,18})\\s*(,|$)");
  for (auto it = std::sregex_iterator(dims.begin(), dims.end(), dim_re); it != std::sregex_iterator(); ++it)
    shape.push_back(std::stoll((*it)[1]));
  int64_t bytes = checked_mul(checked_numel(shape), int64_t(dtype_size(dtype)), "'.npy' byte size");

  auto data_start = f.tellg();
  f.seekg(0, std::ios::end);
  int64_t available = int64_t(f.tellg() - data_start);
  require(available == bytes, "'", path, "': shape ", to_string(shape), " of ", dtype_name(dtype), " needs ",
          bytes, " bytes, the file holds ", available);
  f.seekg(data_start);
  Tensor t(dtype, shape);
  f.read(static_cast<char*>(t.raw()), std::streamsize(bytes));
  require(bool(f) || bytes == 0, "'", path, "': cannot read the data");
  return t;
}

void write_npy(const std::string& path, const Tensor& t) {
  std::string shape;
  for (int64_t d : t.shape()) shape += std::to_string(d) + ",";
  if (t.rank() > 1) shape.pop_back();
  std::string header = std::string("{'descr': '") + descr_of(t.dtype()) + "', 'fortran_order': False, 'shape': (" +
                       shape + "), }";
  // Pad with spaces so magic + length + header + '\n' is a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  require(bool(f), "cannot write '", path, "'");
  f.write("\x93NUMPY\x01\x00", 8);
  char len[2] = {char(header.size() & 0xff), char(header.size() >> 8)};
  f.write(len, 2);
  f << header;
  f.write(static_cast<const char*>(t.raw()), std::streamsize(t.bytes()));
  require(bool(f), "cannot write '", path, "'");
}

}  // namespace cnnx
