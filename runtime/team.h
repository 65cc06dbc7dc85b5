// How many threads a run uses: the whole team (Options::threads, or OpenMP's default) or the calling thread
// alone, chosen per run from how busy the machine is and how many runs are in flight.
//
// Why: oneDNN's OpenMP team splits each primitive's work statically by the team size it was created for and
// waits at barriers, spinning (libgomp's default, 300000 spins per wait). When other processes want every
// core, a descheduled team member stalls each barrier for a time slice and a run gets up to 30x slower. A
// run on the calling thread alone has no barrier: it loses only the CPU share the others take.
//
// The rule (a process-wide policy, since cores are):
//   - A run goes narrow (one thread) while another adaptive run of this process is in flight: k concurrent
//     runs use k threads, never k x N (Options::threads is the most threads one run uses).
//   - Otherwise a run goes wide unless the machine was found contended: after a wide run, the calling
//     thread's run-queue delay (/proc/thread-self/schedstat: time spent runnable but not running) is
//     compared with the run's wall time; above kContendedShare of it (and kContendedNs), the next runs go
//     narrow. Narrow runs that still wait in the run queue keep it narrow (the machine has no core to
//     spare); once a narrow run waits no more, the wide team is probed again, after a back-off that
//     doubles (up to kMaxBackoffRuns) each time the probe finds contention, and resets when a wide run
//     finds none. A probe is made only when /proc/loadavg's count of runnable tasks says the rest of the
//     team would find idle cores right now.
//   - No signal (no /proc, a sandbox without schedstat): every run is wide, as before, apart from the
//     concurrency rule above.
// Pinned teams (team_pinned) never adapt: every run uses exactly the team the user asked for.
//
// The whole team, unless pinned, is default_team(): no more threads than the cores the process may use. A
// container's CPU quota does not show as run-queue delay (a throttled process waits off the run queue), so
// it is read where it is set.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace cnnx {

// Cores a CPU quota allows, rounded up (as the JVM, .NET and Go round): from cgroup v2's cpu.max
// ("150000 100000" is 2; "max 100000" is no limit) or cgroup v1's cpu.cfs_quota_us and cpu.cfs_period_us
// ("-1" is no limit). 0 when there is no limit or the text is not a quota.
int cpu_max_cores(const std::string& cpu_max);
int cfs_quota_cores(const std::string& quota_us, const std::string& period_us);

// The tightest CPU quota, in cores as above, on the process's cgroups and their ancestors: `proc_self_cgroup`
// is the text of /proc/self/cgroup, `root` where the cgroup file systems are mounted (/sys/fs/cgroup). v2
// ("0::/path"): root/path/cpu.max; v1 ("4:cpu,cpuacct:/path"): root/cpu,cpuacct/path/cpu.cfs_quota_us (or
// root/cpu/path/...). Inside a container the path may name the host's cgroup while root holds the
// container's own: every ancestor's files are read, root's included. 0 when nothing limits or nothing can
// be read.
int cgroup_cpu_cores(const std::string& root, const std::string& proc_self_cgroup);

// The whole team of an unpinned run: OpenMP's default team (libgomp's: the CPUs the process had when it
// started), capped by the CPUs the calling thread may run on now (sched_getaffinity) and by the cgroup CPU quota
// (cgroup_cpu_cores under /sys/fs/cgroup). What cannot be read caps nothing. At least 1.
int default_team();

// The calling thread's run-queue delay in nanoseconds so far (the second field of
// /proc/thread-self/schedstat), or -1 when it cannot be read. A thread keeps its file open.
int64_t thread_run_queue_delay_ns();

// True when the user chose the thread count: Options::threads > 0, or OMP_NUM_THREADS set in the
// environment. Such teams are pinned: same team every run, so the same bits every run.
bool team_pinned(int options_threads);

// One run's team: constructing it decides (and counts the run as in flight); destroying it reports what the
// run saw to the process-wide policy. Create it on the thread that runs.
class TeamRun {
 public:
  // A run was contended when its calling thread waited in the run queue for more than kContendedShare of its
  // wall time and more than kContendedNs: a stalled barrier costs a scheduler time slice (milliseconds),
  // while a short run on an idle machine can lose a tenth of its time to one wakeup of a daemon.
  static constexpr double kContendedShare = 0.10;
  static constexpr int64_t kContendedNs = 1000000;
  static constexpr int kMinBackoffRuns = 4;
  static constexpr int kMaxBackoffRuns = 256;

  // `adaptive`: false for pinned teams and teams of one (then wide() is always true and nothing is measured).
  // `team`: the wide team's size.
  TeamRun(bool adaptive, int team);
  ~TeamRun();
  TeamRun(const TeamRun&) = delete;
  TeamRun& operator=(const TeamRun&) = delete;

  bool wide() const { return wide_; }

 private:
  bool adaptive_, wide_ = true, crowded_ = false;  // crowded: narrow because another run was in flight
  int64_t delay_start_ns_ = -1;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace cnnx
