// compare_precisions (api/tools_facade.h): two plans of one graph run on the same inputs, every node output of
// the reference kept (made plain) and compared as the other plan writes the value of the same name.
#include <algorithm>
#include <cmath>
#include <map>

#include "api/tools_facade.h"
#include "runtime/model_access.h"
#include "runtime/plan.h"

namespace cnnx {

namespace {

struct Gap {
  double max_abs = 0, rel = 0;
};

// max |b - a| and that over max |a|, over float32 values of one shape; false when they are not such values.
bool difference(const Tensor& a, const Tensor& b, Gap& e) {
  if (a.dtype() != DType::f32 || b.dtype() != DType::f32 || a.shape() != b.shape()) return false;
  const float* x = a.data<float>();
  const float* y = b.data<float>();
  double diff = 0, scale = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    diff = std::max(diff, std::fabs(double(y[i]) - double(x[i])));
    scale = std::max(scale, std::fabs(double(x[i])));
  }
  e.max_abs = diff;
  e.rel = scale > 0 ? diff / scale : 0;
  return true;
}

}  // namespace

PrecisionComparison compare_precisions(const Model& reference, const Model& other, const std::vector<Tensor>& inputs) {
  PrecisionComparison c;
  std::map<std::string, Tensor> kept;  // the reference's node outputs by value name
  std::shared_ptr<const Plan> ref_plan = ModelAccess::plan(reference, inputs);
  const StepObserver keep = [&](const Node&, int value, const Tensor& plain) {
    kept[ref_plan->graph().value(value).name] = plain.clone();  // `plain` may be the arena's bytes
  };
  c.reference = ref_plan->run(inputs, nullptr, nullptr, &keep);
  std::shared_ptr<const Plan> plan = ModelAccess::plan(other, inputs);
  const Graph& g = plan->graph();
  std::map<int, double> rel_of;  // value id in `other`'s plan -> its rel error (graph inputs 0)
  const StepObserver compare = [&](const Node& node, int value, const Tensor& plain) {
    auto want = kept.find(g.value(value).name);
    // A rounding the bfloat16 plan inserted writes its input's value, rounded, under a new name.
    if (want == kept.end() && node.op_type == "RoundToFloat16") want = kept.find(g.value(node.inputs[0]).name);
    Gap e;
    if (want == kept.end() || !difference(want->second, plain, e)) return;
    double before = 0;
    for (int id : node.inputs)
      if (id >= 0 && rel_of.count(id)) before = std::max(before, rel_of[id]);
    rel_of[value] = e.rel;
    c.nodes.push_back({g.value(value).name, node.name, node.op_type, precision_name(node.precision), e.max_abs, e.rel,
                       e.rel - before});
  };
  c.other = plan->run(inputs, nullptr, nullptr, &compare);
  const std::vector<TensorSpec>& outputs = other.outputs();
  for (size_t i = 0; i < c.other.size() && i < c.reference.size(); ++i) {
    Gap e;
    difference(c.reference[i], c.other[i], e);
    c.outputs.push_back({outputs[i].name, "", "", "", e.max_abs, e.rel, 0});
  }
  return c;
}

}  // namespace cnnx
