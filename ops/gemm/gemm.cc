#include "ops/gemm/gemm.h"

namespace cnnx {

GemmParams parse_gemm(const Node& node) {
  require_outputs(node, 1, 1);
  GemmParams p;
  if (node.opset < 7) {
    require_inputs(node, 3, 3);
    node.attrs.allow_only({"alpha", "beta", "broadcast", "transA", "transB"});
    const int64_t broadcast = node.attrs.get_int("broadcast", 0);
    require(broadcast == 0 || broadcast == 1, "attribute broadcast must be 0 or 1, got ", broadcast);
    p.c_broadcasts = broadcast == 1;
  } else {
    require_inputs(node, node.opset < 11 ? 3 : 2, 3);
    node.attrs.allow_only({"alpha", "beta", "transA", "transB"});
  }
  p.alpha = node.attrs.get_float("alpha", 1.f);
  p.beta = node.attrs.get_float("beta", 1.f);
  const int64_t ta = node.attrs.get_int("transA", 0), tb = node.attrs.get_int("transB", 0);
  require(ta == 0 || ta == 1, "attribute transA must be 0 or 1, got ", ta);
  require(tb == 0 || tb == 1, "attribute transB must be 0 or 1, got ", tb);
  p.trans_a = ta == 1;
  p.trans_b = tb == 1;
  return p;
}

GemmGeometry resolve_gemm_geometry(const GemmParams& p, const std::vector<ValueInfo>& in) {
  const Shape& a = input(in, 0).shape;
  const Shape& b = input(in, 1).shape;
  require(a.size() == 2, "input A must be 2-D, got shape ", to_string(a));
  require(b.size() == 2, "input B must be 2-D, got shape ", to_string(b));
  GemmGeometry g;
  g.M = p.trans_a ? a[1] : a[0];
  const int64_t ka = p.trans_a ? a[0] : a[1];
  const int64_t kb = p.trans_b ? b[1] : b[0];
  g.N = p.trans_b ? b[0] : b[1];
  require(ka < 0 || kb < 0 || ka == kb, "inner dims differ: A", p.trans_a ? "^T" : "", " is ", to_string({g.M, ka}),
          ", B", p.trans_b ? "^T" : "", " is ", to_string({kb, g.N}));
  g.K = ka >= 0 ? ka : kb;
  g.has_c = present(in, 2);
  if (g.has_c) {
    g.c_shape = in[2].shape;
    const Shape& c = g.c_shape;
    const Shape mn{g.M, g.N};
    if (!p.c_broadcasts) {
      require(c.size() == 2, "input C must be [M, N] = ", to_string(mn), " (attribute broadcast is 0), got shape ",
              to_string(c));
      for (size_t d = 0; d < 2; ++d)
        require(c[d] < 0 || mn[d] < 0 || c[d] == mn[d], "input C must be [M, N] = ", to_string(mn),
                " (attribute broadcast is 0), got shape ", to_string(c));
    } else {
      require(c.size() <= 2, "input C must broadcast to [M, N] = ", to_string(mn), ", got shape ", to_string(c));
      for (size_t i = 0; i < c.size(); ++i) {
        const int64_t want = mn[2 - c.size() + i];
        require(c[i] < 0 || c[i] == 1 || want < 0 || c[i] == want, "input C must broadcast to [M, N] = ",
                to_string(mn), ", got shape ", to_string(c));
      }
    }
  }
  return g;
}

double gemm_flops(const GemmParams& p, const std::vector<ValueInfo>& in) {
  const GemmGeometry g = resolve_gemm_geometry(p, in);
  return 2.0 * double(g.M) * double(g.N) * double(g.K);
}

std::vector<ValueInfo> infer_gemm(const GemmParams& p, const std::vector<ValueInfo>& in) {
  require_float32(in);
  const GemmGeometry g = resolve_gemm_geometry(p, in);
  return {ValueInfo::of(DType::f32, {g.M, g.N})};
}

}  // namespace cnnx
