// The team a run uses (runtime/team.h): the signal it reads, the concurrency rule, pinning, the cores a
// container allows, and what the choice does to the outputs.
#include <doctest/doctest.h>

#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "api/cnnx.h"
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

TEST_CASE("a CPU quota's text gives the cores it allows, rounded up; no limit or no quota gives 0") {
  struct Case {
    const char* cpu_max;
    int cores;
  };
  for (const Case& c : {Case{"max 100000\n", 0}, Case{"100000 100000\n", 1}, Case{"150000 100000\n", 2},
                        Case{"50000 100000", 1}, Case{"400000 100000", 4}, Case{"1 1000000", 1}, Case{"", 0},
                        Case{"max", 0}, Case{"100000", 0}, Case{"-1 100000", 0}, Case{"0 100000", 0},
                        Case{"100000 0", 0}, Case{"1e5 100000", 0}, Case{"100000 100000 7", 0},
                        Case{"9999999999999999999999 100000", 0}}) {
    CAPTURE(c.cpu_max);
    CHECK(cnnx::cpu_max_cores(c.cpu_max) == c.cores);
  }
  CHECK(cnnx::cfs_quota_cores("-1\n", "100000\n") == 0);
  CHECK(cnnx::cfs_quota_cores("200000\n", "100000\n") == 2);
  CHECK(cnnx::cfs_quota_cores("250000", "100000") == 3);
  CHECK(cnnx::cfs_quota_cores("", "100000") == 0);
  CHECK(cnnx::cfs_quota_cores("200000", "") == 0);
}

namespace {
// A cgroup file system of our own making: root/<dir>/<file> holds `text`.
struct FakeCgroupRoot {
  std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("cnnx_cgroup_test_" + std::to_string(::getpid()));
  FakeCgroupRoot() { std::filesystem::remove_all(root); }
  ~FakeCgroupRoot() { std::filesystem::remove_all(root); }
  void write(const std::string& dir, const std::string& file, const std::string& text) const {
    std::filesystem::create_directories(root / dir);
    std::ofstream(root / dir / file) << text;
  }
  int cores(const std::string& proc_self_cgroup) const { return cnnx::cgroup_cpu_cores(root.string(), proc_self_cgroup); }
};
}  // namespace

TEST_CASE("the tightest quota on the process's cgroup and its ancestors, v2 and v1, read under a given root") {
  FakeCgroupRoot fake;
  CHECK(fake.cores("0::/app/worker\n") == 0);  // nothing there: no limit
  fake.write("app/worker", "cpu.max", "max 100000\n");
  CHECK(fake.cores("0::/app/worker\n") == 0);
  fake.write("app", "cpu.max", "300000 100000\n");  // an ancestor's quota limits its children
  CHECK(fake.cores("0::/app/worker\n") == 3);
  fake.write("app/worker", "cpu.max", "150000 100000\n");
  CHECK(fake.cores("0::/app/worker\n") == 2);
  fake.write("", "cpu.max", "100000 100000\n");  // a container's own cgroup mounted as root, the path the host's
  CHECK(fake.cores("0::/docker/0123abcd\n") == 1);
  CHECK(fake.cores("0::/../../elsewhere\n") == 1);  // outside the cgroup namespace: root's own files only
  CHECK(fake.cores("garbage\n\n::\n") == 0);

  FakeCgroupRoot v1;
  const std::string hybrid = "12:memory:/app\n4:cpu,cpuacct:/app\n1:name=systemd:/app\n0::/app\n";
  CHECK(v1.cores(hybrid) == 0);
  v1.write("cpu,cpuacct/app", "cpu.cfs_quota_us", "-1\n");
  v1.write("cpu,cpuacct/app", "cpu.cfs_period_us", "100000\n");
  CHECK(v1.cores(hybrid) == 0);
  v1.write("cpu,cpuacct/app", "cpu.cfs_quota_us", "50000\n");
  CHECK(v1.cores(hybrid) == 1);
  FakeCgroupRoot cpu_only;  // the hierarchy mounted as root/cpu (a separate cpuacct, or a symlink's name)
  cpu_only.write("cpu", "cpu.cfs_quota_us", "200000\n");
  cpu_only.write("cpu", "cpu.cfs_period_us", "100000\n");
  CHECK(cpu_only.cores("3:cpu:/kubepods/pod1\n2:cpuacct:/kubepods/pod1\n") == 2);
  CHECK(cpu_only.cores("3:cpuacct:/kubepods/pod1\n") == 0);  // not the cpu controller
}

TEST_CASE("the default team is at least 1 and no more than OpenMP's default nor the CPUs of the affinity mask") {
  cpu_set_t cpus;
  REQUIRE(::sched_getaffinity(0, sizeof cpus, &cpus) == 0);
  const int team = cnnx::default_team();
  CAPTURE(team);
  CAPTURE(omp_get_max_threads());
  CAPTURE(CPU_COUNT(&cpus));
  CHECK(team >= 1);
  CHECK(team <= omp_get_max_threads());
  CHECK(team <= CPU_COUNT(&cpus));
}

// Whether binding a thread to one CPU caps anything here: a process with 2 CPUs or more and no pinned team
// (OMP_NUM_THREADS). Otherwise the case below is skipped (doctest's summary counts it).
bool cannot_cap_by_binding() {
  cpu_set_t cpus;
  return ::sched_getaffinity(0, sizeof cpus, &cpus) != 0 || CPU_COUNT(&cpus) < 2 || std::getenv("OMP_NUM_THREADS");
}

TEST_CASE("a model loaded on a thread bound to one CPU runs on one thread by default" *
          doctest::skip(cannot_cap_by_binding())) {
  cpu_set_t cpus;
  REQUIRE(::sched_getaffinity(0, sizeof cpus, &cpus) == 0);
  int first = 0;
  while (!CPU_ISSET(first, &cpus)) ++first;
  int threads = 0;
  std::thread bound([&] {  // the bound thread's mask only: the rest of the process keeps its CPUs
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    if (::sched_setaffinity(0, sizeof one, &one) != 0) return;
    const cnnx::Model model = cnnx::Model::load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx");
    cnnx::RunInfo info;
    model.run({cnnx::Tensor(cnnx::DType::f32, {1, 3, 64, 64})}, &info);
    threads = info.threads;
  });
  bound.join();
  CHECK(threads == 1);
}
