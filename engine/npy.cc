#include "engine/npy.h"

#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace cnnx {

namespace {

// Longest header read: version 1's limit (numpy's own reader stops at 10000 bytes unless told otherwise).
constexpr uint32_t kMaxHeader = uint32_t(1) << 16;
// Highest rank read: numpy's NPY_MAXDIMS is 32 (64 from numpy 2).
constexpr size_t kMaxRank = 64;

const char* descr_of(DType t) {
  switch (t) {
    case DType::f32: return "<f4";
    case DType::f64: return "<f8";
    case DType::f16: return "<f2";
    case DType::i64: return "<i8";
    case DType::i32: return "<i4";
    case DType::i8: return "|i1";
    case DType::u8: return "|u1";
    case DType::boolean: return "|b1";
    case DType::bf16:
      fail("cannot write bfloat16 to .npy: numpy has no bfloat16 type (bfloat16 inputs are read from ONNX "
           "TensorProto .pb files; Cast the output to float32 to save it)");
    default: fail("cannot write element type ", dtype_name(t), " to .npy");
  }
}

DType dtype_of_descr(const std::string& d) {
  for (DType t : {DType::f32, DType::f64, DType::f16, DType::i64, DType::i32, DType::i8, DType::u8, DType::boolean})
    if (d == descr_of(t)) return t;
  // Single-byte types may be written with '<' or '=' too.
  if (d == "<i1" || d == "=i1") return DType::i8;
  if (d == "<u1" || d == "=u1") return DType::u8;
  return DType::undefined;
}

// The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }.
// Parsed by hand, in one pass, without recursion (std::regex recurses per character and can exhaust the
// stack on a 64 KiB header).
struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  Shape shape;
};

class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& path) : s_(text), path_(path) {}

  NpyHeader parse() {
    NpyHeader h;
    bool seen[3] = {false, false, false};
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      std::string key = quoted();
      expect(':');
      int k = key == "descr" ? 0 : key == "fortran_order" ? 1 : key == "shape" ? 2 : -1;
      require(k >= 0, "'", path_, "': .npy header has an unknown key '", key, "'");
      require(!seen[k], "'", path_, "': .npy header gives '", key, "' twice");
      seen[k] = true;
      if (k == 0) h.descr = quoted();
      if (k == 1) h.fortran_order = boolean();
      if (k == 2) h.shape = tuple();
      skip_space();
      if (peek() != ',') break;
      ++pos_;
    }
    expect('}');
    skip_space();
    require(pos_ == s_.size(), "'", path_, "': .npy header has text after the dict");
    require(seen[0], "'", path_, "': .npy header has no descr");
    require(seen[1], "'", path_, "': .npy header has no fortran_order");
    require(seen[2], "'", path_, "': .npy header has no shape");
    return h;
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  [[noreturn]] void bad(const char* what) const {
    fail("'", path_, "': .npy header is malformed: expected ", what, " at offset ", pos_);
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) bad(std::string(1, c).c_str());
    ++pos_;
  }
  std::string quoted() {
    skip_space();
    char q = peek();
    if (q != '\'' && q != '"') bad("a quoted string");
    size_t end = s_.find(q, pos_ + 1);
    if (end == std::string::npos) bad("a closing quote");
    std::string out = s_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return out;
  }
  bool boolean() {
    skip_space();
    if (s_.compare(pos_, 4, "True") == 0) return pos_ += 4, true;
    if (s_.compare(pos_, 5, "False") == 0) return pos_ += 5, false;
    bad("True or False");
  }
  Shape tuple() {
    Shape shape;
    expect('(');
    while (true) {
      skip_space();
      if (peek() == ')') break;
      size_t begin = pos_;
      int64_t d = 0;
      while (std::isdigit(static_cast<unsigned char>(peek())) && pos_ - begin < 18) d = d * 10 + (s_[pos_++] - '0');
      if (pos_ == begin || std::isdigit(static_cast<unsigned char>(peek()))) bad("a dim (a non-negative integer)");
      if (peek() == 'L') ++pos_;  // Python 2 long
      require(shape.size() < kMaxRank, "'", path_, "': .npy shape has more than ", kMaxRank, " dims");
      shape.push_back(d);
      skip_space();
      if (peek() != ',') break;
      ++pos_;
    }
    expect(')');
    return shape;
  }

  const std::string& s_;
  const std::string& path_;
  size_t pos_ = 0;
};

}  // namespace

Tensor read_npy(const std::string& path) {
  std::error_code ec;
  require(std::filesystem::is_regular_file(path, ec), "cannot open '", path, "': not a readable file");
  std::ifstream f(path, std::ios::binary);
  require(bool(f), "cannot open '", path, "'");
  char magic[8];
  f.read(magic, 8);
  require(f.gcount() == 8 && std::memcmp(magic, "\x93NUMPY", 6) == 0, "'", path, "' is not a .npy file");
  uint32_t header_len = 0;
  int major = uint8_t(magic[6]);
  if (major == 1) {
    uint8_t b[2] = {0, 0};
    f.read(reinterpret_cast<char*>(b), 2);
    header_len = uint32_t(b[0]) | uint32_t(b[1]) << 8;
  } else {
    require(major == 2 || major == 3, "'", path, "': .npy version ", major, " is not supported");
    uint8_t b[4] = {0, 0, 0, 0};
    f.read(reinterpret_cast<char*>(b), 4);
    header_len = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
  }
  require(bool(f), "'", path, "': .npy header is truncated");
  require(header_len <= kMaxHeader, "'", path, "': .npy header of ", header_len, " bytes is longer than ",
          kMaxHeader);
  std::string header(header_len, '\0');
  f.read(header.data(), header_len);
  require(f.gcount() == std::streamsize(header_len), "'", path, "': .npy header is truncated");

  NpyHeader h = HeaderParser(header, path).parse();
  DType dtype = dtype_of_descr(h.descr);
  require(dtype != DType::undefined, "'", path, "': .npy element type '", h.descr, "' is not supported");
  require(!h.fortran_order, "'", path, "': Fortran-order .npy files are not supported");
  int64_t bytes = 0;
  try {
    bytes = checked_mul(checked_numel(h.shape), int64_t(dtype_size(dtype)), "byte size");
  } catch (const Error& e) {
    fail("'", path, "': .npy shape ", to_string(h.shape), ": ", e.what());
  }

  auto data_start = f.tellg();
  f.seekg(0, std::ios::end);
  int64_t available = int64_t(f.tellg() - data_start);
  require(available == bytes, "'", path, "': shape ", to_string(h.shape), " of ", dtype_name(dtype), " needs ",
          bytes, " bytes, the file holds ", available);
  f.seekg(data_start);
  Tensor t(dtype, h.shape);
  f.read(static_cast<char*>(t.raw()), std::streamsize(bytes));
  require(bool(f) || bytes == 0, "'", path, "': cannot read the data");
  t.canonicalize_bools();
  return t;
}

void write_npy(const std::string& path, const Tensor& t) {
  std::string shape;
  for (int64_t d : t.shape()) shape += std::to_string(d) + ",";
  if (t.rank() > 1) shape.pop_back();
  std::string header = std::string("{'descr': '") + descr_of(t.dtype()) + "', 'fortran_order': False, 'shape': (" +
                       shape + "), }";
  // Pad with spaces so magic + length + header + '\n' is a multiple of 64. Version 1 stores the header
  // length in 2 bytes; headers longer than that (many dims) need version 2's 4 bytes.
  bool v2 = header.size() + 1 + 63 > 0xffff;
  size_t total = (v2 ? 12 : 10) + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  require(bool(f), "cannot write '", path, "'");
  f.write(v2 ? "\x93NUMPY\x02\x00" : "\x93NUMPY\x01\x00", 8);
  const size_t n = header.size();
  char len[4] = {char(n & 0xff), char(n >> 8 & 0xff), char(n >> 16 & 0xff), char(n >> 24 & 0xff)};
  f.write(len, v2 ? 4 : 2);
  f << header;
  f.write(static_cast<const char*>(t.raw()), std::streamsize(t.bytes()));
  require(bool(f), "cannot write '", path, "'");
}

}  // namespace cnnx
