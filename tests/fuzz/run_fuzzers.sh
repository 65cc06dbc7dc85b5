#!/usr/bin/env bash
# Builds cnnx's libFuzzer targets with clang (ASan + UBSan + libFuzzer coverage, in their own build dir),
# makes the seed corpora and runs each target for SECONDS (default 60), one after the other.
#
#   tests/fuzz/run_fuzzers.sh [SECONDS]
#
# Environment: CNNX_FUZZ_BUILD_DIR (default build-fuzz), CNNX_NODE_TESTS (ONNX node test data, generated into
# the build dir when unset), CNNX_FUZZ_TARGETS (default "fuzz_load_plan fuzz_run_model"), CNNX_FUZZ_JOBS
# (build parallelism, default 2), CNNX_FUZZ_TESTS (a ctest regex: also build the targets CNNX_FUZZ_TEST_TARGETS
# in this build, an ASan + UBSan one, and run the tests it matches before fuzzing; .ci/run does, so that its
# sanitizer tests and its fuzzers share one build). The corpus each run grows is kept in
# BUILD/fuzz/corpus/<target> and reused by the next run; findings go to BUILD/fuzz/artifacts/ (reproduce one
# with `BUILD/<target> FILE`).
# Exits 1 when a target found a crash, a sanitizer report, a leak, a timeout or an out-of-memory.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
build=${CNNX_FUZZ_BUILD_DIR:-build-fuzz}
targets=${CNNX_FUZZ_TARGETS:-fuzz_load_plan fuzz_run_model}
work=$build/fuzz

# oneDNN runs on gcc's OpenMP runtime; clang links the same one (-fopenmp=libgomp) rather than its libomp.
gomp=$(g++ -print-file-name=libgomp.so)
tests=${CNNX_FUZZ_TESTS:-}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ -DCNNX_FUZZ=ON \
      -DCNNX_BUILD_TESTS=$([ -n "$tests" ] && echo ON || echo OFF) -DOpenMP_CXX_FLAGS=-fopenmp=libgomp -DOpenMP_CXX_LIB_NAMES=gomp \
      -DOpenMP_gomp_LIBRARY="$gomp" > "$build.configure.log" || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j"${CNNX_FUZZ_JOBS:-2}" --target $targets ${tests:+${CNNX_FUZZ_TEST_TARGETS:-}}
[ -z "$tests" ] || ctest --test-dir "$build" --output-on-failure -j2 -R "$tests"

nodes=${CNNX_NODE_TESTS:-$work/node_tests}
[ -n "${CNNX_NODE_TESTS:-}" ] || /usr/bin/python3 tests/node/generate_node_tests.py "$nodes"
/usr/bin/python3 tests/bad_input/make_corpus.py "$work/bad_input" > /dev/null
/usr/bin/python3 tests/fuzz/make_seeds.py "$nodes" "$work/bad_input" "$work/seeds"

# The targets bound every tensor to 16 MiB (fuzz_support.h), so a single allocation over 512 MiB is an
# unbounded allocation in cnnx and reported (-malloc_limit_mb). Leaks are findings too (LeakSanitizer).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export CNNX_FUZZ_MODEL=$work/seeds/tiny_cnn.onnx
status=0
for target in $targets; do
  corpus=$work/corpus/$target
  mkdir -p "$corpus" "$work/artifacts"
  dict=()
  [ "$target" = fuzz_load_plan ] && dict=(-dict="$work/seeds/onnx.dict")
  echo "== $target: $seconds s (log: $work/$target.log)"
  if "$build/$target" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 -malloc_limit_mb=512 \
       -print_final_stats=1 "${dict[@]}" -artifact_prefix="$work/artifacts/$target-" \
       "$corpus" "$work/seeds/$target" > "$work/$target.log" 2>&1; then
    grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$work/$target.log" || true
  else
    status=1
    echo "FAIL: $target found a problem; the end of its log:"
    tail -n 60 "$work/$target.log"
  fi
done
exit $status
