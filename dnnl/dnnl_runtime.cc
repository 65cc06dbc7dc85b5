#include "dnnl/dnnl_runtime.h"

#include "dnnl/cpu_blocks.h"
#include "engine/error.h"
#include "engine/hot_buffer.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace cnnx {

bool dnnl_cpu_has_native_bfloat16() {
  const dnnl::cpu_isa isa = dnnl::get_effective_cpu_isa();
  return isa == dnnl::cpu_isa::avx512_core_bf16 || isa == dnnl::cpu_isa::avx512_core_amx;
}

dnnl::engine& dnnl_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::memory::desc plain_f32_desc(const std::vector<int64_t>& shape) {
  dnnl::memory::dims dims(shape.begin(), shape.end());
  require(dims.size() <= DNNL_MAX_NDIMS, "rank ", dims.size(), " is beyond oneDNN's ", DNNL_MAX_NDIMS);
  // oneDNN cannot describe rank-0 tensors; a scalar is a 1-element vector to it.
  if (dims.empty()) dims.push_back(1);
  dnnl::memory::dims strides(dims.size(), 1);
  for (size_t i = dims.size() - 1; i-- > 0;) strides[i] = strides[i + 1] * dims[i + 1];
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, strides);
}

dnnl::primitive_attr dnnl_attr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

OwnedMemory::OwnedMemory(const dnnl::memory::desc& md, const CompileContext& context)
    : buffer(allocate_hot_buffer(md.get_size(), context.packing)), memory(md, dnnl_engine(), buffer.get()) {}

DnnlMemoryArg dnnl_wrap(const dnnl::memory::desc& md, const Tensor& t) {
  // A float32 value stored in bfloat16 (dnnl/layouts.h) has two bytes an element, padding aside.
  const size_t least = md.data_type() == dnnl::memory::data_type::bf16 && t.dtype() == DType::f32 ? t.bytes() / 2 : t.bytes();
  const bool fits = md.get_size() == t.bytes() || (!is_plain(layout_of(md)) && md.get_size() >= least);
  if (!fits) fail("oneDNN memory of ", md.get_size(), " bytes over a tensor of ", t.bytes());
  // oneDNN takes a non-const handle for every memory; inputs are only read (they are primitive sources).
  return DnnlMemoryArg(md, const_cast<void*>(t.raw()));
}

DnnlMemoryArg dnnl_wrap(const dnnl::memory::desc& md, const Tensor& t, size_t offset) {
  // A float32 value stored in bfloat16 (plain: parts of it are wrapped) has two bytes an element.
  const size_t bytes = md.data_type() == dnnl::memory::data_type::bf16 && t.dtype() == DType::f32 ? t.bytes() / 2 : t.bytes();
  if (offset > bytes || md.get_size() > bytes - offset)
    fail("oneDNN memory of ", md.get_size(), " bytes at byte ", offset, " of a tensor of ", t.bytes());
  return DnnlMemoryArg(md, static_cast<char*>(const_cast<void*>(t.raw())) + offset);
}

namespace {

// A oneDNN memory descriptor as the core's opaque layout handle.
class DnnlLayout : public LayoutDesc {
 public:
  explicit DnnlLayout(const dnnl::memory::desc& md) : md_(md) {}
  const dnnl::memory::desc& md() const { return md_; }
  bool equals(const LayoutDesc& other) const override {
    const auto* o = dynamic_cast<const DnnlLayout*>(&other);
    return o && o->md_ == md_;
  }
  size_t bytes() const override { return md_.get_size(); }
  std::string name() const override { return dnnl_layout_name(md_); }

 private:
  dnnl::memory::desc md_;
};

}  // namespace

const dnnl::memory::desc& md_of(const Layout& layout) {
  static const dnnl::memory::desc zero;
  if (is_plain(layout)) return zero;
  const auto* d = dynamic_cast<const DnnlLayout*>(layout.desc());
  require(d != nullptr, "internal error: a layout not made by the oneDNN runtime");
  return d->md();
}

dnnl::memory::desc dnnl_desc(const Layout& layout, const Shape& shape) {
  return is_plain(layout) ? plain_f32_desc(shape) : md_of(layout);
}

namespace {

// True when `md` holds its elements where the plain descriptor of its dims does (of any element type: an int8
// kernel's channels-last u8 of one pixel is plain): dense row-major but for the strides of dims of size 1,
// which address nothing (a Transpose moving a unit dim).
bool plain_bytes(const dnnl::memory::desc& md) {
  const dnnl_memory_desc_t& d = md.data;
  if (d.format_kind != dnnl_blocked || d.format_desc.blocking.inner_nblks > 0 ||
      d.offset0 != 0)
    return false;
  for (int i = 0; i < d.ndims; ++i)
    if (d.padded_dims[i] != d.dims[i]) return false;
  int64_t stride = 1;
  for (int i = d.ndims; i-- > 0;) {
    if (d.dims[i] != 1 && d.format_desc.blocking.strides[i] != stride) return false;
    stride *= d.dims[i];
  }
  return true;
}

}  // namespace

Layout layout_of(const dnnl::memory::desc& md) {
  if (md.is_zero() || (plain_bytes(md) && md.data_type() != dnnl::memory::data_type::bf16)) return Layout();
  return Layout(std::make_shared<const DnnlLayout>(md));
}

Layout transposed_plain_layout(const Shape& shape, const std::vector<int64_t>& perm) {
  if (shape.empty() || shape.size() > DNNL_MAX_NDIMS) return Layout();
  Shape out;
  for (int64_t a : perm) out.push_back(shape.at(size_t(a)));
  // permute_axes sends axis i of the plain output to position perm[i]: the input's axis it came from.
  return layout_of(plain_f32_desc(out).permute_axes(std::vector<int>(perm.begin(), perm.end())));
}

Layout channels_last_layout(const Shape& shape) {
  std::vector<int64_t> perm{0};
  for (int64_t a = 2; a < int64_t(shape.size()); ++a) perm.push_back(a);
  perm.push_back(1);
  return transposed_plain_layout(shape, perm);
}

SubmemoryView submemory_view(const Layout& layout, const Shape& shape, const dnnl::memory::dims& dims,
                             const dnnl::memory::dims& offsets) {
  SubmemoryView v{dnnl_desc(layout, shape), {}};
  try {
    v.view = v.input.submemory_desc(dims, offsets);
  } catch (const dnnl::error&) {
    v.input = plain_f32_desc(shape);
    v.view = v.input.submemory_desc(dims, offsets);
  }
  return v;
}

dnnl::memory::desc same_order_desc(const Layout& like_layout, const Shape& shape) {
  const dnnl::memory::desc& like = md_of(like_layout);
  if (is_plain(like_layout) || like.data.format_kind != dnnl_blocked || like.data.format_desc.blocking.inner_nblks > 0 ||
      like.data.ndims != int(shape.size()))
    return plain_f32_desc(shape);
  const dnnl_blocking_desc_t& b = like.data.format_desc.blocking;
  std::vector<int> order(shape.size());  // dims from outermost to innermost in `like`
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return b.strides[x] > b.strides[y]; });
  dnnl::memory::dims strides(shape.size());
  int64_t stride = 1;
  for (size_t k = order.size(); k-- > 0;) {
    strides[size_t(order[k])] = stride;
    stride *= std::max<int64_t>(1, shape[size_t(order[k])]);
  }
  return dnnl::memory::desc(dnnl::memory::dims(shape.begin(), shape.end()), dnnl::memory::data_type::f32, strides);
}

namespace {

// nC[D][H]W4c, 8c, 16c by block (rows) and rank 3 to 5 (columns).
const tag kChannelBlocked[3][3] = {{tag::aBc4b, tag::aBcd4b, tag::aBcde4b},
                                   {tag::aBc8b, tag::aBcd8b, tag::aBcde8b},
                                   {tag::aBc16b, tag::aBcd16b, tag::aBcde16b}};
const int64_t kChannelBlocks[3] = {4, 8, 16};

// nC[D][H]W<block>c of `shape` (rank 3 to 5, block 4, 8 or 16: checked by the callers).
dnnl::memory::desc blocked_desc(const Shape& shape, int64_t block) {
  const int64_t b = std::find(kChannelBlocks, kChannelBlocks + 3, block) - kChannelBlocks;
  return dnnl::memory::desc(dnnl::memory::dims(shape.begin(), shape.end()), dnnl::memory::data_type::f32,
                            kChannelBlocked[b][shape.size() - 3]);
}

}  // namespace

dnnl::memory::desc channel_blocked_desc(const Shape& shape) {
  require(shape.size() >= 3 && shape.size() <= 5, "channel-blocked layouts need rank 3 to 5, got ", shape.size());
  return blocked_desc(shape, 16);
}

int64_t channel_block(const Layout& l, const Shape& shape) {
  if (!has_inner_blocks(l) || shape.size() < 3 || shape.size() > 5) return 0;
  for (int64_t b : kChannelBlocks)
    if (md_of(l) == blocked_desc(shape, b)) return b;
  return 0;
}

Layout channel_blocked_layout(const Shape& shape) { return layout_of(channel_blocked_desc(shape)); }

Layout channel_blocked_layout(const Shape& shape, int64_t block) {
  if (shape.size() < 3 || shape.size() > 5 || (block != 4 && block != 8 && block != 16)) return Layout();
  return layout_of(blocked_desc(shape, block));
}

Layout bfloat16_layout(const Layout& layout, const Shape& shape) {
  return layout_of(with_data_type(dnnl_desc(layout, shape), dnnl::memory::data_type::bf16));
}

bool stores_bfloat16(const Layout& layout) {
  return !is_plain(layout) && md_of(layout).data_type() == dnnl::memory::data_type::bf16;
}

Layout float32_layout(const Layout& layout) {
  return stores_bfloat16(layout) ? layout_of(with_data_type(md_of(layout), dnnl::memory::data_type::f32)) : layout;
}

std::string dnnl_cpu_isa() {
  static const std::string name = [] {
    switch (dnnl::get_effective_cpu_isa()) {
      case dnnl::cpu_isa::sse41: return "sse41";
      case dnnl::cpu_isa::avx: return "avx";
      case dnnl::cpu_isa::avx2: return "avx2";
      case dnnl::cpu_isa::avx2_vnni: return "avx2_vnni";
      case dnnl::cpu_isa::avx512_mic: return "avx512_mic";
      case dnnl::cpu_isa::avx512_mic_4ops: return "avx512_mic_4ops";
      case dnnl::cpu_isa::avx512_core: return "avx512_core";
      case dnnl::cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
      case dnnl::cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
      case dnnl::cpu_isa::avx512_core_amx: return "avx512_core_amx";
      default: return "other";
    }
  }();
  return name;
}

int64_t cpu_channel_block() { return dnnl_cpu_isa().rfind("avx512", 0) == 0 ? 16 : 8; }

bool has_inner_blocks(const Layout& l) {
  const dnnl::memory::desc& layout = md_of(l);
  return !is_plain(l) && layout.data.format_kind == dnnl_blocked && layout.data.format_desc.blocking.inner_nblks > 0;
}

ReorderCopy::ReorderCopy(const dnnl::memory::desc& input, const dnnl::memory::desc& from,
                         const dnnl::memory::desc& to, size_t inputs)
    : input_(input), from_(from), to_(to), layouts_{std::vector<Layout>(inputs), {layout_of(to)}} {
  layouts_.in[0] = layout_of(input);
  reorder_ = DnnlReorder(from_, to_);
}

void ReorderCopy::run(const KernelIO& io) const {
  // `from` views the input's buffer: same bytes, other dims/offsets. Equal descriptors are a plain copy.
  if (!reorder_) {
    std::memcpy(io.out[0]->raw(), io.in[0]->raw(), to_.get_size());
    return;
  }
  reorder_.run(io.context, DnnlMemoryArg(from_, const_cast<void*>(io.in[0]->raw())), dnnl_wrap(to_, *io.out[0]));
}

namespace {

// Where element `pos` of a blocked descriptor sits, in elements from the buffer's start (oneDNN's
// memory_desc_wrapper::off_v: inner blocks innermost first, then the outer strides).
int64_t element_offset(const dnnl_memory_desc_t& d, std::vector<int64_t> pos) {
  const dnnl_blocking_desc_t& b = d.format_desc.blocking;
  int64_t offset = d.offset0, block_stride = 1;
  for (int k = b.inner_nblks - 1; k >= 0; --k) {
    const int dim = int(b.inner_idxs[k]);
    offset += pos[size_t(dim)] % b.inner_blks[k] * block_stride;
    pos[size_t(dim)] /= b.inner_blks[k];
    block_stride *= b.inner_blks[k];
  }
  for (int dim = 0; dim < d.ndims; ++dim) offset += pos[size_t(dim)] * b.strides[dim];
  return offset;
}

// True when `a` and `b` put every element at the same byte: [1, C, 1, 1] in nChw8c and plain when C % 8 == 0,
// a one-pixel value channels-last and plain. Unpadded blocked descriptors of one type only, and at most
// 2^20 elements (compared one by one, once per plan); false otherwise.
bool same_bytes(const dnnl::memory::desc& a, const dnnl::memory::desc& b) {
  const dnnl_memory_desc_t &x = a.data, &y = b.data;
  if (x.format_kind != dnnl_blocked || y.format_kind != dnnl_blocked || x.data_type != y.data_type ||
      x.ndims != y.ndims || a.get_size() != b.get_size())
    return false;
  int64_t count = 1;
  for (int i = 0; i < x.ndims; ++i) {
    if (x.dims[i] != y.dims[i] || x.padded_dims[i] != x.dims[i] || y.padded_dims[i] != y.dims[i] ||
        x.padded_offsets[i] != 0 || y.padded_offsets[i] != 0)
      return false;
    count *= x.dims[i];
  }
  if (count > (int64_t(1) << 20)) return false;
  std::vector<int64_t> pos(size_t(x.ndims), 0);
  for (int64_t e = 0; e < count; ++e) {
    if (element_offset(x, pos) != element_offset(y, pos)) return false;
    for (int i = x.ndims - 1; i >= 0 && ++pos[size_t(i)] == x.dims[i]; --i) pos[size_t(i)] = 0;
  }
  return true;
}

// A reorder between layouts that hold the value in the same bytes: the plan may give both values one buffer
// and skip it (views_input); called on two buffers, it copies them.
class SameBytesReorder : public ReorderCopy {
 public:
  using ReorderCopy::ReorderCopy;
  bool views_input() const override { return true; }
  void run(const KernelIO& io) const override {
    if (io.out[0]->raw() != io.in[0]->raw()) std::memcpy(io.out[0]->raw(), io.in[0]->raw(), to_.get_size());
  }
};

}  // namespace

std::unique_ptr<CompiledKernel> make_reorder(const Layout& from, const Layout& to, const Shape& shape, DType dtype) {
  try {
    // Plain is row-major of the value's own element type; a non-plain layout's descriptor carries its type.
    dnnl::memory::data_type type = dnnl::memory::data_type::f32;
    if (dtype == DType::u8) type = dnnl::memory::data_type::u8;
    else if (dtype == DType::i8) type = dnnl::memory::data_type::s8;
    else require(dtype == DType::f32, "oneDNN reorders float32, int8 and uint8 values, not ", dtype_name(dtype));
    const auto desc = [&](const Layout& l) {
      dnnl::memory::desc d = dnnl_desc(l, shape);
      if (is_plain(l)) {
        const dnnl_blocking_desc_t& b = d.data.format_desc.blocking;
        d = dnnl::memory::desc(d.dims(), type, dnnl::memory::dims(b.strides, b.strides + d.data.ndims));
      }
      // A float32 value may be stored in bfloat16: the reorder converts (to nearest even, towards bfloat16).
      require(d.data_type() == type || (stores_bfloat16(l) && dtype == DType::f32), "layout ", l.name(),
              " does not hold ", dtype_name(dtype));
      return d;
    };
    const dnnl::memory::desc input = desc(from), output = desc(to);
    if (input == output || same_bytes(input, output)) return std::make_unique<SameBytesReorder>(input, input, output, 1);
    return std::make_unique<ReorderCopy>(input, input, output, 1);
  } catch (const dnnl::error& e) {
    fail("cannot reorder ", to_string(shape), " from ", from.name(), " to ", to.name(), ": ", e.what());
  }
}

dnnl::memory::desc follow(const Layout& arriving, const dnnl::memory::desc& plain_view) {
  return is_plain(arriving) ? plain_view : md_of(arriving);
}

KernelLayouts follow_layouts(const Layout& layout, size_t inputs, size_t outputs) {
  KernelLayouts l{std::vector<Layout>(inputs), std::vector<Layout>(outputs)};
  l.in[0] = l.out[0] = layout;
  return l;
}

std::string dnnl_layout_name(const dnnl::memory::desc& layout) {
  if (layout.is_zero()) return "plain";
  const dnnl_memory_desc_t& d = layout.data;
  if (d.format_kind != dnnl_blocked) return "opaque";
  const dnnl_blocking_desc_t& b = d.format_desc.blocking;
  std::vector<int> order(size_t(d.ndims));
  for (int i = 0; i < d.ndims; ++i) order[size_t(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return b.strides[x] > b.strides[y]; });
  std::string name;
  for (int i : order) {
    bool blocked = false;
    for (int k = 0; k < b.inner_nblks; ++k) blocked = blocked || b.inner_idxs[k] == i;
    name += char((blocked ? 'A' : 'a') + i);
  }
  for (int k = 0; k < b.inner_nblks; ++k) name += std::to_string(b.inner_blks[k]) + char('a' + b.inner_idxs[k]);
  return d.data_type == dnnl_bf16 ? name + ":bf16" : name;
}

DnnlReorder::DnnlReorder(const dnnl::memory::desc& from, const dnnl::memory::desc& to) : needed_(from != to) {
  if (!needed_) return;
  dnnl::reorder::primitive_desc pd(dnnl_engine(), from, dnnl_engine(), to, dnnl_attr());
  prim_ = dnnl::reorder(pd);
  scratchpad_ = pd.scratchpad_desc();
}

void DnnlReorder::run(RunContext* context, const DnnlMemoryArg& from, const DnnlMemoryArg& to) const {
  dnnl_execute(context, prim_, scratchpad_, {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
}

dnnl::memory::desc with_data_type(dnnl::memory::desc md, dnnl::memory::data_type type) {
  md.data.data_type = dnnl::memory::convert_to_c(type);
  return md;
}

DnnlMemoryArg DnnlBfloat16Operand::convert(RunContext* context, const DnnlMemoryArg& from,
                                           std::optional<DnnlWorkspace>& space) const {
  if (!to_read_) return from;
  space.emplace(context, read_.get_size());
  const DnnlMemoryArg to(read_, space->data());
  to_read_.run(context, from, to);
  return to;
}

std::string dnnl_declines_inputs(const std::vector<ValueInfo>& in, size_t first, size_t count) {
  for (size_t i = first; i < in.size() && i - first < count; ++i) {
    if (!present(in, i)) continue;
    const ValueInfo& v = in[i];
    if (v.dtype != DType::f32) return "input " + std::to_string(i) + " is " + dtype_name(v.dtype) + ", not float32";
    if (!v.concrete()) return "input " + std::to_string(i) + " has no concrete shape";
    if (v.rank() > DNNL_MAX_NDIMS)
      return "input " + std::to_string(i) + " has rank " + std::to_string(v.rank()) + " > oneDNN's " +
             std::to_string(DNNL_MAX_NDIMS);
    if (checked_numel(v.shape) == 0) return "input " + std::to_string(i) + " is empty " + to_string(v.shape);
  }
  return "";
}

}  // namespace cnnx
