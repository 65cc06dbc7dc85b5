#!/bin/bash
# Instructions one run of a model takes (millions, counted by valgrind: the same on a busy machine as on a quiet
# one, unlike times), from two `cnnx bench` runs of N1 and N2 iterations at 1 thread: (count(N2) - count(N1)) /
# (N2 - N1), so loading and planning cancel out. For A/B of two builds where the machine is too loaded to time.
#
#   bench/instructions_per_run.sh CNNX_BINARY MODEL.onnx [N1 N2]     (default 1 3; valgrind runs ~50x slower)
set -euo pipefail
binary=$1 model=$2 n1=${3:-1} n2=${4:-3}
count() {
  # GOMP_SPINCOUNT set: the tool then does not start itself again (tools/omp_waiting.cc), outside valgrind
  GOMP_SPINCOUNT=${GOMP_SPINCOUNT:-3000} valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" bench "$model" --threads 1 --iters "$1" \
      --warmup 0 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
a=$(count "$n1") b=$(count "$n2")
awk -v a="$a" -v b="$b" -v n1="$n1" -v n2="$n2" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 / (n2 - n1) }'
