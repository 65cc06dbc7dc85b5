#include "ops/index/unique.h"

#include <algorithm>
#include <numeric>

#include "ops/common/node_checks.h"

namespace cnnx {

UniqueParams parse_unique(const Node& node) {
  require_inputs(node, 1, 1);
  require_outputs(node, 1, 4);
  node.attrs.allow_only({"sorted", "axis"});
  UniqueParams p;
  p.sorted = node.attrs.get_flag("sorted", true);
  if (node.attrs.has("axis")) p.axis = node.attrs.get_int("axis", 0);
  return p;
}

UniqueGroups unique_groups(const UniqueParams& p, const Tensor& x) {
  const int64_t axis = p.axis ? normalize_axis(*p.axis, x.rank(), "axis") : 0;
  const Shape shape = p.axis ? x.shape() : Shape{x.numel()};
  const int64_t outer = numel_range(shape, 0, size_t(axis)), along = shape[size_t(axis)],
                inner = numel_range(shape, size_t(axis) + 1, shape.size());
  return visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* v = x.data<T>();
    // Slices j and k compared element by element in row-major order: -1, 0 or 1. A NaN is after every number and
    // equal to nothing: two NaNs are ordered by their slices' indices (a strict order for the sort).
    auto compare = [&](int64_t j, int64_t k) {
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const T a = v[(o * along + j) * inner + i], b = v[(o * along + k) * inner + i];
          if (a < b) return -1;
          if (b < a) return 1;
          if (!(a == b)) return a == a ? -1 : b == b ? 1 : j < k ? -1 : j > k ? 1 : 0;
        }
      return 0;
    };
    UniqueGroups g;
    g.inverse.resize(size_t(along));
    for (int64_t j = 0; j < along; ++j) {
      size_t u = 0;
      while (u < g.first.size() && compare(g.first[u], j) != 0) ++u;
      if (u == g.first.size()) {
        g.first.push_back(j);
        g.counts.push_back(0);
      }
      ++g.counts[u];
      g.inverse[size_t(j)] = int64_t(u);
    }
    if (!p.sorted) return g;
    std::vector<size_t> order(g.first.size()), place(g.first.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return compare(g.first[a], g.first[b]) < 0; });
    UniqueGroups s;
    for (size_t r = 0; r < order.size(); ++r) {
      s.first.push_back(g.first[order[r]]);
      s.counts.push_back(g.counts[order[r]]);
      place[order[r]] = r;
    }
    for (int64_t u : g.inverse) s.inverse.push_back(int64_t(place[size_t(u)]));
    return s;
  });
}

std::vector<ValueInfo> infer_unique(const UniqueParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  const int64_t axis = p.axis ? normalize_axis(*p.axis, x.rank(), "axis") : 0;
  const int64_t along = p.axis ? x.shape[size_t(axis)] : (x.concrete() ? checked_numel(x.shape) : kUnknownDim);
  const int64_t count = x.constant ? int64_t(unique_groups(p, *x.constant).first.size()) : kUnknownDim;
  Shape y{count};
  if (p.axis) {
    y = x.shape;
    y[size_t(axis)] = count;
  }
  return {ValueInfo::of(x.dtype, y), ValueInfo::of(DType::i64, {count}), ValueInfo::of(DType::i64, {along}),
          ValueInfo::of(DType::i64, {count})};
}

}  // namespace cnnx
