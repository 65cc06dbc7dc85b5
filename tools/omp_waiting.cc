// How long the command-line tool's OpenMP threads spin at a barrier before they sleep. libgomp reads
// GOMP_SPINCOUNT and OMP_WAIT_POLICY once, when it is loaded, before main; so when the user set neither, the
// tool starts itself again (the same pid, argv and environment) with GOMP_SPINCOUNT=3000. Why 3000: a team of
// N threads on a machine whose cores are busy with other work spends its time slices spinning for descheduled
// partners with libgomp's default (300000 spins): resnet50 and mobilenet_v2 pinned to 2 threads ran 6-14x
// slower than ONNX Runtime beside two CPU hogs, ~0.9x with 3000 spins, and the quiet zoo moved within noise
// (bench/README.md, "On a busy machine"). Sleeping at once (passive) costs short parallel regions (a CRNN's LSTM
// steps, 3x). (Setting the variable from .preinit_array does not work: libc's initializer resets environ after
// it.) Where the tool cannot start itself again (no /proc), it runs with libgomp's default. Under valgrind,
// which does not follow an exec unless told, set GOMP_SPINCOUNT (bench/instructions_per_run.sh does). Library
// users set the variables themselves (README "Threads").
#include "tools/commands.h"

#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace cnnx::tools {

void spin_briefly(char** argv) {
  if (std::getenv("GOMP_SPINCOUNT") || std::getenv("OMP_WAIT_POLICY")) return;
  std::vector<char*> env;
  for (char** e = environ; *e; ++e) env.push_back(*e);
  std::string spin = "GOMP_SPINCOUNT=3000";
  env.push_back(spin.data());
  env.push_back(nullptr);
  execve("/proc/self/exe", argv, env.data());  // returns only when it fails
}

}  // namespace cnnx::tools
