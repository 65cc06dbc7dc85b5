#include "engine/node_eval.h"

#include "engine/deferred_folding.h"
#include "engine/float16_compute.h"
#include "engine/op.h"
#include "engine/releasable_pages.h"

namespace cnnx {

namespace {

std::vector<ValueInfo> infer_typed(const Node& node, const std::vector<ValueInfo>& in, int64_t max_tensor_bytes) {
  const OpDef& def = *node.def;
  bool any_unknown_rank = false, all_constant = true;
  for (size_t i = 0; i < in.size(); ++i) {
    const ValueInfo& v = in[i];
    if (v.dtype == DType::undefined) {
      // An omitted optional input; or, at load, a value given neither a type by inference nor by the file
      // (an untyped value computed from one of unknown rank): as unknown as an unknown rank.
      any_unknown_rank = any_unknown_rank || (i < node.inputs.size() && node.inputs[i] >= 0);
      continue;
    }
    any_unknown_rank = any_unknown_rank || !v.rank_known;
    all_constant = all_constant && v.constant != nullptr;
  }
  std::vector<ValueInfo> out;
  if (any_unknown_rank) {
    // Nothing useful can be said without ranks; the plan (with concrete inputs) infers again.
    out.assign(node.outputs.size(), ValueInfo::unknown(DType::undefined));
    return out;
  }
  out = def.infer(*node.params, in);
  require(out.size() >= node.outputs.size(), "shape inference gave ", out.size(), " outputs for ",
          node.outputs.size());
  out.resize(node.outputs.size());
  bool outputs_known = true, outputs_have_data = true;
  for (size_t i = 0; i < out.size(); ++i) {
    if (node.outputs[i] < 0) continue;  // omitted optional output
    outputs_known = outputs_known && (out[i].constant || out[i].concrete());
    outputs_have_data = outputs_have_data && out[i].constant;
  }
  if (!all_constant || !outputs_known || outputs_have_data || def.hints.runs_subgraphs) return out;
  // Every input is known: run the reference kernel now (constant folding).
  std::vector<Tensor> results(out.size());
  KernelIO io;
  for (const ValueInfo& v : in) io.in.push_back(v.constant.get());
  for (size_t i = 0; i < out.size(); ++i) {
    if (node.outputs[i] >= 0 && !out[i].constant) {
      const int64_t bytes = checked_mul(checked_numel(out[i].shape), int64_t(dtype_size(out[i].dtype)), "output size");
      if (bytes > max_tensor_bytes)
        fail("output ", i, " ", to_string(out[i].shape), " would take ", bytes, " bytes, beyond the tensor limit of ",
             max_tensor_bytes);
      // A large folded constant (a float16 weight widened by its Cast) goes where the importer puts large
      // initializers, so the plan that prepares it can release its bytes (engine/releasable_pages.h); a fresh
      // mapping reads as zeros, as Tensor's allocation does.
      results[i] = size_t(bytes) >= kReleasableBytes
                       ? Tensor::adopt(out[i].dtype, out[i].shape, allocate_releasable(size_t(bytes)))
                       : Tensor(out[i].dtype, out[i].shape);
    }
    io.out.push_back(node.outputs[i] >= 0 ? &results[i] : nullptr);
  }
  compile_reference(def, node.params, in, out)->run(io);
  for (size_t i = 0; i < out.size(); ++i)
    if (results[i].defined()) out[i].constant = std::make_shared<const Tensor>(results[i]);
  return out;
}

}  // namespace

std::vector<ValueInfo> infer_node(const Node& node, const std::vector<ValueInfo>& in, int64_t max_tensor_bytes) {
  return with_node_context(node, [&] {
    if (!computes_float16_in_float32(node, in)) return infer_typed(node, in, max_tensor_bytes);
    // An op without 16-bit kernels (engine/float16_compute.h): inferred (and folded) in float32, its float32
    // outputs typed as the 16-bit inputs.
    const DType half = float16_type_of(in);
    std::vector<ValueInfo> in32;
    for (const ValueInfo& v : in) in32.push_back(is_float16_family(v.dtype) ? float16_family_info_as_float32(v) : v);
    std::vector<ValueInfo> out = infer_typed(node, in32, max_tensor_bytes);
    for (ValueInfo& v : out)
      if (v.dtype == DType::f32) v = float32_info_as(v, half);
    return out;
  });
}

void defer_dequantized_constant(const Node& node, std::vector<ValueInfo>& in) {
  if (!node.domain.empty() || node.op_type != "DequantizeLinear" || in.empty() || !in[0].constant) return;
  in[0] = ValueInfo::of(in[0].dtype, in[0].shape);
}

}  // namespace cnnx
