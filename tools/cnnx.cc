// cnnx: run, check and inspect ONNX CNN models. See `cnnx --help` and DESIGN.md's command-line contract.
// Exit codes: 0 success, 1 error (a bad model, input or a failed check), 2 usage error.
#include <iostream>

#include "tools/commands.h"

int main(int argc, char** argv) {
  cnnx::tools::spin_briefly(argv);
  CLI::App app{"cnnx: a minimal CNN inference engine for ONNX models"};
  app.require_subcommand(1);
  const cnnx::tools::Command commands[] = {
      cnnx::tools::add_run_command(app),
      cnnx::tools::add_inspect_command(app),
      cnnx::tools::add_check_command(app),
      cnnx::tools::add_bench_command(app),
      cnnx::tools::add_pool_command(app),
      cnnx::tools::add_quantize_command(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    for (const auto& command : commands)
      if (command.app->parsed()) return command.action();
  } catch (const cnnx::Error& e) {
    std::cerr << "cnnx: error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "cnnx: error: out of memory\n";
    return 1;
  }
  return 2;
}
