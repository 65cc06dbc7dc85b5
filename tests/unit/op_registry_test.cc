// The op registry's start-up checks (engine/op_registry.h): unique names, a reference kernel last, and params
// checked against the op they belong to; and the built-in registry passing them.
#include <doctest/doctest.h>

#include <set>

#include "engine/op_registry.h"
#include "ops/builtin_ops.h"
#include "ops/common/activation.h"

using namespace cnnx;

namespace {

struct TestParams : OpParams {
  int value = 0;
};

TestParams parse_test(const Node&) { return {}; }
std::vector<ValueInfo> infer_test(const TestParams&, const std::vector<ValueInfo>& in) { return {in.at(0)}; }
void run_test(const TestParams&, const KernelIO&) {}

OpSpec<TestParams> test_op(const char* type, std::vector<Kernel<TestParams>> kernels) {
  return {type, 1, parse_test, infer_test, kExact, std::move(kernels)};
}

}  // namespace

TEST_CASE("the registry refuses a second op of one name and an op without a reference kernel last") {
  OpRegistry r;
  r.add(test_op("T", {ref_kernel<TestParams>(run_test)}));
  CHECK_THROWS_WITH_AS(r.add(test_op("T", {ref_kernel<TestParams>(run_test)})), "op T is registered twice", Error);
  CHECK_THROWS_AS(r.add(test_op("NoKernels", {})), Error);
  Kernel<TestParams> fast{"fast", [](const std::shared_ptr<const TestParams>&, const KernelArgs&) {
                            return Compiled::decline("never");
                          }};
  CHECK_THROWS_AS(r.add(test_op("RefFirst", {ref_kernel<TestParams>(run_test), fast})), Error);
  CHECK_THROWS_AS(r.add(test_op("TwoRefs", {ref_kernel<TestParams>(run_test), ref_kernel<TestParams>(run_test)})), Error);
  r.add(test_op("FastThenRef", {fast, ref_kernel<TestParams>(run_test)}));
  CHECK(r.names() == std::vector<std::string>{"FastThenRef", "T"});
}

TEST_CASE("a kernel given another op's params fails with an internal error, not a bad cast") {
  OpRegistry r;
  r.add(test_op("T", {ref_kernel<TestParams>(run_test)}));
  const OpDef& def = r.find("", "T", 19);
  const ParamsPtr other = std::make_shared<NoParams>();
  const std::vector<ValueInfo> in{ValueInfo::of(DType::f32, {1})}, out = in;
  const KernelLayouts plain = plain_layouts(1);
  CHECK_THROWS_WITH_AS(def.reference().compile(other, {in, out, plain}),
                       "internal error: op T was given params of another op", Error);
  CHECK_THROWS_AS(def.infer(NoParams(), in), Error);
}

TEST_CASE("every built-in op ends with its reference kernel, and every activation row with an op is registered") {
  const OpRegistry& r = builtin_ops();
  const std::vector<std::string> names = r.names();
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
  for (const std::string& name : names) {
    CAPTURE(name);
    const size_t colon = name.find(':');
    const std::string domain = colon == std::string::npos ? "" : name.substr(0, colon);
    const OpDef& def = r.find(domain, colon == std::string::npos ? name : name.substr(colon + 1), 19);
    REQUIRE(!def.kernels.empty());
    CHECK(def.reference().name == "ref");
  }
  for (const ActivationDef& row : activations()) {
    CAPTURE(row.name);
    CHECK(r.has(row.domain, row.name) == (row.since > 0 || std::string(row.name) == "Clip"));
  }
}
