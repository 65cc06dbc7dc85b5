// cnnx quantize MODEL --calibrate DIR_OR_IMAGES... --out OUT.onnx [--per-channel] [--method minmax]
//                     [--reduce-range] [--exclude NODE...] [--threads N] [--json]
//
// Writes a QDQ int8 model calibrated on the images and prints its accuracy report. The work is the Python
// package's (python/cnnx/quantizer.py: ONNX protobuf editing is Python's onnx module's job, and cnnx's C++ keeps
// protobuf to its import): this command runs `python3 -m cnnx quantize` with the same arguments, finding the
// package beside the program (<dir of cnnx>/python, the build tree) or where Python installs it.
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "tools/commands.h"

namespace cnnx::tools {

namespace {

struct QuantizeArgs {
  std::string model, out, method = "minmax";
  std::vector<std::string> calibrate, exclude;
  bool per_channel = false, reduce_range = false, json = false;
  int threads = 0;
};

int run_quantize(const QuantizeArgs& a) {
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n > 0) {
    std::string dir(exe, size_t(n));
    dir = dir.substr(0, dir.rfind('/')) + "/python";
    if (access((dir + "/cnnx/__init__.py").c_str(), R_OK) == 0) {
      const char* old = std::getenv("PYTHONPATH");
      setenv("PYTHONPATH", (old && *old ? dir + ":" + old : dir).c_str(), 1);
    }
  }
  std::vector<std::string> args{"/usr/bin/python3", "-m", "cnnx", "quantize", a.model, "--out", a.out,
                                "--method", a.method, "--threads", std::to_string(a.threads), "--calibrate"};
  args.insert(args.end(), a.calibrate.begin(), a.calibrate.end());
  if (a.per_channel) args.push_back("--per-channel");
  if (a.reduce_range) args.push_back("--reduce-range");
  if (a.json) args.push_back("--json");
  if (!a.exclude.empty()) {
    args.push_back("--exclude");
    args.insert(args.end(), a.exclude.begin(), a.exclude.end());
  }
  std::vector<char*> argv;
  for (std::string& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  fail("cannot run ", args[0], " for quantize (python3 with the onnx module is needed)");
}

}  // namespace

Command add_quantize_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("quantize", "a QDQ int8 model calibrated on images, and its accuracy report");
  auto a = std::make_shared<QuantizeArgs>();
  cmd->add_option("model", a->model, "float32 ONNX classifier (opset 13 or later)")->required();
  cmd->add_option("--calibrate", a->calibrate, "calibration images: folders (searched recursively) or files")->required();
  cmd->add_option("--out", a->out, "the QDQ model to write")->required();
  cmd->add_flag("--per-channel", a->per_channel, "weights scaled per output channel");
  cmd->add_option("--method", a->method, "activation ranges: minmax")->check(CLI::IsMember({"minmax"}));
  cmd->add_flag("--reduce-range", a->reduce_range, "7-bit weights: exact single-pass int8 on CPUs without VNNI");
  cmd->add_option("--exclude", a->exclude, "Conv nodes to leave in float32");
  cmd->add_option("--threads", a->threads, "threads per run (default: all)");
  cmd->add_flag("--json", a->json, "print the report as JSON");
  return {cmd, [a] { return run_quantize(*a); }};
}

}  // namespace cnnx::tools
