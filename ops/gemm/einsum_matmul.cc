#include "ops/gemm/einsum_matmul.h"

#include <algorithm>
#include <array>

namespace cnnx {

bool is_contiguous(const AxisGroup& g) {
  for (size_t i = 1; i < g.size(); ++i)
    if (g[i - 1].stride != g[i].size * g[i].stride) return false;
  return true;
}

namespace {

constexpr int64_t kAbsent = -1;
enum Operand { kA, kB, kY };

}  // namespace

EinsumMatmul einsum_as_matmul(const EinsumParams& p, const std::vector<Shape>& shapes, size_t k_order_from) {
  EinsumMatmul mm;
  if (shapes.size() != 2) {
    mm.why_not = std::to_string(shapes.size()) + " operand" + (shapes.size() == 1 ? "" : "s") +
                 ": only an equation of two is a matrix product";
    return mm;
  }
  const EinsumAxes ax = einsum_axes(p, shapes);
  const std::vector<int64_t>& size = ax.size;
  // Per operand and axis: its stride, or kAbsent (not in the operand, or 1 long: it moves nothing).
  std::array<std::vector<int64_t>, 3> stride;
  auto take_strides = [&](Operand t, const std::vector<int>& axis_of_dim, const Shape& shape) {
    stride[t].assign(size.size(), kAbsent);
    int64_t st = 1;
    for (size_t k = shape.size(); k-- > 0; st *= shape[k]) {
      const int a = axis_of_dim[k];
      if (a < 0 || size[size_t(a)] == 1) continue;
      if (stride[t][size_t(a)] != kAbsent) {
        mm.why_not = "a diagonal: " + ax.name[size_t(a)] + " twice in input " + std::to_string(int(t));
        return;
      }
      stride[t][size_t(a)] = st;
    }
  };
  Shape y_shape;
  for (int a : ax.of_output) y_shape.push_back(size[size_t(a)]);
  take_strides(kA, ax.of_input[0], shapes[0]);
  take_strides(kB, ax.of_input[1], shapes[1]);
  take_strides(kY, ax.of_output, y_shape);
  if (!mm.why_not.empty()) return mm;
  auto has = [&](Operand t, int a) { return stride[t][size_t(a)] != kAbsent; };
  // Chained in t: outer then inner is one run of memory (or both absent).
  auto chained = [&](Operand t, int outer, int inner) {
    if (!has(t, outer) || !has(t, inner)) return !has(t, outer) && !has(t, inner);
    return stride[t][size_t(outer)] == size[size_t(inner)] * stride[t][size_t(inner)];
  };

  std::vector<int> batch, m, n, k;  // axes; those of Y in output order
  for (int a : ax.of_output) {
    if (!has(kY, a)) continue;
    if (has(kA, a) && has(kB, a)) batch.push_back(a);
    else (has(kA, a) ? m : n).push_back(a);
  }
  for (int a = 0; a < int(size.size()); ++a) {
    if (has(kY, a) || (!has(kA, a) && !has(kB, a))) continue;
    if (!has(kA, a) || !has(kB, a)) {
      mm.why_not = ax.name[size_t(a)] + " is summed in input " + std::string(has(kA, a) ? "0" : "1") + " only";
      return mm;
    }
    k.push_back(a);
  }
  const Operand k_leader = k_order_from == 1 ? kB : kA;
  std::stable_sort(k.begin(), k.end(),
                   [&](int x, int y) { return stride[k_leader][size_t(x)] > stride[k_leader][size_t(y)]; });

  // M (N): the longest tail of its axes chained in A (B) and in Y; the axes before it are batch axes.
  auto split_off_batch = [&](std::vector<int>& axes, Operand t) {
    size_t first = axes.empty() ? 0 : axes.size() - 1;
    while (first > 0 && chained(t, axes[first - 1], axes[first]) && chained(kY, axes[first - 1], axes[first]))
      --first;
    batch.insert(batch.end(), axes.begin(), axes.begin() + std::ptrdiff_t(first));
    axes.erase(axes.begin(), axes.begin() + std::ptrdiff_t(first));
  };
  split_off_batch(m, kA);
  split_off_batch(n, kB);
  std::vector<size_t> position(size.size());
  for (size_t i = 0; i < ax.of_output.size(); ++i) position[size_t(ax.of_output[i])] = i;
  std::sort(batch.begin(), batch.end(), [&](int x, int y) { return position[size_t(x)] < position[size_t(y)]; });

  auto group = [&](const std::vector<int>& axes, Operand t) {
    AxisGroup g;
    for (int a : axes)
      if (has(t, a)) g.push_back({size[size_t(a)], stride[t][size_t(a)]});
    return g;
  };
  // Batch axes merge while they are chained in every operand.
  std::vector<std::vector<int>> batch_groups;
  for (size_t i = 0; i < batch.size(); ++i) {
    const bool merge = i > 0 && chained(kA, batch[i - 1], batch[i]) && chained(kB, batch[i - 1], batch[i]) &&
                       chained(kY, batch[i - 1], batch[i]);
    if (!merge) batch_groups.emplace_back();
    batch_groups.back().push_back(batch[i]);
  }
  for (const std::vector<int>& axes : batch_groups) {
    mm.a.push_back(group(axes, kA));
    mm.b.push_back(group(axes, kB));
    mm.y.push_back(group(axes, kY));
  }
  mm.a.push_back(group(m, kA));
  mm.a.push_back(group(k, kA));
  mm.b.push_back(group(k, kB));
  mm.b.push_back(group(n, kB));
  mm.y.push_back(group(m, kY));
  mm.y.push_back(group(n, kY));
  return mm;
}

}  // namespace cnnx
