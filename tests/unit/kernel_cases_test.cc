// The case table: every kernel of every op against the op's reference kernel, within the op's own
// tolerance (tests/unit/kernel_cases.h runs it), in one file per op family: kernel_cases_<family>_test.cc, whose
// KERNEL_CASES lines register each table and run it. Cases name the non-reference kernels that must decline,
// with a part of the reason; every other kernel must run. A registered op without a case in a registered table
// fails the test below, and a kernel no case of its op runs fails its family's test.
//
// What tests elsewhere check instead: reference kernels against hand-checked values and textbook formulas
// (<family>_test.cc), errors and shape inference, what graph passes make (passes_test.cc, pool_lab_test.cc),
// one compiled kernel run from many threads and the pinned data-dependent differences (dnnl_kernels_test.cc).
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

TEST_CASE("every registered op has a case in the kernel table") {
  // Ops that cannot be cased, each with the reason.
  // If, Loop, Scan: their kernels need a plan's subgraph planner (engine/subgraph.h); tests/unit/control_flow_test.cc
  // and the ONNX node tests run them through plans.
  const std::set<std::string> excluded = {"If", "Loop", "Scan"};
  std::set<std::string> cased;
  for (CaseTable table : case_tables())
    for (const KernelCase& c : table()) cased.insert(c.key());
  for (const std::string& op : builtin_ops().names()) {
    CAPTURE(op);
    CHECK_MESSAGE((cased.count(op) || excluded.count(op)), "op ", op,
                  " has no case in the kernel case tables (tests/unit/kernel_cases_<family>_test.cc)");
  }
}
