// The reference kernel of Resize and Upsample: per output cell, the sum over every combination of its axes'
// taps (ops/resize/resize_geometry.h) of the product of their weights times the input cell, in double, rounded
// once. Any rank, float32 and float64.
#include "ops/resize/resize_geometry.h"

namespace cnnx {

namespace {

class ResizeRef : public CompiledKernel {
 public:
  ResizeRef(std::shared_ptr<const ResizeParams> p, const ResizeGeometry& g) : p_(std::move(p)) {
    const Shape in_shape = [&] {
      Shape s;
      for (const ResizeAxis& a : g.axes) s.push_back(a.in);
      return s;
    }();
    in_strides_ = strides_of(in_shape);
    out_shape_ = g.output();
    // An empty output (another axis of 0 cells) is computed by doing nothing; its other axes may be of any
    // length (only non-empty values are bounded by the tensor limit), so no taps are made for them.
    if (checked_numel(out_shape_) == 0) return;
    for (const ResizeAxis& a : g.axes) taps_.push_back(axis_taps(*p_, a));
  }

  void run(const KernelIO& io) const override {
    visit_dtype(io.in[0]->dtype(), [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_floating_point_v<T>) resize(io.in[0]->data<T>(), io.out[0]->data<T>());
      else fail("Resize runs float32 and float64 only");
    });
  }

 private:
  template <class T>
  void resize(const T* x, T* y) const {
    const int64_t n = checked_numel(out_shape_);
    const size_t rank = out_shape_.size();
    std::vector<int64_t> o(rank, 0);
    for (int64_t k = 0; k < n; ++k) {
      bool inside = true;
      for (size_t a = 0; a < rank; ++a) inside = inside && taps_[a].first[size_t(o[a])] < taps_[a].first[size_t(o[a]) + 1];
      y[k] = inside ? T(sum(x, o, 0, 0, 1.0)) : T(p_->extrapolation_value);
      for (size_t a = rank; a-- > 0;) {
        if (++o[a] < out_shape_[a]) break;
        o[a] = 0;
      }
    }
  }

  // The weighted sum over the taps of axes [axis, rank) of output cell o, the taps of the axes before it
  // having chosen `offset` into x with product weight `weight`.
  template <class T>
  double sum(const T* x, const std::vector<int64_t>& o, size_t axis, int64_t offset, double weight) const {
    if (axis == o.size()) return weight * double(x[offset]);
    const AxisTaps& t = taps_[axis];
    double s = 0;
    for (size_t i = t.first[size_t(o[axis])]; i < t.first[size_t(o[axis]) + 1]; ++i)
      s += sum(x, o, axis + 1, offset + t.taps[i].index * in_strides_[axis], weight * t.taps[i].weight);
    return s;
  }

  std::shared_ptr<const ResizeParams> p_;
  std::vector<int64_t> in_strides_;
  Shape out_shape_;
  std::vector<AxisTaps> taps_;
};

}  // namespace

Kernel<ResizeParams> resize_ref_kernel() {
  return {"ref", [](const std::shared_ptr<const ResizeParams>& p, const KernelArgs& a) -> Compiled {
            ResizeGeometry g;
            require(resolve_resize(*p, a.in, g), "the scales or sizes are not known when the plan is made");
            return std::make_unique<ResizeRef>(p, g);
          }};
}

}  // namespace cnnx
