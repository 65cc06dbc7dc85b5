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
Command add_quantize_command(CLI::App& app);

// Starts the tool again with GOMP_SPINCOUNT=3000 unless the user set it or OMP_WAIT_POLICY (tools/omp_waiting.cc
// says why); returns when it does not (they were set, or the tool cannot start itself).
void spin_briefly(char** argv);

// What every command that loads a model is given: the model file (its first positional argument), the backend
// and the graph passes and kernels to plan without. A command's options derive from it; the add_* functions
// below declare the options, each command calling them in the order its --help lists them.
struct ModelArgs {
  std::string model;
  std::string backend = "dnnl";
  std::string precision = "fp32";
  std::vector<std::string> disabled_passes;
  std::vector<std::string> disabled_kernels;
};

// The Options to load `args.model` with: its backend, precision, disabled passes and disabled kernels.
Options engine_options(const ModelArgs& args);

// The subcommand `name` of a command that loads a model, with its first positional argument, the required
// "model" (ModelArgs::model).
CLI::App* add_model_command(CLI::App& app, const std::string& name, const std::string& description, ModelArgs& args);

// --backend dnnl|ref; `kernels` begins its help, saying what they are for ("Kernels to run").
void add_backend_option(CLI::App* sub, std::string& backend, const std::string& kernels);

// --precision fp32|bf16 (Options::precision).
void add_precision_option(CLI::App* sub, std::string& precision);

// --disable-pass NAME and --disable-kernel [OP:]KERNEL (Options::disabled_passes, disabled_kernels), each
// repeatable, one value per flag.
void add_disable_options(CLI::App* sub, std::vector<std::string>& passes, std::vector<std::string>& kernels);

// --threads N (Options::threads): 0 for up to all cores, adapting to a busy machine.
void add_threads_option(CLI::App* sub, int& threads);

// --shape NAME=D0,D1,... and --batch N, what planning_shapes reads. Their help says "the shape of " + `input`
// and "Value for an unknown batch (first) dim" + `batch_use`; `batch_check` bounds --batch.
void add_shape_options(CLI::App* sub, std::vector<std::string>& shapes, int64_t& batch, const std::string& input,
                       const std::string& batch_use, const CLI::Validator& batch_check);

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

// Float inputs of these shapes (from planning_shapes), uniform in [-1, 1) from a std::mt19937 seeded with `seed`,
// drawn input by input, element by element. An input of another dtype throws a cnnx::Error
// "input 'NAME' is DTYPE; " + `float_only`.
std::vector<Tensor> random_inputs(const Model& model, const std::vector<Shape>& shapes, unsigned seed,
                                  const std::string& float_only);

}  // namespace cnnx::tools
