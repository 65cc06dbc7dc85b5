// ScatterElements (opset 11+; `reduction` from 16, max and min from 18) and the Scatter it replaced (opsets
// 9, 10): output = data, then for every element of indices (int32/int64, data's rank, at most data's dim along
// every axis but `axis`) output[i... with index `axis` replaced by indices[i...]] is set from updates[i...]
// (indices' shape), or combined with it by `reduction` (ScatterND's: add, mul, max, min; bool add is or, mul
// is and), in index order (with `none`, the last of repeated indices wins). Faster R-CNN's MultiScaleRoIAlign
// puts each level's pooled RoIs back in order with it. An index outside [-n, n) is an error naming the node,
// checked before anything is written. Reference kernel only. kExact: copies, or one IEEE operation per update.
#pragma once

#include "engine/op.h"
#include "ops/index/scatter_nd.h"

namespace cnnx {

struct ScatterElementsParams : OpParams {
  int64_t axis = 0;
  ScatterReduction reduction = ScatterReduction::none;
};

ScatterElementsParams parse_scatter_elements(const Node& node);
std::vector<ValueInfo> infer_scatter_elements(const ScatterElementsParams& p, const std::vector<ValueInfo>& in);
void scatter_elements_ref(const ScatterElementsParams& p, const KernelIO& io);

}  // namespace cnnx
