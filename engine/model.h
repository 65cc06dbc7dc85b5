// cnnx::Model: a loaded ONNX model, ready to run from many threads.
//
//   cnnx::Model model = cnnx::Model::load("resnet18.onnx");
//   std::vector<cnnx::Tensor> out = model.run({input});   // thread-safe
//
// Loading parses and validates the whole model (every error is a cnnx::Error naming the node or tensor).
// The first run for a set of input shapes makes a Plan for them; plans are cached (a few shapes at a time)
// and shared by all threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/graph.h"
#include "engine/onnx_import.h"
#include "engine/plan.h"
#include "engine/tensor.h"

namespace cnnx {

struct ModelOptions {
  Backend backend = Backend::ref;
  ImportLimits limits;
};

class Model {
 public:
  static Model load(const std::string& path, const ModelOptions& options = {});
  static Model load_bytes(const void* data, size_t size, const ModelOptions& options = {});

  const Graph& graph() const { return *graph_; }
  const ModelOptions& options() const;
  // Names of the inputs to feed, in order, and of the outputs run() returns, in order.
  std::vector<std::string> input_names() const;
  std::vector<std::string> output_names() const;

  // Runs the model; inputs in input_names() order. Throws cnnx::Error naming the tensor when an input's
  // element type, rank or a fixed dim does not match the model.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs) const;
  // The plan used for these inputs (made on first use, then cached).
  std::shared_ptr<const Plan> plan_for(const std::vector<Tensor>& inputs) const;

 private:
  struct State;
  Model(std::shared_ptr<const Graph> graph, const ModelOptions& options);
  std::shared_ptr<const Graph> graph_;
  std::shared_ptr<State> state_;
};

}  // namespace cnnx
