// What lies inside a cnnx::Model (api/cnnx.h) that the public API does not hand out: the loaded graph, the
// plans, the team of a run, and a model made from a graph built in code. For runtime/tools_facade.cc (which
// turns these into the plain reports of api/tools_facade.h for cnnx's own front ends) and for the tests;
// front ends never include this file (tests/layering/check_layering.py).
#pragma once

#include <memory>
#include <vector>

#include "api/cnnx.h"
#include "api/tools_facade.h"
#include "engine/graph.h"

namespace cnnx {

class Plan;

class ModelAccess {
 public:
  // The graph as loaded (imported, checked, shapes inferred; before the passes of any plan).
  static const Graph& graph(const Model& model);
  // The plan for these inputs (made on first use and cached, as a run makes it): the one for the whole team.
  // Once a plan is made, the data of constants of 1 MiB or more that its kernels took in their own layouts is
  // released (dnnl/prepared_weights.h): reading it faults, until the next plan or check restores it.
  static std::shared_ptr<const Plan> plan(const Model& model, const std::vector<Tensor>& inputs);
  // The whole team of a run of this model, decided once at load: Options::threads when > 0, else OpenMP's
  // team when OMP_NUM_THREADS pins it (team_pinned), else default_team() (runtime/team.h). An adaptive run
  // uses it or the calling thread alone.
  static int team(const Model& model);
  // What its plans compute in, decided at load (api/tools_facade.h).
  static const PrecisionReport& precision(const Model& model);
  // A model sharing its graph and options whose plans run bfloat16 emulated (bfloat16_emulated).
  static Model emulating_bfloat16(const Model& model);
  // A model of `graph`, which build_graph (engine/graph.h) completed as it completes an imported one, with
  // `options` checked as Model::load checks them.
  static Model from_graph(Graph graph, const Options& options);
};

}  // namespace cnnx
