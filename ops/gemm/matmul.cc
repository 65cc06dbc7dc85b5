#include "ops/gemm/matmul.h"

#include <algorithm>

#include "ops/common/broadcast.h"
#include "ops/common/node_checks.h"

namespace cnnx {

Shape MatMulGeometry::output_shape() const {
  Shape s = batch;
  if (!a_is_vector) s.push_back(M);
  if (!b_is_vector) s.push_back(N);
  return s;
}

MatMulParams parse_matmul(const Node& node) {
  check_node(node, 2, 2, {});
  return {};
}

std::string MatMulFusion::summary() const {
  std::string s = "MatMul+bias";
  if (residual) s += "+Add";
  if (activation) s += std::string("+") + activation->name;
  return s;
}

MatMulParams parse_fused_matmul(const Node& node) {
  check_node(node, 3, 4, {});
  require(has_input(node, 2), "input bias is required");
  MatMulParams p;
  p.bias = true;
  p.fusion.residual = has_input(node, 3);
  return p;
}

MatMulGeometry resolve_matmul_geometry(const std::vector<ValueInfo>& in) {
  const Shape& a = input(in, 0).shape;
  const Shape& b = input(in, 1).shape;
  require(!a.empty(), "input A must have at least 1 dim, got a scalar");
  require(!b.empty(), "input B must have at least 1 dim, got a scalar");
  MatMulGeometry g;
  g.a_is_vector = a.size() == 1;
  g.b_is_vector = b.size() == 1;
  g.M = g.a_is_vector ? 1 : a[a.size() - 2];
  const int64_t ka = a.back();
  const int64_t kb = g.b_is_vector ? b[0] : b[b.size() - 2];
  g.N = g.b_is_vector ? 1 : b.back();
  require(ka < 0 || kb < 0 || ka == kb, "inner dims differ: A ", to_string(a), " has ", ka, " columns, B ",
          to_string(b), " has ", kb, " rows");
  g.K = ka >= 0 ? ka : kb;
  if (a.size() > 2) g.a_batch.assign(a.begin(), a.end() - 2);
  if (b.size() > 2) g.b_batch.assign(b.begin(), b.end() - 2);
  for (size_t i = 1; i <= std::min(g.a_batch.size(), g.b_batch.size()); ++i) {
    const int64_t da = g.a_batch[g.a_batch.size() - i], db = g.b_batch[g.b_batch.size() - i];
    require(da < 0 || db < 0 || da == 1 || db == 1 || da == db, "batch dims of A ", to_string(a), " and B ",
            to_string(b), " do not broadcast");
  }
  g.batch = broadcast_shapes({g.a_batch, g.b_batch});
  return g;
}

double matmul_flops(const MatMulParams&, const std::vector<ValueInfo>& in) {
  const MatMulGeometry g = resolve_matmul_geometry(in);
  return 2.0 * double(numel_range(g.batch, 0, g.batch.size())) * double(g.M) * double(g.N) * double(g.K);
}

std::vector<ValueInfo> infer_matmul(const MatMulParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32});
  require_dtype(in, 1, {DType::f32});
  const MatMulGeometry g = resolve_matmul_geometry(in);
  if (p.bias) {
    require_dtype(in, 2, {DType::f32}, "bias");
    require(!g.b_is_vector, "a bias needs a 2-D or batched B, got ", to_string(in[1].shape));
    require(in[2].shape.size() == 1 && (in[2].shape[0] == g.N || g.N < 0 || in[2].shape[0] < 0), "bias must have shape [",
            g.N, "], got ", to_string(in[2].shape));
  }
  if (p.fusion.residual) {
    require(present(in, 3), "the residual input is required");
    require_dtype(in, 3, {DType::f32}, "residual");
    require(in[3].shape == g.output_shape(), "the residual input must have the output's shape ",
            to_string(g.output_shape()), ", got ", to_string(in[3].shape));
  }
  return {ValueInfo::of(DType::f32, g.output_shape())};
}

}  // namespace cnnx
