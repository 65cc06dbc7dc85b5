// The cnnx command-line program: one function per subcommand, each adding itself to the CLI11 app and
// returning what to run when it is chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "classify/image_input.h"
#include "api/cnnx.h"
#include "api/tools_facade.h"

namespace cnnx::tools {

struct Command {
  CLI::App* app;                // the subcommand
  std::function<int()> action;  // runs it once parsed; returns the exit code
};

Command add_run_command(CLI::App& app);
Command add_inspect_command(CLI::App& app);
Command add_check_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_pool_command(CLI::App& app);

// --disable-pass NAME and --disable-kernel [OP:]KERNEL (Options::disabled_passes, disabled_kernels), each
// repeatable, one value per flag.
void add_disable_options(CLI::App* sub, std::vector<std::string>& passes, std::vector<std::string>& kernels);

// Prints the model's load-time warnings (ModelReport::warnings) on stderr, one "cnnx: warning: ..." line each.
void print_warnings(const Model& model);

// Inputs for `model` from files: positional files bind to the inputs in order, "NAME=FILE" pairs by name.
// .npy and .pb (ONNX TensorProto) are read as they are; consecutive images (.png .jpg .bmp) form one
// batch for one input, preprocessed as the model's metadata says (see classify/image_input.h).
std::vector<Tensor> load_inputs(const Model& model, const std::vector<std::string>& files,
                                const std::vector<std::string>& named, const ImageOverrides& overrides = {});

// The shape of every input, in order, for planning without data (bench, inspect). "--shape NAME=D0,D1,..."
// options give an input's shape; otherwise the declared shape with an unknown first (batch) dim set to
// `batch`. An input with another unknown dim, or none declared, throws a cnnx::Error naming the input, its
// dims and the --shape to give; so does a --shape for no input of the model.
std::vector<Shape> planning_shapes(const Model& model, const std::vector<std::string>& shape_options, int64_t batch);

}  // namespace cnnx::tools
