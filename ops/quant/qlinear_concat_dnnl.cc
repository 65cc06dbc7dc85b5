// com.microsoft QLinearConcat and cnnx.internal QLinearChannelLookup, native (plain C++; the file is *_dnnl.cc
// only because it names int8 layouts by oneDNN descriptors): each input's elements go through tables of their
// 256 byte values made at compile time: QLinearConcat's one per input, requantizing to Y's scale and zero point
// by the reference's formula (ops/quant/qlinear_concat.h), QLinearChannelLookup's one per output channel (its
// constant table input). So both equal their references exactly; an input whose table is the identity (Y's
// scale and zero point) is copied.
//
// Layouts: plain, or, joining channels (axis 1) of rank 3 to 5, channels-last when any input arrives so (an
// int8 convolution's output): each output pixel is then its inputs' channel runs end to end, and chains of
// int8 convolutions and Concats (GoogLeNet's inception blocks, DenseNet's dense blocks) run without reorders.
// In both, the output is `outer` runs, each the inputs' runs of run_i elements one after another.
#include <algorithm>
#include <cstring>

#include "dnnl/dnnl_runtime.h"
#include "ops/quant/qlinear_channel_lookup.h"
#include "ops/quant/qlinear_concat.h"
#include "ops/quant/quantization.h"

namespace cnnx {

namespace {

struct ConcatPart {
  size_t input = 0;             // the node's input holding it
  int64_t run = 0;              // elements of this input in one output run
  int64_t plane = 0;            // consecutive elements of a run that share one table (per input: the run)
  bool copy = false;            // one table, the identity
  std::vector<uint8_t> tables;  // run / plane tables of 256, indexed by the element's byte (int8: its two's
                                // complement byte)
};

// Output runs [o0, o1), of each part its elements [k0, k1) of the run: the part's table applied, or copied.
void concat_runs(const KernelIO& io, const std::vector<ConcatPart>& parts, int64_t y_run, int64_t o0, int64_t o1,
                 int64_t k0, int64_t k1) {
  uint8_t* y = static_cast<uint8_t*>(io.out[0]->raw());
  for (int64_t o = o0; o < o1; ++o) {
    int64_t at = o * y_run;
    for (size_t i = 0; i < parts.size(); ++i) {
      const ConcatPart& p = parts[i];
      const int64_t b = std::min(k0, p.run), e = std::min(k1, p.run);
      const uint8_t* x = static_cast<const uint8_t*>(io.in[p.input]->raw()) + o * p.run;
      const uint8_t* t = p.tables.data();
      if (p.copy) std::memcpy(y + at + b, x + b, size_t(e - b));
      else if (p.plane == 1)  // a table per element of the run: channels-last, per channel
        for (int64_t k = b; k < e; ++k) y[at + k] = t[k * 256 + x[k]];
      else
        for (int64_t k = b; k < e;) {
          const uint8_t* row = t + (k / p.plane) * 256;
          for (const int64_t end = std::min(e, (k / p.plane + 1) * p.plane); k < end; ++k) y[at + k] = row[x[k]];
        }
      at += p.run;
    }
  }
}

class QLinearConcatNative final : public CompiledKernel {
 public:
  QLinearConcatNative(std::vector<ConcatPart> parts, int64_t outer, KernelLayouts layouts)
      : parts_(std::move(parts)), outer_(outer), layouts_(std::move(layouts)) {
    for (const ConcatPart& p : parts_) y_run_ += p.run;
  }
  const KernelLayouts* layouts() const override { return &layouts_; }

  void run(const KernelIO& io) const override {
    // Many runs (channels-last pixels): the runs split over the team; few (plain, N = 1): each run's
    // elements in chunks.
    if (outer_ >= 64) {
#pragma omp parallel for schedule(static)
      for (int64_t o = 0; o < outer_; ++o) concat_runs(io, parts_, y_run_, o, o + 1, 0, y_run_);
      return;
    }
    constexpr int64_t kChunk = 16384;
    int64_t longest = 0;
    for (const ConcatPart& p : parts_) longest = std::max(longest, p.run);
    const int64_t chunks = (longest + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static) collapse(2)
    for (int64_t o = 0; o < outer_; ++o)
      for (int64_t c = 0; c < chunks; ++c) concat_runs(io, parts_, y_run_, o, o + 1, c * kChunk, (c + 1) * kChunk);
  }

 private:
  std::vector<ConcatPart> parts_;
  int64_t outer_, y_run_ = 0;
  KernelLayouts layouts_;
};

tag channels_last_tag(size_t rank) { return rank == 3 ? tag::nwc : rank == 4 ? tag::nhwc : tag::ndhwc; }

// The channels-last layout of an int8/uint8 value of `shape` (the one an int8 convolution writes).
Layout int8_channels_last(const Shape& shape, DType type) {
  return layout_of(dnnl::memory::desc(dnnl::memory::dims(shape.begin(), shape.end()), type == DType::u8 ? dt::u8 : dt::s8,
                                      channels_last_tag(shape.size())));
}

const Tensor* constant_or_null(const KernelArgs& a, size_t i) {
  return i < a.in.size() && a.in[i].dtype != DType::undefined ? a.in[i].constant.get() : nullptr;
}

// The kernel for `parts` (their tables made: one per input, or `per_channel` one per channel of it) read from
// inputs `xs` and joined along `axis` into y: channels-last when joining channels and some input arrives
// channels-last (int8 or float32's descriptor), else plain.
Compiled compile_table_concat(std::vector<ConcatPart> parts, bool per_channel, const std::vector<size_t>& xs,
                              int64_t axis, const KernelArgs& a) {
  const ValueInfo& y = a.out.at(0);
  const size_t rank = y.shape.size();
  bool channels_last = false;
  if (axis == 1 && rank >= 3 && rank <= 5) {
    const std::string name = int8_channels_last(y.shape, y.dtype).name();
    for (size_t i : xs) channels_last = channels_last || (!is_plain(a.offered.in.at(i)) && a.offered.in[i].name() == name);
    if (!a.offered.out.empty() && !is_plain(a.offered.out[0]) && a.offered.out[0].name() != name) channels_last = false;
  }
  KernelLayouts layouts;
  layouts.in.resize(a.in.size());
  for (size_t k = 0; k < xs.size(); ++k) {
    const Shape& s = a.in[xs[k]].shape;
    parts[k].input = xs[k];
    parts[k].run = channels_last ? s[1] : numel_range(s, size_t(axis), rank);  // channels-last: C
    parts[k].plane = !per_channel ? parts[k].run : channels_last ? 1 : numel_range(s, 2, rank);
    if (channels_last) layouts.in[xs[k]] = int8_channels_last(s, a.in[xs[k]].dtype);
  }
  layouts.out = {channels_last ? int8_channels_last(y.shape, y.dtype) : Layout()};
  const int64_t outer = channels_last ? checked_numel(y.shape) / std::max<int64_t>(1, y.shape[1])
                                      : numel_range(y.shape, 0, size_t(axis));
  return std::make_unique<QLinearConcatNative>(std::move(parts), outer, std::move(layouts));
}

Compiled compile_qlinear_concat(const QLinearConcatParams& p, const KernelArgs& a) {
  std::vector<size_t> xs;
  for (size_t i = 0; i < a.in.size(); ++i) {
    const bool is_x = i >= 2 && (i - 2) % 3 == 0;
    if (is_x && !a.in[i].concrete()) return Compiled::decline("input " + std::to_string(i) + " has no concrete shape");
    if (!is_x && a.in[i].dtype != DType::undefined && !a.in[i].constant)
      return Compiled::decline("needs constant scales and zero points");
    if (is_x) xs.push_back(i);
  }
  const QuantParams yq = read_quant_params(*a.in[0].constant, constant_or_null(a, 1), "Y_scale");
  const QuantRange range = quant_range(a.out.at(0).dtype);
  std::vector<ConcatPart> parts;
  for (size_t i : xs) {
    const QuantParams xq = read_quant_params(*a.in[i + 1].constant, constant_or_null(a, i + 2), "X_scale");
    ConcatPart part;
    part.copy = true;
    part.tables.resize(256);
    for (int64_t q = range.lo; q <= range.hi; ++q) {
      const double r = double(q - xq.zero_point_at(0)) * xq.scale_at(0) / yq.scale_at(0);
      const int64_t v = saturate_plus(round_half_even(r), yq.zero_point_at(0), range.lo, range.hi);
      part.tables[uint8_t(q)] = uint8_t(v);
      part.copy = part.copy && v == q;
    }
    parts.push_back(std::move(part));
  }
  const int64_t axis = normalize_axis(p.axis, int64_t(a.out.at(0).shape.size()), "attribute 'axis'");
  return compile_table_concat(std::move(parts), false, xs, axis, a);
}

Compiled compile_qlinear_channel_lookup(const KernelArgs& a) {
  const Tensor* table = a.in[0].constant.get();
  if (!table) return Compiled::decline("needs a constant table");
  std::vector<size_t> xs;
  std::vector<ConcatPart> parts;
  int64_t c0 = 0;
  for (size_t i = 1; i < a.in.size(); ++i) {
    if (!a.in[i].concrete()) return Compiled::decline("input " + std::to_string(i) + " has no concrete shape");
    const int64_t C = a.in[i].shape[1];
    if ((c0 + C) * 256 > table->numel()) return Compiled::decline("the table has fewer rows than the inputs have channels");
    ConcatPart part;
    const uint8_t* rows = static_cast<const uint8_t*>(table->raw()) + c0 * 256;
    part.tables.assign(rows, rows + C * 256);
    parts.push_back(std::move(part));
    xs.push_back(i);
    c0 += C;
  }
  return compile_table_concat(std::move(parts), true, xs, 1, a);
}

}  // namespace

Kernel<QLinearConcatParams> qlinear_concat_native_kernel() {
  return {"native", [](const std::shared_ptr<const QLinearConcatParams>& p, const KernelArgs& a) {
            return compile_qlinear_concat(*p, a);
          }};
}

Kernel<NoParams> qlinear_channel_lookup_native_kernel() {
  return {"native", [](const std::shared_ptr<const NoParams>&, const KernelArgs& a) {
            return compile_qlinear_channel_lookup(a);
          }};
}

}  // namespace cnnx
