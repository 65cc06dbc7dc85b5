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
#pragma once

#include <chrono>
#include <cstdint>

namespace cnnx {

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
