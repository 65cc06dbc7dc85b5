// The team a run uses (runtime/team.h): the signal it reads, the concurrency rule, pinning, and what the
// choice does to the outputs.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <thread>

#include "runtime/cnnx.h"
#include "runtime/team.h"

TEST_CASE("this thread's run-queue delay reads from /proc/thread-self/schedstat and never goes back") {
  const int64_t before = cnnx::thread_run_queue_delay_ns();
  std::this_thread::yield();
  const int64_t after = cnnx::thread_run_queue_delay_ns();
  CAPTURE(before);
  CAPTURE(after);
  CHECK(before >= 0);  // Linux with CONFIG_SCHED_INFO, as every machine this runs on; else runs stay wide
  CHECK(after >= before);
}

TEST_CASE("a run that starts while another is in flight uses the calling thread alone") {
  cnnx::TeamRun first(true, 2);
  cnnx::TeamRun second(true, 2);
  CHECK_FALSE(second.wide());
  cnnx::TeamRun pinned(false, 2);  // pinned teams ignore what else runs
  CHECK(pinned.wide());
}

TEST_CASE("a team is pinned by Options::threads > 0 or OMP_NUM_THREADS, and adapts otherwise") {
  CHECK(cnnx::team_pinned(1));
  CHECK(cnnx::team_pinned(2));
  CHECK(cnnx::team_pinned(0) == (std::getenv("OMP_NUM_THREADS") != nullptr));
}

// The outputs of the two teams a run may pick: the wide one and the calling thread alone. oneDNN does not
// promise the same bits for different thread counts (a kernel may split a reduction by thread); on the
// models measured (the six of bench/compare_peers.sh, batch 1) and here they are identical, and this test
// says so. Each team's run also stays within every op's tolerance of the reference kernels.
TEST_CASE("one thread and two threads give the same bits (batches 1 and 32), each within tolerance") {
  for (int64_t batch : {1, 32}) {
    CAPTURE(batch);
    cnnx::Options one, two;
    one.threads = 1;
    two.threads = 2;
    cnnx::Model narrow = cnnx::Model::load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx", one);
    cnnx::Model wide = cnnx::Model::load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx", two);
    cnnx::Shape shape = narrow.inputs()[0].shape;
    for (int64_t& d : shape) d = d < 0 ? batch : d;
    cnnx::Tensor x(cnnx::DType::f32, shape);
    for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = float((i * 7919) % 255) / 255.f - 0.5f;
    cnnx::RunInfo narrow_info, wide_info;
    const cnnx::Tensor a = narrow.run({x}, &narrow_info)[0];
    const cnnx::Tensor b = wide.run({x}, &wide_info)[0];
    CHECK(narrow_info.threads == 1);
    CHECK(wide_info.threads == 2);
    REQUIRE(a.shape() == b.shape());
    CHECK(std::memcmp(a.raw(), b.raw(), a.bytes()) == 0);
    for (const cnnx::Model* m : {&narrow, &wide})
      for (const cnnx::NodeCheck& c : m->check({x})) {
        CAPTURE(c.node);
        CAPTURE(c.detail);
        CHECK(c.within);
      }
  }
}
