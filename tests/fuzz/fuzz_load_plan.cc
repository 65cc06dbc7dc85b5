// libFuzzer target: a model from untrusted bytes. Loads it (Model::load_from_bytes), and when it loads,
// makes inputs from its input specs, plans and runs it with the reference backend, then with the oneDNN
// backend in verify mode (each node's result checked against the reference kernel). Any cnnx::Error is
// an accepted outcome; a crash, a sanitizer report, a leak or any other exception is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/fuzz_support.h"

namespace {

// CNNX_FUZZ_VERBOSE=1: print what became of each input ("ran", "skipped" or the error), for triage:
//   CNNX_FUZZ_VERBOSE=1 BUILD/fuzz_load_plan -runs=0 CORPUS_DIR 2>&1 | grep '^fuzz_load_plan:' | sort | uniq -c
const bool verbose = std::getenv("CNNX_FUZZ_VERBOSE") != nullptr;

void report(const char* stage, const char* what) {
  if (verbose) std::fprintf(stderr, "fuzz_load_plan: %s: %s\n", stage, what);
}

// Plans and runs the model unless its inputs or plan exceed the fuzzing bounds. False when skipped.
bool plan_and_run(const cnnx::Model& model) {
  auto inputs = cnnx::fuzz::inputs_for(model.inputs());
  if (!inputs) return false;
  std::shared_ptr<const cnnx::Plan> plan = model.plan_for(*inputs);
  if (!cnnx::fuzz::plan_is_small(*plan)) return false;
  model.run(*inputs);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    auto ref = cnnx::Model::load_from_bytes(data, size, cnnx::fuzz::fuzz_options(cnnx::Backend::ref));
    if (!plan_and_run(ref)) {
      report("ref", "skipped (over the fuzzing bounds)");
      return 0;
    }
    report("ref", "ran");
  } catch (const cnnx::Error& e) {
    report("ref", e.what());
    return 0;
  }
  try {
    cnnx::Options options = cnnx::fuzz::fuzz_options(cnnx::Backend::dnnl);
    options.verify = true;
    report("dnnl", plan_and_run(cnnx::Model::load_from_bytes(data, size, options)) ? "ran" : "skipped");
  } catch (const cnnx::Error& e) {
    report("dnnl", e.what());
  }
  return 0;
}
