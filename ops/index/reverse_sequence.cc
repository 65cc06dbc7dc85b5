#include "ops/index/reverse_sequence.h"

#include "ops/common/node_checks.h"

namespace cnnx {

ReverseSequenceParams parse_reverse_sequence(const Node& node) {
  check_node(node, 2, 2, {"batch_axis", "time_axis"});
  ReverseSequenceParams p;
  p.batch_axis = node.attrs.get_int("batch_axis", 1);
  p.time_axis = node.attrs.get_int("time_axis", 0);
  require((p.batch_axis == 0 && p.time_axis == 1) || (p.batch_axis == 1 && p.time_axis == 0),
          "attributes batch_axis and time_axis must be 0 and 1 in either order, got ", p.batch_axis, " and ",
          p.time_axis);
  return p;
}

std::vector<ValueInfo> infer_reverse_sequence(const ReverseSequenceParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(x.rank() >= 2, "input must have rank >= 2, got shape ", to_string(x.shape));
  require_dtype(in, 1, {DType::i64}, "sequence_lens");
  require(in[1].rank() == 1, "sequence_lens must be 1-D, got shape ", to_string(in[1].shape));
  const int64_t batch = x.shape[size_t(p.batch_axis)], lens = in[1].shape[0];
  require(batch < 0 || lens < 0 || batch == lens, "sequence_lens has ", lens, " entries; the batch axis has ", batch);
  return {same_as_input(in)};
}

}  // namespace cnnx
