#include "runtime/team.h"

#include <fcntl.h>
#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <vector>

namespace cnnx {

namespace {

// The first 4 KiB of a small system file (/proc, cgroup), or "" when it cannot be read.
std::string read_small_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  char text[4096];
  const ssize_t n = ::read(fd, text, sizeof text);
  ::close(fd);
  return n > 0 ? std::string(text, size_t(n)) : "";
}

// A whole number of microseconds (at most 18 digits, surrounding whitespace allowed), or -1.
int64_t parse_microseconds(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\n"), end = text.find_last_not_of(" \t\n");
  if (begin == std::string::npos || end - begin >= 18) return -1;
  int64_t value = 0;
  for (size_t i = begin; i <= end; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool lists(const std::string& comma_separated, const std::string& item) {
  std::istringstream items(comma_separated);
  for (std::string each; std::getline(items, each, ',');)
    if (each == item) return true;
  return false;
}

// This thread's /proc/thread-self/schedstat, opened once ("-1" when it cannot be).
struct SchedstatFile {
  int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  ~SchedstatFile() {
    if (fd >= 0) ::close(fd);
  }
};

// How many other tasks are running or runnable on the machine right now: /proc/loadavg's fourth field
// ("running/total") counts every runnable task, this thread (which is running as it reads) included.
// -1 when it cannot be read.
int others_runnable() {
  static const int fd = ::open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char text[128];
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);  // "0.52 0.58 0.59 2/467 12345\n"
  if (n <= 0) return -1;
  text[n] = '\0';
  int running = 0;
  const char* field = text;
  for (int spaces = 0; *field && spaces < 3; ++field) spaces += *field == ' ';
  if (std::sscanf(field, "%d/", &running) != 1) return -1;
  return running - 1;
}

// True unless the machine lacks `team - 1` idle cores for the rest of a team right now.
bool cores_free_for(int team) {
  static const long cores = ::sysconf(_SC_NPROCESSORS_ONLN);
  const int others = others_runnable();
  return others < 0 || cores <= 0 || others + team <= cores;
}

// What the process has learnt about the machine, and the runs in flight.
struct Policy {
  std::mutex mutex;
  int in_flight = 0;
  int64_t runs = 0;          // finished
  int64_t narrow_until = 0;  // runs finish count before which runs go narrow
  int backoff = TeamRun::kMinBackoffRuns;
  bool contended = false;    // the last wide run waited in the run queue
};

Policy& policy() {
  static Policy p;
  return p;
}

}  // namespace

int64_t thread_run_queue_delay_ns() {
  thread_local SchedstatFile file;
  if (file.fd < 0) return -1;
  char text[128];
  const ssize_t n = ::pread(file.fd, text, sizeof text - 1, 0);  // "<on cpu ns> <run-queue ns> <slices>\n"
  if (n <= 0) return -1;
  text[n] = '\0';
  char* end = nullptr;
  std::strtoull(text, &end, 10);
  if (end == text) return -1;
  const char* second = end;
  const unsigned long long delay = std::strtoull(second, &end, 10);
  return end == second ? -1 : int64_t(delay);
}

int cpu_max_cores(const std::string& cpu_max) {
  std::istringstream fields(cpu_max);
  std::string quota, period, more;
  if (!(fields >> quota >> period) || (fields >> more)) return 0;
  return quota == "max" ? 0 : cfs_quota_cores(quota, period);
}

int cfs_quota_cores(const std::string& quota_us, const std::string& period_us) {
  const int64_t quota = parse_microseconds(quota_us), period = parse_microseconds(period_us);  // "-1": none
  if (quota <= 0 || period <= 0) return 0;
  return int(std::min<int64_t>(quota / period + (quota % period != 0), 1 << 20));
}

int cgroup_cpu_cores(const std::string& root, const std::string& proc_self_cgroup) {
  int tightest = 0;
  std::istringstream lines(proc_self_cgroup);
  for (std::string line; std::getline(lines, line);) {  // "<hierarchy id>:<controllers>:<path>"
    const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    std::string path = line.substr(b + 1);
    const bool v2 = controllers.empty();
    if ((!v2 && !lists(controllers, "cpu")) || path.empty() || path[0] != '/') continue;
    if (path.find("/..") != std::string::npos) path = "/";  // outside this cgroup namespace: root's files only
    const std::vector<std::string> mounts =
        v2 ? std::vector<std::string>{root} : std::vector<std::string>{root + "/" + controllers, root + "/cpu"};
    for (const std::string& mount : mounts)
      for (std::string p = path;; p = p.substr(0, std::max<size_t>(p.rfind('/'), 1))) {
        const std::string dir = mount + (p == "/" ? "" : p);
        const int cores = v2 ? cpu_max_cores(read_small_file(dir + "/cpu.max"))
                             : cfs_quota_cores(read_small_file(dir + "/cpu.cfs_quota_us"),
                                               read_small_file(dir + "/cpu.cfs_period_us"));
        if (cores > 0 && (tightest == 0 || cores < tightest)) tightest = cores;
        if (p == "/") break;
      }
  }
  return tightest;
}

int default_team() {
  int team = omp_get_max_threads();
  cpu_set_t cpus;
  if (::sched_getaffinity(0, sizeof cpus, &cpus) == 0) team = std::min(team, CPU_COUNT(&cpus));
  const int quota = cgroup_cpu_cores("/sys/fs/cgroup", read_small_file("/proc/self/cgroup"));
  if (quota > 0) team = std::min(team, quota);
  return std::max(team, 1);
}

bool team_pinned(int options_threads) {
  static const bool omp_num_threads_set = std::getenv("OMP_NUM_THREADS") != nullptr;
  return options_threads > 0 || omp_num_threads_set;
}

TeamRun::TeamRun(bool adaptive, int team) : adaptive_(adaptive) {
  if (!adaptive_) return;
  delay_start_ns_ = thread_run_queue_delay_ns();
  start_ = std::chrono::steady_clock::now();
  Policy& p = policy();
  std::lock_guard<std::mutex> lock(p.mutex);
  crowded_ = ++p.in_flight > 1;
  wide_ = !crowded_ && (delay_start_ns_ < 0 || p.runs >= p.narrow_until);
  // A probe of the wide team after contention costs up to a time slice per barrier if the machine is still
  // busy: made only when enough cores are idle at this moment.
  if (wide_ && p.contended && delay_start_ns_ >= 0 && !cores_free_for(team)) {
    wide_ = false;
    p.narrow_until = p.runs + 1;
  }
}

TeamRun::~TeamRun() {
  if (!adaptive_) return;
  const int64_t delay_end_ns = delay_start_ns_ < 0 ? -1 : thread_run_queue_delay_ns();
  const double wall_ns = double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now() - start_).count());
  Policy& p = policy();
  std::lock_guard<std::mutex> lock(p.mutex);
  --p.in_flight;
  ++p.runs;
  if (crowded_ || delay_end_ns < 0 || wall_ns <= 0) return;  // no signal, or one our own runs made
  const int64_t delay_ns = delay_end_ns - delay_start_ns_;
  const bool contended = delay_ns > kContendedNs && double(delay_ns) > kContendedShare * wall_ns;
  if (wide_) p.contended = contended;
  if (wide_ && contended) {
    p.narrow_until = p.runs + p.backoff;
    p.backoff = std::min(2 * p.backoff, kMaxBackoffRuns);
  } else if (wide_) {
    p.backoff = kMinBackoffRuns;
  } else if (contended) {
    p.narrow_until = std::max(p.narrow_until, p.runs + 1);
  }
}

}  // namespace cnnx
