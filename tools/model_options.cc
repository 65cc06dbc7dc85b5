// The command-line options every command that loads a model shares (ModelArgs, commands.h), and the options
// several of them share: --threads, and --shape/--batch for planning_shapes.
#include "tools/commands.h"

namespace cnnx::tools {

CLI::App* add_model_command(CLI::App& app, const std::string& name, const std::string& description, ModelArgs& args) {
  CLI::App* sub = app.add_subcommand(name, description);
  sub->add_option("model", args.model, "ONNX model file")->required();
  return sub;
}

void add_backend_option(CLI::App* sub, std::string& backend, const std::string& kernels) {
  sub->add_option("--backend", backend, kernels + ": dnnl or ref")->check(CLI::IsMember({"dnnl", "ref"}));
}

void add_precision_option(CLI::App* sub, std::string& precision) {
  sub->add_option("--precision", precision,
                  "fp32, or bf16: convolutions, matmuls, pooling and the elementwise ops between them on bfloat16 "
                  "(see cnnx inspect; float32 with a warning where it cannot run natively)");
}

void add_disable_options(CLI::App* sub, std::vector<std::string>& passes, std::vector<std::string>& kernels) {
  // One value per flag: CLI11's vector options would otherwise take the positional inputs after them too.
  sub->add_option("--disable-pass", passes, "Plan without this graph pass (repeatable; see cnnx inspect)")
      ->allow_extra_args(false);
  sub->add_option("--disable-kernel", kernels,
                  "Plan without this kernel: OP:KERNEL or KERNEL (repeatable; see cnnx inspect)")
      ->allow_extra_args(false);
}

void add_threads_option(CLI::App* sub, int& threads) {
  sub->add_option("--threads", threads, "Threads (0: up to all cores, adapting to a busy machine; N: pinned)")
      ->check(CLI::NonNegativeNumber);
}

void add_shape_options(CLI::App* sub, std::vector<std::string>& shapes, int64_t& batch, const std::string& input,
                       const std::string& batch_use, const CLI::Validator& batch_check) {
  sub->add_option("--shape", shapes, "NAME=D0,D1,...: the shape of " + input);
  sub->add_option("--batch", batch, "Value for an unknown batch (first) dim" + batch_use)->check(batch_check);
}

Options engine_options(const ModelArgs& args) {
  Options mo;
  mo.backend = parse_backend(args.backend);
  try {
    mo.precision = parse_precision(args.precision);
  } catch (const Error& e) {
    fail("--precision: ", e.what());
  }
  mo.disabled_passes = args.disabled_passes;
  mo.disabled_kernels = args.disabled_kernels;
  return mo;
}

}  // namespace cnnx::tools
