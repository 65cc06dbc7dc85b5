// The op registry's start-up checks (engine/op_registry.h): unique names, a reference kernel last, params (and
// hints' hooks) checked against the op they belong to; and the built-in registry passing them. Disabled kernels
// (Options::disabled_kernels): how they are named and checked, and a plan going around them.
#include <doctest/doctest.h>

#include <set>

#include "engine/compare.h"
#include "engine/op_registry.h"
#include "ops/builtin_ops.h"
#include "ops/common/activation.h"
#include "runtime/plan.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/op_harness.h"

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
  r.add(test_op("T", {ref_kernel(run_test)}));
  CHECK_THROWS_WITH_AS(r.add(test_op("T", {ref_kernel(run_test)})), "op T is registered twice", Error);
  CHECK_THROWS_AS(r.add(test_op("NoKernels", {})), Error);
  Kernel<TestParams> fast{"fast", [](const std::shared_ptr<const TestParams>&, const KernelArgs&) {
                            return Compiled::decline("never");
                          }};
  CHECK_THROWS_AS(r.add(test_op("RefFirst", {ref_kernel(run_test), fast})), Error);
  CHECK_THROWS_AS(r.add(test_op("TwoRefs", {ref_kernel(run_test), ref_kernel(run_test)})), Error);
  Kernel<TestParams> neither{"fast"};
  Kernel<TestParams> both = fast;
  both.run = run_test;
  Kernel<TestParams> ref_without_run{"ref"};
  CHECK_THROWS_AS(r.add(test_op("Neither", {neither, ref_kernel(run_test)})), Error);
  CHECK_THROWS_AS(r.add(test_op("Both", {both, ref_kernel(run_test)})), Error);
  CHECK_THROWS_AS(r.add(test_op("EmptyRef", {ref_without_run})), Error);
  r.add(test_op("FastThenRef", {fast, ref_kernel(run_test)}));
  CHECK(r.names() == std::vector<std::string>{"FastThenRef", "T"});
}

TEST_CASE("a kernel given another op's params fails with an internal error, not a bad cast") {
  OpRegistry r;
  r.add(test_op("T", {ref_kernel(run_test)}));
  const OpDef& def = r.find("", "T", 19);
  const ParamsPtr other = std::make_shared<NoParams>();
  const std::vector<ValueInfo> in{ValueInfo::of(DType::f32, {1})}, out = in;
  const KernelLayouts plain = plain_layouts(1);
  CHECK_THROWS_WITH_AS(def.reference().compile(other, {in, out, plain}),
                       "internal error: op T was given params of another op", Error);
  CHECK_THROWS_AS(def.infer(NoParams(), in), Error);
}

TEST_CASE("an op's hints reach its OpDef as written; a hook written for another params type is refused") {
  OpRegistry r;
  OpSpec<TestParams> spec = test_op("H", {ref_kernel(run_test)});
  spec.hints.flops = [](const TestParams& p, const std::vector<ValueInfo>&) { return double(p.value) + 2; };
  spec.hints.terms = [](const TestParams& p) {
    TermsRun<TestParams> run{p, 3};
    run.params.value = 9;
    return run;
  };
  spec.hints.copies_only = true;
  spec.hints.float_shape_inputs = {1};
  r.add(std::move(spec));
  const OpDef& def = r.find("", "H", 19);
  TestParams p;
  p.value = 5;
  REQUIRE(def.hints.flops);
  CHECK(def.hints.flops(p, {}) == 7);
  const TermsRun<OpParams> terms = def.hints.terms(p);
  CHECK(terms.scale == 3);
  CHECK(dynamic_cast<const TestParams&>(*terms.params).value == 9);
  CHECK(def.hints.copies_only);
  CHECK(def.hints.float_shape_inputs == std::vector<size_t>{1});
  CHECK_FALSE(def.hints.caution);
  CHECK_FALSE(def.hints.permutes_axes);
  CHECK_FALSE(def.hints.joins_inputs_along);
  CHECK_THROWS_WITH_AS(def.hints.flops(NoParams(), {}), "internal error: an op's hook was given params of another op",
                       Error);

  OpSpec<TestParams> wrong = test_op("W", {ref_kernel(run_test)});
  wrong.hints.caution = [](const NoParams&, const std::vector<ValueInfo>&) { return std::string(); };
  CHECK_THROWS_WITH_AS(r.add(std::move(wrong)), "op W has a hook written for another params type", Error);
  CHECK_FALSE(r.has("", "W"));
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

TEST_CASE("a disabled kernel is named as KERNEL or OP:KERNEL; reference kernels and unknown names are refused") {
  OpRegistry r;
  Kernel<TestParams> fast{"fast", [](const std::shared_ptr<const TestParams>&, const KernelArgs&) {
                            return Compiled::decline("never");
                          }};
  r.add(test_op("A", {fast, ref_kernel(run_test)}));
  r.add(test_op("B", {ref_kernel(run_test)}));
  OpSpec<TestParams> in_domain = test_op("D", {fast, ref_kernel(run_test)});
  in_domain.domain = "x.y";
  r.add(in_domain);
  const OpDef& a = r.find("", "A", 19);
  const OpDef& d = r.find("x.y", "D", 19);
  for (const char* name : {"fast", "D:fast", "x.y:D:fast"}) {
    CAPTURE(name);
    CHECK(d.names_kernel(name, d.kernels[0]));
    CHECK_NOTHROW(r.check_disabled_kernels({name}));
  }
  CHECK(!a.names_kernel("x.y:A:fast", a.kernels[0]));
  CHECK(!d.names_kernel("y:D:fast", d.kernels[0]));
  for (const char* name : {"fast", "A:fast"}) {
    CAPTURE(name);
    CHECK(a.names_kernel(name, a.kernels[0]));
    CHECK(!a.names_kernel(name, a.reference()));
    CHECK_NOTHROW(r.check_disabled_kernels({name}));
  }
  CHECK(!a.names_kernel("B:fast", a.kernels[0]));
  CHECK(!a.names_kernel("A:", a.kernels[0]));
  CHECK_THROWS_WITH_AS(r.check_disabled_kernels({"fast", "B:fast"}), "op B has no kernel 'fast' (its kernels: ref)",
                       Error);
  CHECK_THROWS_WITH_AS(r.check_disabled_kernels({"x.y:D:slow"}), "op D has no kernel 'slow' (its kernels: fast, ref)",
                       Error);
  for (const char* name : {"slow", "C:fast", ":fast"}) {
    CAPTURE(name);
    CHECK_THROWS_WITH_AS(r.check_disabled_kernels({name}),
                         (std::string("unknown kernel '") + name +
                          "' (known: fast, each also as OP:KERNEL; `cnnx inspect` shows each node's)").c_str(),
                         Error);
  }
  for (const char* name : {"ref", "A:ref", "B:ref", "x.y:D:ref"}) {
    CAPTURE(name);
    CHECK_THROWS_WITH_AS(r.check_disabled_kernels({name}),
                         (std::string("kernel '") + name +
                          "' cannot be disabled: reference kernels run what no other kernel takes").c_str(),
                         Error);
  }
}

TEST_CASE("a plan skips the disabled kernels and says so where a node would have run them") {
  GraphBuilder b;
  b.input("x", {2, 3}).node("Relu", {"x"}, {"y"}).node("Sigmoid", {"y"}, {"z"}).output("z");
  build_graph(b.g, builtin_ops());
  auto graph = std::make_shared<const Graph>(b.g);
  struct Case {
    std::vector<std::string> disabled;
    const char *relu, *sigmoid;
  };
  for (const Case& c : {Case{{}, "dnnl", "dnnl"}, Case{{"Relu:dnnl"}, "ref", "dnnl"}, Case{{"dnnl"}, "ref", "ref"},
                        Case{{"Sigmoid:dnnl", "Conv:dnnl"}, "dnnl", "ref"}}) {
    std::string disabled;
    for (const std::string& d : c.disabled) disabled += d + " ";
    CAPTURE(disabled);
    auto plan = Plan::build(graph, {graph->value(graph->inputs[0]).info}, Backend::dnnl, {}, c.disabled);
    REQUIRE(plan->steps().size() == 2);
    CHECK(plan->steps()[0].kernel == c.relu);
    CHECK(plan->steps()[1].kernel == c.sigmoid);
    for (const PlanStep& step : plan->steps()) {
      const bool skipped = step.kernel == std::string("ref");
      CHECK(step.declined.size() == (skipped ? 1u : 0u));
      if (skipped) CHECK(step.declined[0].rfind("dnnl: disabled (--disable-kernel ", 0) == 0);
    }
    const Tensor x = testing::make_tensor({2, 3}, {-1, 2, -3, 4, -5, 6});
    const Tensor want = Plan::build(graph, {graph->value(graph->inputs[0]).info}, Backend::ref)->run({x})[0];
    // Relu is exact on any kernel: the output is within Sigmoid's tolerance of the reference plan's.
    const Difference d = compare(plan->run({x})[0], want, builtin_ops().find("", "Sigmoid", 19).tolerance);
    CHECK_MESSAGE(d.within, d.detail);
  }
}
