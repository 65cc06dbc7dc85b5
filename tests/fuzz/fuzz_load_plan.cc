// libFuzzer target: a model from untrusted bytes. Loads it (Model::load_from_bytes), and when it loads,
// makes inputs from its input specs, plans and runs it with the reference backend, then checks it with the
// oneDNN backend (Model::check: each node's result against its reference kernel). Any cnnx::Error is an
// accepted outcome; a crash, a sanitizer report, a leak or any other exception is a finding, and so is a
// wrong answer: a node whose oneDNN result is beyond its op's tolerance on finite values (a NaN or infinity
// that differs is the case table's to judge: special values have documented exceptions, README).
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

// Plans and runs the model unless its inputs or plan exceed the fuzzing bounds; with `check`, every node
// against its reference kernel, aborting (a libFuzzer finding) on a wrong answer. False when skipped.
bool plan_and_run(const cnnx::Model& model, bool check) {
  auto inputs = cnnx::fuzz::inputs_for(model.inputs());
  if (!inputs) return false;
  std::shared_ptr<const cnnx::Plan> plan = cnnx::ModelAccess::plan(model, *inputs);
  if (!cnnx::fuzz::plan_is_small(*plan)) return false;
  if (!check) {
    model.run(*inputs);
    return true;
  }
  for (const cnnx::NodeCheck& c : model.check(*inputs))
    if (!c.within && c.max_ratio > 1) {
      std::fprintf(stderr, "fuzz_load_plan: wrong answer: node '%s' (%s) kernel %s: %s (%.3g of its tolerance)\n",
                   c.node.c_str(), c.op_type.c_str(), c.kernel.c_str(), c.detail.c_str(), c.max_ratio);
      std::abort();
    }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    auto ref = cnnx::Model::load_from_bytes(data, size, cnnx::fuzz::fuzz_options(cnnx::Backend::ref));
    if (!plan_and_run(ref, false)) {
      report("ref", "skipped (over the fuzzing bounds)");
      return 0;
    }
    report("ref", "ran");
  } catch (const cnnx::Error& e) {
    report("ref", e.what());
    return 0;
  }
  try {
    report("dnnl", plan_and_run(cnnx::Model::load_from_bytes(data, size, cnnx::fuzz::fuzz_options(cnnx::Backend::dnnl)),
                                true) ? "checked" : "skipped");
  } catch (const cnnx::Error& e) {
    report("dnnl", e.what());
  }
  return 0;
}
