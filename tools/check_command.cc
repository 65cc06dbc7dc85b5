// cnnx check MODEL [INPUT ...]: runs the model with the chosen backend and the reference kernel beside every
// node, prints a per-node table (op, kernel, max abs and rel error, the largest error as a fraction of its
// element's tolerance, the tolerance) and exits 1 when any node is beyond its op's tolerance. Without input
// files, float inputs are filled with seeded uniform [-1, 1) values (shapes from --shape, or the declared ones
// with the batch dim set to --batch).
#include <iomanip>
#include <iostream>
#include <memory>

#include "tools/commands.h"

namespace cnnx::tools {

namespace {

struct CheckOptions : ModelArgs {
  std::vector<std::string> inputs;
  std::vector<std::string> shapes;  // NAME=D0,D1,...
  int64_t batch = 1;
  unsigned seed = 1;
};

int check(const CheckOptions& o) {
  Model model = Model::load(o.model, engine_options(o));
  print_warnings(model);
  std::vector<Tensor> inputs =
      o.inputs.empty() ? random_inputs(model, planning_shapes(model, o.shapes, o.batch), o.seed,
                                       "cnnx check makes only float32 inputs, pass input files")
                       : load_inputs(model, o.inputs, {});
  std::vector<NodeCheck> checks = model.check(inputs);
  std::cout << std::left << std::setw(32) << "node" << std::setw(20) << "op" << std::setw(8) << "kernel"
            << std::right << std::setw(12) << "max abs" << std::setw(12) << "max rel" << std::setw(10) << "of tol"
            << "  tolerance (abs+rel[+terms_rel*sqrt(K+2)*sum|terms|])" << "\n";
  int beyond = 0;
  for (const NodeCheck& c : checks) {
    std::cout << std::left << std::setw(32) << c.node << std::setw(20) << c.op_type << std::setw(8) << c.kernel
              << std::right << std::scientific << std::setprecision(2) << std::setw(12) << c.max_abs
              << std::setw(12) << c.max_rel << std::setw(10) << c.max_ratio << "  " << c.tol_abs << "+" << c.tol_rel;
    if (c.tol_terms_rel > 0) std::cout << "+" << c.tol_terms_rel << "*sqrt(K+2)*sum|terms|";
    std::cout << std::defaultfloat << (c.within ? "" : "  BEYOND: " + c.detail) << "\n";
    beyond += c.within ? 0 : 1;
  }
  std::cout << checks.size() << " nodes checked against the reference kernels, " << beyond << " beyond tolerance\n";
  return beyond ? 1 : 0;
}

}  // namespace

Command add_check_command(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* sub = add_model_command(app, "check", "Compare every node's kernel with the reference kernel", *o);
  sub->add_option("inputs", o->inputs, "Input files (default: seeded random float inputs)");
  add_disable_options(sub, o->disabled_passes, o->disabled_kernels);
  add_backend_option(sub, o->backend, "Kernels to check");
  add_shape_options(sub, o->shapes, o->batch, "a random input", " of random inputs", CLI::NonNegativeNumber);
  sub->add_option("--seed", o->seed, "Seed for random inputs");
  return {sub, [o] { return check(*o); }};
}

}  // namespace cnnx::tools
