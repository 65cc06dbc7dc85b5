// One node of a graph: an op applied to values (by id), with its attributes as read from the model and, once
// the graph is built, its op definition and parsed params. Ops' parse functions read nodes (engine/op.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/attributes.h"
#include "engine/precision.h"

namespace cnnx {

class OpDef;
struct OpParams;

struct Node {
  std::string name;
  std::string op_type;
  std::string domain;  // "" for the default ONNX domain
  std::vector<int> inputs;   // value ids; -1 for an omitted optional input
  std::vector<int> outputs;  // value ids; -1 for an omitted optional output
  Attributes attrs;
  int opset = 0;                             // version of the node's domain the model imports
  const OpDef* def = nullptr;                // set by build_graph
  std::shared_ptr<const OpParams> params;    // set by build_graph
  std::string note;                          // what a graph pass made this node from ("" for model nodes)
  Precision precision = Precision::f32;      // what a plan computes it in (passes/bfloat16_plan.h)
  std::string precision_why;                 // in a bfloat16 plan, why it is bf16 or stayed float32

  // "node 'conv1' (Conv)", for messages.
  std::string label() const;
};

}  // namespace cnnx
