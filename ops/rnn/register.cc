#include "ops/families.h"
#include "ops/rnn/recurrent.h"

namespace cnnx {

void register_rnn_ops(OpRegistry& r) {
  using Parse = RnnParams (*)(const Node&);
  const std::pair<const char*, Parse> ops[] = {{"LSTM", parse_lstm}, {"GRU", parse_gru}, {"RNN", parse_rnn}};
  for (const auto& [type, parse] : ops) {
    OpSpec<RnnParams> spec{type, 1, parse, infer_recurrent, kRecurrentTolerance, {recurrent_dnnl_kernel(), recurrent_ref_kernel()}};
    spec.hints.flops = recurrent_flops;
    spec.hints.terms = recurrent_terms;
    r.add(std::move(spec));
  }
}

}  // namespace cnnx
