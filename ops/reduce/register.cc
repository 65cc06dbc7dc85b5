#include "ops/families.h"
#include "ops/reduce/arg_reduce.h"
#include "ops/reduce/cumsum.h"
#include "ops/reduce/reduce.h"
#include "ops/reduce/top_k.h"

namespace cnnx {

namespace {

template <ReduceKind kind>
ReduceParams parse(const Node& node) {
  return parse_reduce(kind, node);
}

template <bool is_max>
ArgReduceParams parse_arg(const Node& node) {
  return parse_arg_reduce(is_max, node);
}

}  // namespace

void register_reduce_ops(OpRegistry& r) {
  using K = ReduceKind;
  using RP = OpSpec<ReduceParams>;
  const std::vector<Kernel<ReduceParams>> ref = {ref_kernel(reduce_ref)};
  const std::vector<Kernel<ReduceParams>> dnnl = {reduce_dnnl_kernel(), ref_kernel(reduce_ref)};
  auto lenient = [](RP spec) {  // negative axes below opset 11, with a warning (ops/reduce/reduce.h)
    spec.hints.caution = reduce_caution;
    return spec;
  };
  r.add(lenient(RP{"ReduceMean", 1, parse<K::mean>, infer_reduce, kReduceMeanTolerance, dnnl}));
  r.add(lenient(RP{"ReduceSum", 1, parse<K::sum>, infer_reduce, kReduceSumTolerance, dnnl}));
  r.add(lenient(RP{"ReduceMax", 1, parse<K::max>, infer_reduce, kExact, ref}));
  r.add(lenient(RP{"ReduceMin", 1, parse<K::min>, infer_reduce, kExact, ref}));
  r.add(lenient(RP{"ReduceProd", 1, parse<K::prod>, infer_reduce, kReduceSumTolerance, dnnl}));
  r.add(lenient(RP{"ReduceL1", 1, parse<K::l1>, infer_reduce, kReduceSumTolerance, dnnl}));
  r.add(lenient(RP{"ReduceL2", 1, parse<K::l2>, infer_reduce, kReduceSumTolerance, dnnl}));
  r.add(lenient(RP{"ReduceSumSquare", 1, parse<K::sum_square>, infer_reduce, kReduceSumTolerance, dnnl}));
  r.add(lenient(RP{"ReduceLogSum", 1, parse<K::log_sum>, infer_reduce, kReduceSumTolerance, ref}));
  r.add(lenient(RP{"ReduceLogSumExp", 1, parse<K::log_sum_exp>, infer_reduce, kReduceSumTolerance, ref}));
  using AP = OpSpec<ArgReduceParams>;
  for (AP spec : {AP{"ArgMax", 1, parse_arg<true>, infer_arg_reduce, kExact, {ref_kernel(arg_reduce_ref)}},
                  AP{"ArgMin", 1, parse_arg<false>, infer_arg_reduce, kExact, {ref_kernel(arg_reduce_ref)}}}) {
    spec.hints.caution = arg_reduce_caution;  // negative axes below opset 11, with a warning
    r.add(std::move(spec));
  }
  r.add(OpSpec<CumSumParams>{"CumSum", 11, parse_cumsum, infer_cumsum, kCumSumTolerance, {ref_kernel(cumsum_ref)}});
  r.add(OpSpec<TopKParams>{"TopK", 1, parse_top_k, infer_top_k, kExact, {ref_kernel(top_k_ref)}});
}

}  // namespace cnnx
