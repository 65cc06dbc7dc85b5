// oneDNN kernel of Add, Sub, Mul, Div, the comparisons (and Sum, Max, Min of two inputs): the binary
// primitive on plain tensors, or in the blocked layout input A arrives in (plain for the comparisons' bool).
// oneDNN wants src0, src1 and dst of one rank and broadcasts only src1 (each of its dims equals dst's or is
// 1): the smaller-rank input gets leading 1s (numpy aligns shapes on the right; before opset 7, B is placed
// at `axis`), and when A would need broadcasting the commutative ops swap their operands.
#include "ops/eltwise/binary.h"
#include "ops/common/broadcast.h"
#include "ops/common/special_values.h"
#include "dnnl/primitive_kernel.h"

namespace cnnx {

namespace {

using namespace dnnl;

algorithm binary_algorithm(BinaryKind kind) {
  switch (kind) {
    case BinaryKind::add: return algorithm::binary_add;
    case BinaryKind::sub: return algorithm::binary_sub;
    case BinaryKind::mul: return algorithm::binary_mul;
    case BinaryKind::div: return algorithm::binary_div;
    case BinaryKind::max: return algorithm::binary_max;
    case BinaryKind::min: return algorithm::binary_min;
    case BinaryKind::equal: return algorithm::binary_eq;
    case BinaryKind::less: return algorithm::binary_lt;
    case BinaryKind::less_equal: return algorithm::binary_le;
    case BinaryKind::greater: return algorithm::binary_gt;
    case BinaryKind::greater_equal: return algorithm::binary_ge;
    default: break;
  }
  return algorithm::undef;
}

// oneDNN 2.6's binary_gt and binary_ge compare unordered (true when an operand is NaN; ONNX and numpy give
// false), binary_eq, binary_lt and binary_le ordered (false, as ONNX). So Greater and GreaterOrEqual run only
// as Less and LessOrEqual with swapped operands, and Less and LessOrEqual never swap.
bool runs_unswapped(BinaryKind kind) { return kind != BinaryKind::greater && kind != BinaryKind::greater_equal; }

// The op oneDNN runs with the operands swapped (B op' A == A op B), or `mean` (none).
BinaryKind mirrored(BinaryKind kind) {
  switch (kind) {
    case BinaryKind::greater: return BinaryKind::less;
    case BinaryKind::greater_equal: return BinaryKind::less_equal;
    case BinaryKind::add:
    case BinaryKind::mul:
    case BinaryKind::max:
    case BinaryKind::min:
    case BinaryKind::equal: return kind;
    default: return BinaryKind::mean;  // none
  }
}

// The operands as oneDNN takes them.
struct BinaryOperands {
  Shape src0, src1, dst;  // all of dst's rank
  bool swapped = false;   // src0 is input B, src1 is input A
  BinaryKind kind = BinaryKind::add;  // the op on (src0, src1): the params' kind, mirrored when swapped
  // Comparisons: dst is u8, each element 1 or 0 (oneDNN converts its 1.0f/0.0f), the bytes of ONNX's bool.
  bool bool_dst = false;
  // bfloat16 storage (dnnl/layouts.h): src0 arriving stored in bfloat16, and dst stored so too; src1 arriving
  // so too, of dst's shape (a residual Add's other branch) or broadcast and plain (a squeeze-and-excitation gate).
  bool src0_bf16 = false, dst_bf16 = false, src1_bf16 = false;
};

// A dense row-major u8 descriptor of `shape` (ONNX bool's bytes).
memory::desc plain_u8_desc(const Shape& shape) {
  const memory::desc f32 = plain_f32_desc(shape);
  memory::dims strides(f32.dims().size(), 1);
  for (size_t i = strides.size() - 1; i-- > 0;) strides[i] = strides[i + 1] * f32.dims()[i + 1];
  return memory::desc(f32.dims(), memory::data_type::u8, strides);
}

// Left-pads `s` with 1s to `rank` dims.
Shape with_rank(const Shape& s, size_t rank) {
  Shape r(rank - s.size(), 1);
  r.insert(r.end(), s.begin(), s.end());
  return r;
}

// Fills `ops`, or says why oneDNN cannot broadcast this pair.
std::string arrange(const BinaryParams& p, const std::vector<ValueInfo>& in, BinaryOperands& ops) {
  if (binary_algorithm(p.kind) == algorithm::undef) return "oneDNN binary has no such algorithm";
  // B as it broadcasts onto A (placed at `axis` for the legacy form before opset 7).
  const Shape b = binary_b_shape(p, in[0].shape, in[1].shape);
  ops.dst = broadcast_shapes({in[0].shape, b});
  ops.src0 = with_rank(in[0].shape, ops.dst.size());
  ops.src1 = with_rank(b, ops.dst.size());
  ops.kind = p.kind;
  ops.bool_dst = binary_gives_bool(p.kind);
  if (runs_unswapped(p.kind) && ops.src0 == ops.dst) return "";
  const bool commutative = mirrored(p.kind) != BinaryKind::mean;  // swappable, as the same or the mirrored op
  if (!runs_unswapped(p.kind) && ops.src1 != ops.dst)
    return "input B " + to_string(in[1].shape) + " would be broadcast to " + to_string(ops.dst) +
           "; oneDNN's gt/ge are true for NaN, so this runs as lt/le with B first, and oneDNN broadcasts only "
           "its second source";
  if (!commutative || ops.src1 != ops.dst)
    return "input A " + to_string(in[0].shape) + " would be broadcast to " + to_string(ops.dst) +
           (commutative ? " and so would B" : "") + "; oneDNN broadcasts only its second source";
  std::swap(ops.src0, ops.src1);
  ops.swapped = true;
  ops.kind = mirrored(p.kind);
  return "";
}

// src0 in `layout` (the one it arrives in), dst in the same; src1 in it too when it is not broadcast,
// plain otherwise.
binary::primitive_desc describe(const BinaryOperands& ops, const Layout& layout) {
  const memory::desc f32 = follow(layout, plain_f32_desc(ops.src0));
  const memory::desc src0 = ops.src0_bf16 ? with_data_type(f32, memory::data_type::bf16) : f32;
  const memory::desc src1_f32 = ops.src1 != ops.dst ? plain_f32_desc(ops.src1) : f32;
  const memory::desc src1 = ops.src1_bf16 ? with_data_type(src1_f32, memory::data_type::bf16) : src1_f32;
  const memory::desc dst = ops.bool_dst ? plain_u8_desc(ops.dst)
                           : ops.dst_bf16 ? with_data_type(f32, memory::data_type::bf16) : f32;
  const binary::desc desc(binary_algorithm(ops.kind), src0, src1, dst);
  return binary::primitive_desc(desc, dnnl_attr(), dnnl_engine());
}

// The same operation over fewer dims: dims of size 1 dropped and neighbours src1 either broadcasts along both
// or along neither merged ([64, 3, 49, 49] + [64, 1, 49, 49] is [64, 3, 2401] + [64, 1, 2401]). oneDNN 2.6's
// JIT binary knows a few broadcasts (per channel, per batch and spatial, scalar, ...) by rank; Swin's mask,
// broadcast along a middle dim of a rank-5 tensor, otherwise takes its reference implementation.
BinaryOperands collapsed(const BinaryOperands& ops) {
  BinaryOperands c = ops;
  c.src0.clear();
  c.src1.clear();
  int previous = -1;  // whether the last kept dim broadcasts src1 (1) or not (0)
  for (size_t i = 0; i < ops.dst.size(); ++i) {
    if (ops.dst[i] == 1) continue;
    const int broadcast = ops.src1[i] == 1 ? 1 : 0;
    if (broadcast == previous) {
      c.src0.back() *= ops.dst[i];
      if (!broadcast) c.src1.back() *= ops.dst[i];
    } else {
      c.src0.push_back(ops.dst[i]);
      c.src1.push_back(ops.src1[i]);
    }
    previous = broadcast;
  }
  if (c.src0.empty()) c.src0 = c.src1 = {1};
  c.dst = c.src0;
  return c;
}

// Collapsed operands as a loop over their leading `outer` dims of one primitive on the rest. At batch 8 Swin's
// mask is [8, 64, 3, 2401] + [1, 64, 1, 2401], broadcast along two dims, which oneDNN runs only in its
// reference implementation (~2500x slower); each of the 8 executions is the batch-1 case, a JIT broadcast.
// An execution costs 1-10 us (a fork-join at 2 threads), the reference ~40 ns an element, single-threaded: a
// loop runs only when each execution has at least kLoopMinElements.
constexpr int64_t kLoopMinElements = 1024;

struct OuterLoop {
  BinaryOperands inner;          // one execution's operands
  Shape outer;                   // the dims looped over (empty: one execution)
  std::vector<int64_t> src1_at;  // per outer dim, src1's step in elements (0 where it broadcasts)
};

OuterLoop loop_over(const BinaryOperands& ops, size_t outer) {
  OuterLoop l;
  l.inner = ops;
  for (Shape* s : {&l.inner.src0, &l.inner.src1, &l.inner.dst}) s->erase(s->begin(), s->begin() + long(outer));
  l.outer.assign(ops.dst.begin(), ops.dst.begin() + long(outer));
  l.src1_at = broadcast_strides(Shape(ops.src1.begin(), ops.src1.begin() + long(outer)), l.outer);
  for (int64_t& step : l.src1_at) step *= checked_numel(l.inner.src1);
  return l;
}

class BinaryDnnl : public CompiledKernel {
 public:
  // `store`: dst stored in bfloat16 where src0 arrives so (CompileContext::store_bfloat16).
  BinaryDnnl(BinaryOperands ops, const std::vector<Layout>& arriving, bool store) : ops_(std::move(ops)) {
    // src0 stored in bfloat16 is read so (float32 arithmetic, as the reference on its values), but for Max
    // and Min (NaN is put back from src0's floats) and comparisons; the layout decisions below are float32's.
    const Shape src0_shape = ops_.src0, dst_shape = ops_.dst;
    ops_.src0_bf16 = stores_bfloat16(arriving[ops_.swapped ? 1 : 0]) && !ops_.bool_dst && !restores_nan();
    ops_.dst_bf16 = ops_.src0_bf16 && store;
    // src1 too, where it is not broadcast and arrives in src0's arrangement (it is read through src0's layout),
    // or is broadcast and arrives plain (and oneDNN's JIT code takes it so: below).
    const Layout& src1_arriving = arriving[ops_.swapped ? 0 : 1];
    const bool src1_broadcast = ops_.src1 != ops_.dst;
    ops_.src1_bf16 = ops_.src0_bf16 && checked_numel(ops_.dst) > 1 && stores_bfloat16(src1_arriving) &&
                     (src1_broadcast ? is_plain(float32_layout(src1_arriving))
                                     : float32_layout(src1_arriving) == float32_layout(arriving[ops_.swapped ? 1 : 0]));
    const Shape src1_shape = ops_.src1;
    // Follow src0's blocked layout when oneDNN takes it with this broadcast; plain otherwise, and always for
    // a bool dst (blocked layouts are float32's).
    Layout layout = float32_layout(arriving[ops_.swapped ? 1 : 0]);
    if (ops_.bool_dst || (!is_plain(layout) && md_of(layout).dims() != ops_.src0)) layout = Layout();
    // A single-value src1 over a dense permuted layout (a Transpose's view, such as attention's scaled Q) is
    // elementwise over the bytes as they lie: it runs over them as 1-D and keeps the layout.
    Layout kept = layout;
    if (!is_plain(layout) && !has_inner_blocks(layout) && checked_numel(ops_.src1) == 1) {
      ops_.src0 = ops_.dst = {checked_numel(ops_.dst)};
      ops_.src1 = {1};
      layout = Layout();
    }
    // oneDNN 2.6 broadcasts a per-channel src1 over nChw16c only in its reference implementation (150x
    // slower than channels-last: 15 ms for a [1, 32, 112, 112] Mul): plain is faster, reorders included.
    // (Asked with a broadcast src1 in float32: whether it may stay bfloat16 is asked next, in the layout taken.)
    BinaryOperands f32_src1 = ops_;
    f32_src1.src1_bf16 = f32_src1.src1_bf16 && !src1_broadcast;
    if (!is_plain(layout) && !runs_without_reference([&] { return describe(f32_src1, layout); })) kept = layout = Layout();
    // A broadcast src1 in bfloat16 where oneDNN would run it in its reference code: float32 (the plan converts).
    if (src1_broadcast && ops_.src1_bf16 && !runs_without_reference([&] { return describe(ops_, layout); }))
      ops_.src1_bf16 = false;
    // Plain operands oneDNN would broadcast in its reference implementation: over collapsed dims, as a loop
    // over the fewest leading ones that makes the rest a JIT broadcast (none: as they are).
    if (is_plain(layout) && !ops_.src1_bf16 && !runs_without_reference([&] { return describe(ops_, layout); })) {
      const BinaryOperands c = collapsed(ops_);
      for (size_t outer = 0; outer < c.dst.size(); ++outer) {
        OuterLoop l = loop_over(c, outer);
        if (outer > 0 && checked_numel(l.inner.dst) < kLoopMinElements) break;
        if (!runs_without_reference([&] { return describe(l.inner, layout); })) continue;
        ops_ = l.inner;
        outer_ = std::move(l.outer);
        src1_at_ = std::move(l.src1_at);
        break;
      }
    }
    const binary::primitive_desc pd = describe(ops_, layout);
    binary_ = DnnlPrimitive(pd);
    src0_md_ = pd.src_desc(0);
    src1_md_ = pd.src_desc(1);
    dst_md_ = pd.dst_desc();
    const Layout src1_f32 = src1_broadcast ? Layout() : kept;
    const Layout src1_layout = ops_.src1_bf16 ? bfloat16_layout(src1_f32, src1_shape) : src1_f32;
    const Layout src0_layout = ops_.src0_bf16 ? bfloat16_layout(kept, src0_shape) : kept;
    layouts_.in = ops_.swapped ? std::vector<Layout>{src1_layout, src0_layout} : std::vector<Layout>{src0_layout, src1_layout};
    layouts_.out = {ops_.dst_bf16 ? bfloat16_layout(kept, dst_shape) : kept};
  }

  const KernelLayouts* layouts() const override { return &layouts_; }
  // src0 has dst's shape and layout, and oneDNN binary may write dst over it (not a u8 dst over f32, nor
  // when NaN is put back from src0).
  int in_place_input() const override { return ops_.bool_dst || restores_nan() ? -1 : ops_.swapped ? 1 : 0; }

  void run(const KernelIO& io) const override {
    const Tensor& src0 = *io.in[ops_.swapped ? 1 : 0];
    const Tensor& src1 = *io.in[ops_.swapped ? 0 : 1];
    Tensor& dst = *io.out[0];
    const size_t src0_bytes = src0_md_.get_size(), dst_bytes = dst_md_.get_size();
    if (outer_.empty()) {
      binary_.execute(io.context, {{DNNL_ARG_SRC_0, dnnl_wrap(src0_md_, src0)},
                    {DNNL_ARG_SRC_1, dnnl_wrap(src1_md_, src1)},
                    {DNNL_ARG_DST, dnnl_wrap(dst_md_, dst)}});
    } else {
      for_each_broadcast<1>(outer_, {src1_at_}, [&](int64_t i, const int64_t* src1_at) {
        binary_.execute(io.context, {{DNNL_ARG_SRC_0, dnnl_wrap(src0_md_, src0, size_t(i) * src0_bytes)},
                      {DNNL_ARG_SRC_1, dnnl_wrap(src1_md_, src1, size_t(src1_at[0]) * sizeof(float))},
                      {DNNL_ARG_DST, dnnl_wrap(dst_md_, dst, size_t(i) * dst_bytes)}});
      });
    }
    // src0 (never broadcast) has dst's layout and, over the outer loop too, its element count.
    if (restores_nan())
      restore_nan(src0.data<float>(), dst.data<float>(),
                  (outer_.empty() ? 1 : checked_numel(outer_)) * int64_t(dst_bytes / sizeof(float)));
  }

 private:
  // maxps/minps give src1 where src0 is NaN (and NaN where src1 is): NaN is put back from src0.
  bool restores_nan() const { return ops_.kind == BinaryKind::max || ops_.kind == BinaryKind::min; }

  BinaryOperands ops_;
  Shape outer_;                   // dims run as a loop of executions (OuterLoop); empty: one execution
  std::vector<int64_t> src1_at_;  // src1's step per outer dim, in elements
  KernelLayouts layouts_;
  DnnlPrimitive binary_;
  memory::desc src0_md_, src1_md_, dst_md_;
};

Compiled compile_binary(const BinaryParams& p, const KernelArgs& a) {
  std::string why = dnnl_declines_inputs(a.in);
  BinaryOperands ops;
  if (why.empty()) why = arrange(p, a.in, ops);
  if (!why.empty()) return Compiled::decline(why);
  return compile_or_refuse(
      [&] { return std::make_unique<BinaryDnnl>(std::move(ops), a.offered.in, a.context.store_bfloat16); });
}

}  // namespace

Kernel<BinaryParams> binary_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const BinaryParams>& p, const KernelArgs& a) -> Compiled {
            return compile_binary(*p, a);
          }};
}

Kernel<VariadicParams> variadic_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const VariadicParams>& p, const KernelArgs& a) -> Compiled {
            if (a.in.size() != 2)
              return Compiled::decline(std::to_string(a.in.size()) + " inputs; oneDNN binary takes exactly 2");
            if (p->kind == BinaryKind::mean) return Compiled::decline("oneDNN binary has no mean");
            BinaryParams binary;  // multidirectional broadcasting (equal shapes before opset 8, checked in infer)
            binary.kind = p->kind;
            return compile_binary(binary, a);
          }};
}

}  // namespace cnnx
