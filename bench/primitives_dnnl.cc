// One oneDNN primitive timed alone, for choosing layouts: which implementation oneDNN picks for a layout and
// how fast it runs, outside any model. Prints the minimum and the 10th percentile of the runs (on a shared
// machine the minimum is the least disturbed run).
//
//   built as build/cnnx_primitives_dnnl with the tests or -DCNNX_BUILD_BENCH=ON
//   OMP_NUM_THREADS=1 build/cnnx_primitives_dnnl conv G IC OC H KHxKW STRIDE SRC/DST...   (N = 1, H = W, Relu post-op)
//       layouts: any, plain, acdb (channels-last), 16b / 8b / 4b (nChw16c, ...); e.g. acdb/acdb 16b/16b any/any
//   OMP_NUM_THREADS=2 build/cnnx_primitives_dnnl fc K N          (M = 1: inner product and matmul, weights any / as
//       stored [N, K] / [K, N], two copies of the weights read in turn so each run reads them from DRAM)
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Minimum and 10th percentile of `iters` runs of `run(i)`.
std::pair<double, double> time_runs(int iters, const std::function<void(int)>& run) {
  std::vector<double> t;
  for (int i = 0; i < iters; ++i) {
    const double start = now_ms();
    run(i);
    t.push_back(now_ms() - start);
  }
  std::sort(t.begin(), t.end());
  return {t[0], t[size_t(iters) / 10]};
}

void fill(const memory& m) {
  float* p = static_cast<float*>(m.get_data_handle());
  for (size_t i = 0; i < m.get_desc().get_size() / sizeof(float); ++i) p[i] = 0.01f * float((i * 7) % 13) - 0.05f;
}

tag parse_tag(const std::string& s) {
  if (s == "any") return tag::any;
  if (s == "acdb") return tag::acdb;
  if (s == "16b") return tag::aBcd16b;
  if (s == "8b") return tag::aBcd8b;
  if (s == "4b") return tag::aBcd4b;
  return tag::abcd;
}

bool is_reference(const primitive_desc_base& pd) { return std::string(pd.impl_info_str()).rfind("ref", 0) == 0; }

int conv(int argc, char** argv) {
  const memory::dim G = atoi(argv[2]), IC = atoi(argv[3]), OC = atoi(argv[4]), H = atoi(argv[5]);
  const char* x = strchr(argv[6], 'x');
  const memory::dim KH = atoi(argv[6]), KW = x ? atoi(x + 1) : KH, S = atoi(argv[7]);
  const memory::dim PH = KH / 2, PW = KW / 2, OH = (H + 2 * PH - KH) / S + 1, OW = (H + 2 * PW - KW) / S + 1;
  engine eng(engine::kind::cpu, 0);
  stream strm(eng);
  for (int a = 8; a < argc; ++a) {
    const std::string spec = argv[a];
    const size_t slash = spec.find('/');
    const memory::desc src_md({1, IC, H, H}, dt::f32, parse_tag(spec.substr(0, slash)));
    const memory::desc dst_md({1, OC, OH, OW}, dt::f32, parse_tag(spec.substr(slash + 1)));
    const memory::dims weights_dims = G == 1 ? memory::dims{OC, IC, KH, KW} : memory::dims{G, OC / G, IC / G, KH, KW};
    const memory::desc weights_md(weights_dims, dt::f32, tag::any), bias_md({OC}, dt::f32, tag::a);
    try {
      post_ops ops;
      ops.append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
      primitive_attr attr;
      attr.set_post_ops(ops);
      const convolution_forward::primitive_desc pd(
          convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct, src_md, weights_md,
                                    bias_md, dst_md, {S, S}, {0, 0}, {PH, PW}, {PH, PW}),
          attr, eng);
      if (is_reference(pd)) {
        printf("%-10s %s (not timed)\n", spec.c_str(), pd.impl_info_str());
        continue;
      }
      const convolution_forward prim(pd);
      memory src(pd.src_desc(), eng), weights(pd.weights_desc(), eng), bias(bias_md, eng), dst(pd.dst_desc(), eng);
      for (const memory& m : {src, weights, bias}) fill(m);
      const auto [min, p10] = time_runs(200, [&](int) {
        prim.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}});
        strm.wait();
      });
      printf("g%ld ic%ld oc%ld %ldx%ld k%ldx%ld s%ld  %-10s %-26s min %.4f ms  p10 %.4f ms\n", long(G), long(IC),
             long(OC), long(H), long(H), long(KH), long(KW), long(S), spec.c_str(), pd.impl_info_str(), min, p10);
    } catch (const error& e) {
      printf("%-10s oneDNN refuses: %s\n", spec.c_str(), e.what());
    }
  }
  return 0;
}

// `make(weights_md)` returns a primitive descriptor; runs it on two copies of its weights in turn.
template <class PD, class Prim>
void time_fc(const char* what, const memory::desc& weights_md, const std::function<PD(const memory::desc&)>& make,
             const memory& src, const memory& dst, const memory& bias) {
  const engine& eng = src.get_engine();
  stream strm(eng);
  try {
    const PD pd = make(weights_md);
    const Prim prim(pd);
    std::vector<memory> weights;
    for (int c = 0; c < 2; ++c) {
      weights.emplace_back(pd.weights_desc(), eng);
      fill(weights.back());
    }
    const auto [min, p10] = time_runs(30, [&](int i) {
      prim.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights[size_t(i) % 2]}, {DNNL_ARG_BIAS, bias},
                          {DNNL_ARG_DST, dst}});
      strm.wait();
    });
    const double gb = double(pd.weights_desc().get_size()) / 1e9;
    printf("%-26s %-24s min %.3f ms (%.1f GB/s)  p10 %.3f ms\n", what, pd.impl_info_str(), min, gb / min * 1e3, p10);
  } catch (const error& e) {
    printf("%-26s oneDNN refuses: %s\n", what, e.what());
  }
}

int fc(char** argv) {
  const memory::dim K = atoi(argv[2]), N = atoi(argv[3]);
  engine eng(engine::kind::cpu, 0);
  const memory::desc src_md({1, K}, dt::f32, tag::ab), dst_md({1, N}, dt::f32, tag::ab);
  memory src(src_md, eng), dst(dst_md, eng), bias(memory::desc({N}, dt::f32, tag::a), eng),
      bias_row(memory::desc({1, N}, dt::f32, tag::ab), eng);
  fill(src);
  fill(bias);
  fill(bias_row);
  using IP = inner_product_forward;
  auto ip = [&](const memory::desc& w) {
    return IP::primitive_desc(IP::desc(prop_kind::forward_inference, src_md, w, bias.get_desc(), dst_md), eng);
  };
  auto mm = [&](const memory::desc& w) {
    return matmul::primitive_desc(matmul::desc(src_md, w, bias_row.get_desc(), dst_md), eng);
  };
  // Inner product weights are [N, K]; matmul weights [K, N] (tag ba: stored [N, K], as torch's Linear).
  time_fc<IP::primitive_desc, IP>("inner product, any", {{N, K}, dt::f32, tag::any}, ip, src, dst, bias);
  time_fc<IP::primitive_desc, IP>("inner product, [N, K]", {{N, K}, dt::f32, tag::ab}, ip, src, dst, bias);
  time_fc<matmul::primitive_desc, matmul>("matmul, any", {{K, N}, dt::f32, tag::any}, mm, src, dst, bias_row);
  time_fc<matmul::primitive_desc, matmul>("matmul, [N, K]", {{K, N}, dt::f32, tag::ba}, mm, src, dst, bias_row);
  time_fc<matmul::primitive_desc, matmul>("matmul, [K, N]", {{K, N}, dt::f32, tag::ab}, mm, src, dst, bias_row);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 8 && std::string(argv[1]) == "conv") return conv(argc, argv);
  if (argc == 4 && std::string(argv[1]) == "fc") return fc(argv);
  fprintf(stderr, "usage: %s conv G IC OC H KHxKW STRIDE SRC/DST...  |  %s fc K N\n", argv[0], argv[0]);
  return 2;
}
