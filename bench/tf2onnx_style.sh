#!/usr/bin/env bash
# A tf2onnx-style MobileNet (tests/passes/tf2onnx_graphs.py: NHWC input, BatchNorm as Mul+Add, Relu6 as Clip,
# Transpose round trips, explicit Pads) timed three ways in alternating rounds, batch 1: cnnx without the
# passes written for tf2onnx's patterns (--disable-pass for each, "before"), cnnx with every pass ("after"),
# and ONNX Runtime 1.30 (its default graph optimizations). Prints each round's medians, then the median of the
# rounds, the ratios to ONNX Runtime and the ISA (cnnx_machine_limits).
#
# Usage: bench/tf2onnx_style.sh BUILD_DIR ORT_NODE_MODULES [threads=2] [rounds=5] [iters=30] [size=224]
#   NHWC_OPS=1: the model written without tf2onnx's transpose optimizer (each BatchNorm, Relu6 in NHWC).
#   threads is ONNX Runtime's; cnnx runs with its default team (--threads 0) when that is every core, as
#   compare_peers.sh does, else (or with CNNX_THREADS=N) pinned to that count.
set -euo pipefail
build=$1 ort=$2 threads=${3:-2} rounds=${4:-5} iters=${5:-30} size=${6:-224}
cnnx_threads=${CNNX_THREADS:-$([ "$threads" = "$(nproc)" ] && echo 0 || echo "$threads")}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
model=$work/mobilenet_nhwc.onnx
/usr/bin/python3 "$here/../tests/passes/tf2onnx_graphs.py" "$model" --size "$size" ${NHWC_OPS:+--nhwc-ops}
/usr/bin/python3 -c "import numpy as np; np.save('$work/x.npy', np.random.default_rng(0).uniform(0, 255, (1, $size, $size, 3)).astype(np.float32))"
new_passes=(--disable-pass elementwise-before-transpose --disable-pass cancel-transposes --disable-pass reduce-before-transpose --disable-pass pad-through-transpose
            --disable-pass fold-mul-add)
# "median min" of one timed run.
times() { /usr/bin/python3 -c "import json, sys; j = json.loads(sys.stdin.read().strip().splitlines()[-1]); print(j['median_ms'], j['min_ms'])"; }
cnnx_times() { "$build/cnnx" bench "$model" --threads "$cnnx_threads" --iters "$iters" --warmup 5 --json "$@" | times; }
: > "$work/rounds"
for r in $(seq "$rounds"); do
  before=$(cnnx_times "${new_passes[@]}")
  after=$(cnnx_times)
  ort_ms=$(NODE_PATH=$ort node /work/shared/peers/ort_bench.js "$model" "$work/x.npy" "$threads" "$iters" | times)
  echo "round $r (median min, ms): cnnx before $before, after $after, onnxruntime $ort_ms"
  echo "$before $after $ort_ms" >> "$work/rounds"
done
/usr/bin/python3 - "$work/rounds" "$("$build/cnnx_machine_limits" --threads 1 --buffer-mb 64 --reps 1 | /usr/bin/python3 -c "import json, sys; print(json.load(sys.stdin)['isa'])")" \
                  "$threads" "$size" "$cnnx_threads" <<'EOF'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
cols = list(zip(*rows))
print(f"isa {sys.argv[2]}, {sys.argv[3]} threads (cnnx {sys.argv[5]}), batch 1, {sys.argv[4]}x{sys.argv[4]}, {len(rows)} rounds:")
for what, pick in (("median of the rounds' medians", statistics.median), ("best of the rounds' minimums", min)):
    before, after, ort = (pick(cols[i]) for i in ((0, 2, 4) if pick is statistics.median else (1, 3, 5)))
    print(f"  {what}: cnnx before {before:.2f} ms ({before / ort:.2f}x ORT), after {after:.2f} ms "
          f"({after / ort:.2f}x ORT), onnxruntime {ort:.2f} ms; after/before {after / before:.2f}")
EOF
