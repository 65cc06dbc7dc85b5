// TopK (opsets 1, 10, 11): the k largest (or smallest) elements along one axis, and their int64 indices.
//
//   k        opset 1: the attribute `k` (required). Opset 10+: input 1, an int64 tensor holding one value,
//            read at run time. 0 <= k <= the axis's size; a larger k is an error naming the node.
//   axis     (default -1) in [-rank, rank).
//   largest  (opset 11+, default 1) 0 picks the smallest.
//   sorted   (opset 11+, default 1) 0 leaves the order unspecified; cnnx returns them sorted anyway.
// Order: best first; equal values keep the lower index first. NaN ranks above every number (numpy's sort
// order), so it comes first with largest = 1 and last with largest = 0.
// Reference kernel only: oneDNN 2.6 has no top-k or sort primitive.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct TopKParams : OpParams {
  int64_t k = -1;  // opset 1's attribute; -1 when k is input 1
  int64_t axis = -1;
  bool largest = true;
};

TopKParams parse_top_k(const Node& node);
std::vector<ValueInfo> infer_top_k(const TopKParams& p, const std::vector<ValueInfo>& in);
void top_k_ref(const TopKParams& p, const KernelIO& io);
// k, checked against the dim of the axis it selects along (unknown: -1).
int64_t checked_top_k(int64_t k, int64_t axis_dim, int64_t axis);

}  // namespace cnnx
