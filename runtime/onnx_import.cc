#include "ops/builtin_ops.h"
#include "runtime/onnx_import.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/wire_format_lite.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "engine/error.h"
#include "engine/op_registry.h"
#include "engine/releasable_pages.h"

namespace cnnx {

namespace fs = std::filesystem;

namespace {

// Highest rank accepted. numpy's own limit is 32 (64 from numpy 2); no model comes close, and a bound keeps
// per-dim work (messages print whole shapes) from turning a 100 MB dims list into hours of CPU.
constexpr int kMaxRank = 64;

// Deepest nesting of subgraphs (a Loop in an If in a Loop is 3). Models nest 1 or 2 deep; the bound keeps a
// hostile chain of bodies from recursing through the importer, the planner and the run without end.
constexpr int kMaxSubgraphDepth = 16;

struct Context {
  std::string model_dir;  // "" when external data is refused
  ImportLimits limits;
  const std::map<std::string, int>* opsets = nullptr;  // the model's, which its subgraphs share
  int depth = 0;                                       // of the graph being read: 0 for the model's
};

// Reads `m` from a CodedInputStream over the whole input: bounded total size and nesting. Protobuf's own log
// line for a tripped limit is silenced: the caller's error is the one a user sees.
template <class Message>
bool parse_stream(Message& m, google::protobuf::io::CodedInputStream& stream, int64_t max_bytes) {
  google::protobuf::LogSilencer silence;
  stream.SetTotalBytesLimit(int(std::min<int64_t>(max_bytes, std::numeric_limits<int>::max())));
  stream.SetRecursionLimit(64);
  return m.ParseFromCodedStream(&stream) && stream.ConsumedEntireMessage();
}

template <class Message>
void parse_message(Message& m, const void* data, size_t size, int64_t max_bytes, const std::string& what) {
  require(int64_t(size) <= max_bytes, what, " is ", size, " bytes, over the limit of ", max_bytes);
  google::protobuf::io::CodedInputStream stream(static_cast<const uint8_t*>(data), int(size));
  require(parse_stream(m, stream, max_bytes), what, " is not a valid ONNX protobuf (truncated or corrupt)");
}

// Parses the file straight from its descriptor, 1 MiB at a time. A copy of the whole file first would be as
// many bytes of fresh pages, zeroed, faulted in and thrown away: 100 MB for resnet50.
template <class Message>
void parse_file(Message& m, const std::string& path, int64_t max_bytes, const std::string& what) {
  std::error_code ec;
  require(fs::is_regular_file(path, ec), "cannot open '", path, "': not a readable file");
  auto size = fs::file_size(path, ec);
  require(!ec, "cannot read '", path, "': ", ec.message());
  require(int64_t(size) <= max_bytes, "'", path, "' is ", size, " bytes, over the limit of ", max_bytes);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  require(fd >= 0, "cannot open '", path, "': ", std::strerror(errno));
  google::protobuf::io::FileInputStream file(fd, 1 << 20);
  file.SetCloseOnDelete(true);
  bool parsed = false;
  {
    google::protobuf::io::CodedInputStream stream(&file);
    parsed = parse_stream(m, stream, max_bytes);
  }
  require(file.GetErrno() == 0, "cannot read '", path, "': ", std::strerror(file.GetErrno()));
  require(parsed, what, " is not a valid ONNX protobuf (truncated or corrupt)");
}

// A model's bytes: a file mapped read-only, or memory the caller holds while the import runs. The parse
// reads the mapping (the pages of its messages, not those of the raw_data it skips); initializers' raw_data,
// most of a model, is read with pread straight into its tensors, so the file's pages never count in this
// process's RSS. (A file truncated by another process while it is mapped would fault the parse: the price of
// not copying it.)
class ModelBytes {
 public:
  ModelBytes(const void* data, size_t size, int64_t max_bytes, const std::string& what)
      : data_(static_cast<const uint8_t*>(data)), size_(size), what_(what) {
    require(int64_t(size) <= max_bytes, what, " is ", size, " bytes, over the limit of ", max_bytes);
  }
  ModelBytes(const std::string& path, int64_t max_bytes) : what_("model '" + path + "'") {
    std::error_code ec;
    require(fs::is_regular_file(path, ec), "cannot open '", path, "': not a readable file");
    const auto size = fs::file_size(path, ec);
    require(!ec, "cannot read '", path, "': ", ec.message());
    require(int64_t(size) <= max_bytes, "'", path, "' is ", size, " bytes, over the limit of ", max_bytes);
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    require(fd_ >= 0, "cannot open '", path, "': ", std::strerror(errno));
    size_ = size_t(size);
    if (size_ == 0) {  // empty, or a file whose size is not its length (/proc's): then refused
      char probe;
      const ssize_t n = ::read(fd_, &probe, 1);
      const int error = errno;
      if (n == 0) return;
      ::close(fd_);
      fail("cannot read '", path, "': ", n < 0 ? std::strerror(error) : "its size is 0 but it has bytes");
    }
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
    if (p == MAP_FAILED) {
      const int error = errno;
      ::close(fd_);
      fail("cannot read '", path, "': ", std::strerror(error));
    }
    data_ = static_cast<const uint8_t*>(p);
  }
  ~ModelBytes() {
    if (fd_ < 0) return;
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
    ::close(fd_);
  }
  ModelBytes(const ModelBytes&) = delete;
  ModelBytes& operator=(const ModelBytes&) = delete;

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& what() const { return what_; }

  // Copies `size` bytes at `offset` (within size()) into `dst`.
  void copy(size_t offset, size_t size, void* dst) const {
    if (fd_ < 0) {
      if (size) std::memcpy(dst, data_ + offset, size);
      return;
    }
    for (size_t done = 0; done < size;) {
      const ssize_t n = ::pread(fd_, static_cast<char*>(dst) + done, size - done, off_t(offset + done));
      if (n < 0 && errno == EINTR) continue;
      require(n > 0, "cannot read ", what_, ": ", n < 0 ? std::strerror(errno) : "the file shrank while loading");
      done += size_t(n);
    }
  }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  int fd_ = -1;  // when the bytes are a file's
  std::string what_;
};

// An initializer's raw_data, where RawDataStripper found it in the model's bytes.
struct RawSpan {
  size_t offset = 0, size = 0;
};

// The model's bytes without the raw_data of its initializers (ModelProto.graph.initializer.raw_data), and
// per initializer in order where that raw_data was (none when it had none). Protobuf would copy each raw_data
// into a string (growing one over 50 MB by doubling) and tensor_from_proto copy it again; this way it is
// copied once, straight into its tensor. Every other field is kept as it was, in order, so `raw` lines up
// with the initializers protobuf parses from `stripped` (a graph given twice is merged, its initializers
// appended, in both).
class RawDataStripper {
 public:
  explicit RawDataStripper(const ModelBytes& bytes) : base_(bytes.data()), in_(base_, int(bytes.size())) {
    in_.SetTotalBytesLimit(int(bytes.size()));
    in_.SetRecursionLimit(64);
  }

  // False where the bytes are not a valid protobuf.
  bool strip(std::string& stripped, std::vector<std::optional<RawSpan>>& raw) {
    raw_ = &raw;
    const auto limit = in_.PushLimit(in_.BytesUntilTotalBytesLimit());
    const bool ok = copy_message(0, stripped);
    in_.PopLimit(limit);
    return ok;
  }

 private:
  using WireFormatLite = google::protobuf::internal::WireFormatLite;
  // Per depth, the field that leads on down: ModelProto.graph, GraphProto.initializer, TensorProto.raw_data.
  static constexpr int kPath[] = {onnx::ModelProto::kGraphFieldNumber, onnx::GraphProto::kInitializerFieldNumber,
                                  onnx::TensorProto::kRawDataFieldNumber};

  // The fields of the message at `depth`, up to the stream's limit, into `out`.
  bool copy_message(int depth, std::string& out) {
    while (in_.BytesUntilLimit() > 0) {
      const int field_start = in_.CurrentPosition();
      const uint32_t tag = in_.ReadTag();
      if (tag == 0) return false;
      if (WireFormatLite::GetTagFieldNumber(tag) != kPath[depth] ||
          WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
        if (!WireFormatLite::SkipField(&in_, tag)) return false;
        append(out, field_start, in_.CurrentPosition());
        continue;
      }
      const int tag_end = in_.CurrentPosition();
      int length = 0;
      if (!in_.ReadVarintSizeAsInt(&length) || length > in_.BytesUntilLimit()) return false;
      if (depth == 2) {  // raw_data: left out, its place kept (the last one given wins, as in protobuf)
        raw_->back() = RawSpan{size_t(in_.CurrentPosition()), size_t(length)};
        in_.Skip(length);
        continue;
      }
      if (depth == 1) raw_->emplace_back();  // an initializer, with no raw_data so far
      const auto limit = in_.PushLimit(length);
      std::string inner;
      const bool ok = copy_message(depth + 1, inner);
      in_.PopLimit(limit);
      if (!ok) return false;
      append(out, field_start, tag_end);
      uint8_t length_varint[5];  // a varint32 takes at most 5 bytes
      const uint8_t* varint_end =
          google::protobuf::io::CodedOutputStream::WriteVarint32ToArray(uint32_t(inner.size()), length_varint);
      out.append(reinterpret_cast<const char*>(length_varint), size_t(varint_end - length_varint));
      out += inner;
    }
    return true;
  }

  void append(std::string& out, int begin, int end) const {
    out.append(reinterpret_cast<const char*>(base_) + begin, size_t(end - begin));
  }

  const uint8_t* base_;
  google::protobuf::io::CodedInputStream in_;
  std::vector<std::optional<RawSpan>>* raw_ = nullptr;
};

// Resolves an external data location inside `dir`; refuses absolute paths, "..", and symlinks leaving it.
fs::path confined_path(const std::string& dir, const std::string& location, const std::string& tensor) {
  require(!dir.empty(), "tensor '", tensor, "': external data is not allowed for a model loaded from memory");
  fs::path rel(location);
  require(!location.empty() && rel.is_relative() && !rel.has_root_name() && !rel.has_root_directory(),
          "tensor '", tensor, "': external data location '", location, "' must be a relative path");
  for (const auto& part : rel)
    require(part != "..", "tensor '", tensor, "': external data location '", location,
            "' may not contain '..'");
  std::error_code ec;
  fs::path base = fs::canonical(dir, ec);
  require(!ec, "tensor '", tensor, "': cannot resolve the model folder '", dir, "'");
  fs::path full = fs::weakly_canonical(base / rel, ec);
  require(!ec, "tensor '", tensor, "': cannot resolve external data '", location, "'");
  auto b = base.begin(), f = full.begin();
  for (; b != base.end(); ++b, ++f)
    require(f != full.end() && *f == *b, "tensor '", tensor, "': external data '", location,
            "' resolves outside the model's folder");
  return full;
}

// A tensor to read an initializer's bytes into: large ones releasable (engine/releasable_pages.h), so the
// plans that prepare them in other layouts can hand their pages back.
Tensor initializer_buffer(DType dtype, const Shape& shape, int64_t bytes) {
  if (size_t(bytes) < kReleasableBytes) return Tensor::uninitialized(dtype, shape);
  return Tensor::adopt(dtype, shape, allocate_releasable(size_t(bytes)));
}

// Reads external data into a fresh tensor of `dtype` and `shape` (`bytes` long), checking the declared
// range against the file before allocating.
Tensor read_external(const onnx::TensorProto& p, const Context& ctx, DType dtype, const Shape& shape,
                     int64_t bytes) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& kv : p.external_data()) {
    if (kv.key() == "location") location = kv.value();
    else if (kv.key() == "offset" || kv.key() == "length") {
      char* end = nullptr;
      errno = 0;
      long long v = std::strtoll(kv.value().c_str(), &end, 10);
      require(errno == 0 && end && *end == '\0' && !kv.value().empty() && v >= 0, "tensor '", p.name(),
              "': external data ", kv.key(), " '", kv.value(), "' is not a non-negative integer");
      (kv.key() == "offset" ? offset : length) = v;
    }
  }
  fs::path path = confined_path(ctx.model_dir, location, p.name());
  std::error_code ec;
  require(fs::is_regular_file(path, ec), "tensor '", p.name(), "': external data file '", location,
          "' is missing or not a regular file");
  int64_t file_size = int64_t(fs::file_size(path, ec));
  require(!ec, "tensor '", p.name(), "': cannot read external data '", location, "': ", ec.message());
  if (length < 0) length = bytes;
  require(length == bytes, "tensor '", p.name(), "': external data length ", length, " does not match its ",
          bytes, " bytes of shape ", to_string(shape));
  require(offset <= file_size && length <= file_size - offset, "tensor '", p.name(), "': external data of ",
          length, " bytes at offset ", offset, " lies beyond the end of '", location, "' (", file_size,
          " bytes)");
  Tensor t = initializer_buffer(dtype, shape, bytes);
  std::ifstream f(path, std::ios::binary);
  f.seekg(offset);
  f.read(static_cast<char*>(t.raw()), std::streamsize(length));
  require(bool(f) || length == 0, "tensor '", p.name(), "': cannot read external data '", location, "'");
  return t;
}

// A tensor from one of TensorProto's typed fields; the count is checked before allocating.
template <class T, class Field>
Tensor from_field(const Field& field, DType dtype, const Shape& shape, const std::string& name,
                  const char* field_name) {
  int64_t numel = checked_numel(shape);
  require(int64_t(field.size()) == numel, "tensor '", name, "': ", field_name, " holds ", field.size(),
          " values but shape ", to_string(shape), " needs ", numel);
  Tensor t(dtype, shape);
  T* dst = static_cast<T*>(t.raw());
  for (int i = 0; i < field.size(); ++i) dst[i] = static_cast<T>(field.Get(i));
  return t;
}

// A float16 or bfloat16 tensor from int32_data, where ONNX stores each element's 16 bits in the low half of
// one int32; a value outside 0..65535 is not a 16-bit pattern and is refused (numpy-written files never hold one).
Tensor from_16_bit_field(const google::protobuf::RepeatedField<int32_t>& field, DType dtype, const Shape& shape,
                         const std::string& name) {
  int64_t numel = checked_numel(shape);
  require(int64_t(field.size()) == numel, "tensor '", name, "': int32_data holds ", field.size(),
          " values but shape ", to_string(shape), " of ", dtype_name(dtype), " needs ", numel);
  Tensor t(dtype, shape);
  uint16_t* dst = static_cast<uint16_t*>(t.raw());
  for (int i = 0; i < field.size(); ++i) {
    const int32_t v = field.Get(i);
    require(v >= 0 && v <= 0xffff, "tensor '", name, "': int32_data[", i, "] = ", v, " is not the bits of a ",
            dtype_name(dtype), " (0..65535)");
    dst[i] = uint16_t(v);
  }
  return t;
}

// " (float8)" and the like for the quantized element types newer ONNX opsets added, which cnnx does not hold
// (QuantizeLinear-19/21 outputs and their zero points), so that a quantized model's refusal says why.
std::string unheld_type_note(int32_t onnx_type) {
  if (onnx_type >= 17 && onnx_type <= 20) return " (float8; cnnx holds no float8 or 4-bit types)";
  if (onnx_type == 21 || onnx_type == 22) return " (4-bit integer; cnnx holds no float8 or 4-bit types)";
  if (onnx_type == 23) return " (float4; cnnx holds no float8 or 4-bit types)";
  return "";
}

// `stripped`: an initializer's raw_data, left in `bytes_of_model` by RawDataStripper, when it had one.
Tensor tensor_from_proto(const onnx::TensorProto& p, const Context& ctx, const ModelBytes* bytes_of_model = nullptr,
                         const std::optional<RawSpan>& stripped = std::nullopt) {
  const std::string& name = p.name();
  require(!p.has_segment(), "tensor '", name, "': segmented tensors are not supported");
  DType dtype = dtype_from_onnx(p.data_type());
  require(dtype != DType::undefined, "tensor '", name, "': element type ", p.data_type(), unheld_type_note(p.data_type()),
          " is not supported");
  Shape shape;
  require(p.dims_size() <= kMaxRank, "tensor '", name, "': rank ", p.dims_size(), " exceeds the limit of ",
          kMaxRank);
  for (int64_t d : p.dims()) {
    require(d >= 0, "tensor '", name, "': dim ", d, " is negative");
    shape.push_back(d);
  }
  int64_t bytes = 0;
  try {
    bytes = checked_mul(checked_numel(shape), int64_t(dtype_size(dtype)), "byte size");
  } catch (const Error& e) {
    fail("tensor '", name, "': shape ", to_string(shape), ": ", e.what());
  }
  require(bytes <= ctx.limits.max_tensor_bytes, "tensor '", name, "': ", bytes,
          " bytes exceeds the tensor limit of ", ctx.limits.max_tensor_bytes);
  // Every path checks the data present before allocating, so a lying header cannot make us allocate.
  if (p.data_location() == onnx::TensorProto::EXTERNAL) {
    Tensor t = read_external(p, ctx, dtype, shape, bytes);
    t.canonicalize_bools();
    return t;
  }
  if (stripped || p.has_raw_data()) {
    const size_t present = stripped ? stripped->size : p.raw_data().size();
    require(int64_t(present) == bytes, "tensor '", name, "': raw_data holds ", present, " bytes but shape ",
            to_string(shape), " of ", dtype_name(dtype), " needs ", bytes);
    Tensor t = initializer_buffer(dtype, shape, bytes);  // little-endian, as ONNX stores it
    if (stripped) bytes_of_model->copy(stripped->offset, stripped->size, t.raw());
    else if (bytes) std::memcpy(t.raw(), p.raw_data().data(), size_t(bytes));
    t.canonicalize_bools();
    return t;
  }
  switch (dtype) {
    case DType::f32: return from_field<float>(p.float_data(), dtype, shape, name, "float_data");
    case DType::f64: return from_field<double>(p.double_data(), dtype, shape, name, "double_data");
    case DType::i64: return from_field<int64_t>(p.int64_data(), dtype, shape, name, "int64_data");
    case DType::i32: return from_field<int32_t>(p.int32_data(), dtype, shape, name, "int32_data");
    case DType::i8: return from_field<int8_t>(p.int32_data(), dtype, shape, name, "int32_data");
    case DType::u8: return from_field<uint8_t>(p.int32_data(), dtype, shape, name, "int32_data");
    case DType::boolean: return from_field<bool>(p.int32_data(), dtype, shape, name, "int32_data");
    case DType::f16:
    case DType::bf16: return from_16_bit_field(p.int32_data(), dtype, shape, name);
    default: fail("tensor '", name, "': unsupported element type");
  }
}

// The value of `type` when it is not an AttributeType: proto2 parsing keeps it among the unknown fields.
std::string invalid_type_value(const onnx::AttributeProto& a) {
  const auto& unknown = a.unknown_fields();
  for (int i = unknown.field_count(); i-- > 0;)
    if (unknown.field(i).number() == onnx::AttributeProto::kTypeFieldNumber &&
        unknown.field(i).type() == google::protobuf::UnknownField::TYPE_VARINT)
      return std::to_string(int64_t(unknown.field(i).varint()));
  return "";
}

// Refuses an attribute whose type is missing, not an AttributeType, or names a field that is not set.
void check_attribute_type(const onnx::AttributeProto& a) {
  using A = onnx::AttributeProto;
  if (!a.has_type() || a.type() == A::UNDEFINED) {
    std::string bad = invalid_type_value(a);
    fail(bad.empty() ? "has no type" : "has type " + bad + ", which is not an ONNX attribute type");
  }
  bool set = true;
  switch (a.type()) {
    case A::FLOAT: set = a.has_f(); break;
    case A::INT: set = a.has_i(); break;
    case A::STRING: set = a.has_s(); break;
    case A::TENSOR: set = a.has_t(); break;
    case A::GRAPH: set = a.has_g(); break;
    case A::SPARSE_TENSOR: set = a.has_sparse_tensor(); break;
    case A::TYPE_PROTO: set = a.has_tp(); break;
    default: break;  // lists may be empty
  }
  require(set, "has type ", A::AttributeType_Name(a.type()), " but no value of that type");
}

// Every attribute but a subgraph (read_graph reads those).
Attribute attribute_from_proto(const onnx::AttributeProto& a, const Context& ctx) {
  using A = onnx::AttributeProto;
  // Lists of subgraphs belong to no ONNX op cnnx runs (Scan, If and Loop take one graph each).
  if (a.type() == A::GRAPHS) fail("is a list of subgraphs (GRAPHS), which no op cnnx runs takes");
  check_attribute_type(a);
  Attribute out;
  switch (a.type()) {
    case A::FLOAT: out.kind = Attribute::Kind::f; out.f = a.f(); break;
    case A::INT: out.kind = Attribute::Kind::i; out.i = a.i(); break;
    case A::STRING: out.kind = Attribute::Kind::s; out.s = a.s(); break;
    case A::TENSOR: out.kind = Attribute::Kind::t; out.t = tensor_from_proto(a.t(), ctx); break;
    case A::FLOATS: out.kind = Attribute::Kind::floats; out.floats.assign(a.floats().begin(), a.floats().end()); break;
    case A::INTS: out.kind = Attribute::Kind::ints; out.ints.assign(a.ints().begin(), a.ints().end()); break;
    case A::STRINGS: out.kind = Attribute::Kind::strings; out.strings.assign(a.strings().begin(), a.strings().end()); break;
    default:
      out.kind = Attribute::Kind::unsupported;
      out.onnx_type = A::AttributeType_Name(a.type());
  }
  return out;
}

// The dim_param names of a declared shape ("" where a dim has none); none past the rank limit.
std::vector<std::string> dim_params_of(const onnx::ValueInfoProto& v) {
  std::vector<std::string> names;
  const auto& tt = v.type().tensor_type();
  if (v.type().has_tensor_type() && tt.has_shape() && tt.shape().dim_size() <= kMaxRank)
    for (const auto& d : tt.shape().dim()) names.push_back(d.has_dim_param() ? d.dim_param() : "");
  return names;
}

ValueInfo info_from_type(const onnx::ValueInfoProto& v) {
  require(v.type().has_tensor_type(), "tensor '", v.name(),
          "': only tensors are supported (not sequences, maps, optionals or sparse tensors)");
  const auto& tt = v.type().tensor_type();
  DType dtype = dtype_from_onnx(tt.elem_type());
  require(dtype != DType::undefined, "tensor '", v.name(), "': element type ", tt.elem_type(),
          unheld_type_note(tt.elem_type()), " is not supported");
  if (!tt.has_shape()) return ValueInfo::unknown(dtype);
  Shape shape;
  require(tt.shape().dim_size() <= kMaxRank, "tensor '", v.name(), "': rank ", tt.shape().dim_size(),
          " exceeds the limit of ", kMaxRank);
  for (const auto& d : tt.shape().dim()) {
    if (d.has_dim_value()) {
      require(d.dim_value() >= 0, "tensor '", v.name(), "': dim ", d.dim_value(), " is negative");
      require(d.dim_value() <= kMaxSize, "tensor '", v.name(), "': dim ", d.dim_value(), " is too large");
      shape.push_back(d.dim_value());
    } else {
      shape.push_back(kUnknownDim);  // dim_param or nothing: bound at run time
    }
  }
  return ValueInfo::of(dtype, shape);
}

void read_graph(Graph& g, const onnx::GraphProto& gp, const Context& ctx, const ModelBytes* bytes,
                const std::vector<std::optional<RawSpan>>& raw);
std::shared_ptr<Graph> subgraph_from_proto(const onnx::GraphProto& gp, const Context& ctx);

// The names a subgraph reads without defining them (not its inputs, initializers or node outputs), in the
// order first read, become its last graph inputs (Graph::captured): values of the scopes around it, which
// ONNX resolves by name from the innermost scope out. Placeholder infos (unknown rank); inference per use
// (infer_graph_outputs) gets the real ones from the node holding the subgraph.
void capture_outer_names(Graph& g) {
  std::vector<bool> defined(g.values.size(), false);
  for (int id : g.inputs) defined[size_t(id)] = true;
  for (size_t id = 0; id < g.values.size(); ++id)
    if (g.values[id].info.constant) defined[id] = true;
  for (const Node& node : g.nodes)
    for (int id : node.outputs)
      if (id >= 0) defined[size_t(id)] = true;
  auto capture = [&](int id) {
    if (id < 0 || defined[size_t(id)]) return;
    defined[size_t(id)] = true;
    g.inputs.push_back(id);
    ++g.captured;
  };
  for (const Node& node : g.nodes)
    for (int id : node.inputs) capture(id);
  for (int id : g.outputs) capture(id);
}

// Gives every subgraph of `node` the same captured inputs, the union of theirs in order, and builds them
// (ops resolved and parsed, nodes sorted; shapes are inferred per use). Returns the names the node must take
// as its last inputs, in that order.
std::vector<std::string> share_captures(const Node& node,
                                        const std::vector<std::pair<std::string, std::shared_ptr<Graph>>>& bodies) {
  std::vector<std::string> names;
  for (const auto& [attr, body] : bodies)
    for (size_t i = body->inputs.size() - body->captured; i < body->inputs.size(); ++i) {
      const std::string& name = body->values[size_t(body->inputs[i])].name;
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  for (const auto& [attr, body] : bodies) {
    body->inputs.resize(body->inputs.size() - body->captured);
    for (const std::string& name : names) {
      int id = body->find_value(name);
      if (id < 0) {
        id = int(body->values.size());
        body->values.push_back(Value{name, {}, -1});
      }
      body->values[size_t(id)].info = ValueInfo::unknown(DType::f32);  // a placeholder: see capture_outer_names
      body->inputs.push_back(id);
    }
    body->captured = names.size();
    try {
      build_subgraph(*body, builtin_ops());
    } catch (const Error& e) {
      fail(node.label(), ": attribute '", attr, "': ", e.what());
    }
  }
  return names;
}

// `m` was parsed from `bytes` stripped of its initializers' raw_data, which `raw` locates (RawDataStripper).
Graph graph_from_model(const onnx::ModelProto& m, const Context& ctx, const ModelBytes& bytes,
                       const std::vector<std::optional<RawSpan>>& raw) {
  Graph g;
  require(m.has_graph(), "the model has no graph");
  for (const auto& op : m.opset_import()) {
    std::string domain = op.domain() == "ai.onnx" ? "" : op.domain();
    require(!g.opsets.count(domain), "opset of domain '", domain, "' is imported twice");
    g.opsets[domain] = int(op.version());
    if (domain.empty()) {
      require(op.version() <= kMaxOpset, "the model imports opset ", op.version(),
              ", newer than the newest cnnx knows (", kMaxOpset, ")");
      require(op.version() >= kMinOpset, "the model imports opset ", op.version(),
              ", older than the oldest cnnx supports (", kMinOpset, ")");
    }
  }
  require(g.opsets.count(""), "the model does not import the default ONNX opset");
  for (const auto& p : m.metadata_props()) g.metadata[p.key()] = p.value();
  g.producer = m.producer_name();
  g.producer_version = m.producer_version();
  g.domain = m.domain();
  g.description = m.doc_string();
  g.model_version = m.model_version();

  Context graph_ctx = ctx;
  graph_ctx.opsets = &g.opsets;
  read_graph(g, m.graph(), graph_ctx, &bytes, raw);
  return g;
}

// Reads the values and nodes of `gp` into `g`, whose opsets are set. `raw` locates the raw_data of the model
// graph's initializers (RawDataStripper); a subgraph's keep theirs in the message (`bytes` null).
void read_graph(Graph& g, const onnx::GraphProto& gp, const Context& ctx, const ModelBytes* bytes,
                const std::vector<std::optional<RawSpan>>& raw) {
  g.name = gp.name();
  g.graph_description = gp.doc_string();
  require(gp.sparse_initializer_size() == 0, "sparse initializers are not supported");
  std::unordered_map<std::string, int> ids;
  auto value_id = [&](const std::string& name) {
    auto [it, inserted] = ids.emplace(name, int(g.values.size()));
    if (inserted) g.values.push_back(Value{name, {}, -1});
    return it->second;
  };
  require(!bytes || size_t(gp.initializer_size()) == raw.size(), "the graph's initializers could not be located");
  for (int i = 0; i < gp.initializer_size(); ++i) {
    const onnx::TensorProto& init = gp.initializer(i);
    require(!init.name().empty(), "an initializer has no name");
    int id = value_id(init.name());
    require(!g.values[size_t(id)].info.constant, "initializer '", init.name(), "' is defined twice");
    g.values[size_t(id)].info =
        ValueInfo::of(bytes ? tensor_from_proto(init, ctx, bytes, raw[size_t(i)]) : tensor_from_proto(init, ctx));
  }
  std::unordered_set<int> listed;  // graph inputs as id, outputs as -1 - id
  for (const auto& in : gp.input()) {
    require(!in.name().empty(), "a graph input has no name");
    int id = value_id(in.name());
    if (g.values[size_t(id)].info.constant) continue;  // IR < 4 lists initializers as inputs: a constant
    require(listed.insert(id).second, "graph input '", in.name(), "' is listed twice");
    g.values[size_t(id)].info = info_from_type(in);
    g.dim_params[id] = dim_params_of(in);
    g.inputs.push_back(id);
  }
  for (const auto& node_proto : gp.node()) {
    Node node;
    node.name = node_proto.name();
    node.op_type = node_proto.op_type();
    node.domain = node_proto.domain() == "ai.onnx" ? "" : node_proto.domain();
    if (node.name.empty()) node.name = node.op_type + "_" + std::to_string(g.nodes.size());
    require(!node.op_type.empty(), node.label(), ": the node has no op_type");
    for (const auto& name : node_proto.input()) node.inputs.push_back(name.empty() ? -1 : value_id(name));
    for (const auto& name : node_proto.output()) node.outputs.push_back(name.empty() ? -1 : value_id(name));
    std::vector<std::pair<std::string, std::shared_ptr<Graph>>> bodies;
    for (const auto& a : node_proto.attribute()) {
      require(!a.name().empty(), node.label(), ": an attribute has no name");
      require(!node.attrs.has(a.name()), node.label(), ": attribute '", a.name(), "' is given twice");
      try {
        if (a.type() == onnx::AttributeProto::GRAPH && a.has_g()) {
          bodies.emplace_back(a.name(), subgraph_from_proto(a.g(), ctx));
          Attribute body;
          body.kind = Attribute::Kind::graph;
          body.g = bodies.back().second;
          node.attrs.set(a.name(), std::move(body));
        } else {
          node.attrs.set(a.name(), attribute_from_proto(a, ctx));
        }
      } catch (const Error& e) {
        fail(node.label(), ": attribute '", a.name(), "': ", e.what());
      }
    }
    for (const std::string& name : share_captures(node, bodies)) node.inputs.push_back(value_id(name));
    g.nodes.push_back(std::move(node));
  }
  for (const auto& out : gp.output()) {
    require(!out.name().empty(), "a graph output has no name");
    if (ctx.depth > 0) value_id(out.name());  // a subgraph may output a value of an enclosing scope as it is
    auto it = ids.find(out.name());
    require(it != ids.end(), "graph output '", out.name(), "' is not produced by any node");
    require(listed.insert(-1 - it->second).second, "graph output '", out.name(), "' is listed twice");
    g.outputs.push_back(it->second);
    Value& v = g.values[size_t(it->second)];
    if (v.info.dtype == DType::undefined && out.type().has_tensor_type()) v.info = info_from_type(out);
    g.dim_params[it->second] = dim_params_of(out);
  }
  require(!g.outputs.empty(), "the graph has no outputs");
  if (ctx.depth > 0) capture_outer_names(g);
}

std::shared_ptr<Graph> subgraph_from_proto(const onnx::GraphProto& gp, const Context& ctx) {
  require(ctx.depth < kMaxSubgraphDepth, "subgraphs are nested more than ", kMaxSubgraphDepth, " deep");
  auto g = std::make_shared<Graph>();
  g->opsets = *ctx.opsets;
  Context inner = ctx;
  inner.depth = ctx.depth + 1;
  read_graph(*g, gp, inner, nullptr, {});
  return g;
}

Graph import_model(const ModelBytes& bytes, const Context& ctx) {
  std::string stripped;
  std::vector<std::optional<RawSpan>> raw;
  require(RawDataStripper(bytes).strip(stripped, raw), bytes.what(),
          " is not a valid ONNX protobuf (truncated or corrupt)");
  onnx::ModelProto m;
  parse_message(m, stripped.data(), stripped.size(), ctx.limits.max_model_bytes, bytes.what());
  Graph g = graph_from_model(m, ctx, bytes, raw);
  build_graph(g, builtin_ops(), ctx.limits.max_tensor_bytes);
  return g;
}

}  // namespace

Graph import_onnx_file(const std::string& path, const ImportLimits& limits) {
  const ModelBytes bytes(path, limits.max_model_bytes);
  fs::path dir = fs::path(path).parent_path();
  return import_model(bytes, Context{dir.empty() ? "." : dir.string(), limits});
}

Graph import_onnx_bytes(const void* data, size_t size, const std::string& external_data_dir,
                        const ImportLimits& limits) {
  require(data != nullptr || size == 0, "model bytes are null");
  const ModelBytes bytes(data, size, limits.max_model_bytes, "the model");
  return import_model(bytes, Context{external_data_dir, limits});
}

ModelOutline outline_onnx_file(const std::string& path, const ImportLimits& limits) {
  onnx::ModelProto m;
  parse_file(m, path, limits.max_model_bytes, "model '" + path + "'");
  ModelOutline outline;
  // The ops of the graph and of its subgraphs, nested at most kMaxSubgraphDepth deep.
  std::vector<std::pair<const onnx::GraphProto*, int>> graphs{{&m.graph(), 0}};
  while (!graphs.empty()) {
    const auto [g, depth] = graphs.back();
    graphs.pop_back();
    for (const auto& n : g->node()) {
      outline.ops.emplace_back(n.domain() == "ai.onnx" ? "" : n.domain(), n.op_type());
      for (const auto& a : n.attribute())
        if (a.has_g() && depth < kMaxSubgraphDepth) graphs.emplace_back(&a.g(), depth + 1);
    }
  }
  for (const auto* list : {&m.graph().input(), &m.graph().output()})
    for (const auto& v : *list)
      outline.io_element_types.push_back(v.type().has_tensor_type() ? v.type().tensor_type().elem_type() : -1);
  return outline;
}

Tensor import_tensor_file(const std::string& path, std::string* name, const ImportLimits& limits) {
  onnx::TensorProto p;
  parse_file(p, path, limits.max_model_bytes, "tensor file '" + path + "'");
  if (name) *name = p.name();
  fs::path dir = fs::path(path).parent_path();
  return tensor_from_proto(p, Context{dir.empty() ? "." : dir.string(), limits});
}

}  // namespace cnnx
