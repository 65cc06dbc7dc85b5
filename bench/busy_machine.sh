#!/usr/bin/env bash
# cnnx vs ONNX Runtime on a busy machine: starts HOGS CPU-bound processes (`sh -c 'while :; do :; done'`),
# then times `cnnx bench --json` and ONNX Runtime (ort_bench.js) in alternating rounds of ITERS runs each, and
# prints per model every round's median, the worst round and the median round of each engine, their ratios
# (cnnx / ORT; the targets of issue 17 are worst <= 1.2 and median <= 1.0), and the teams cnnx's runs used.
# HOGS=0 measures the quiet machine the same way. The hogs are killed however the script ends.
#
# Usage: bench/busy_machine.sh CNNX MODELS_DIR ORT_NODE_MODULES [hogs=2] [rounds=4] [iters=15] [model ...]
#   MODELS_DIR holds NAME/model.onnx + NAME/input.npy (models/export_torchvision.py --out MODELS_DIR NAME ...);
#   ORT_NODE_MODULES: npm install --ignore-scripts onnxruntime-node@1.30.0 (see ../shared/peers/README.md).
# Environment: CNNX_THREADS (cnnx bench --threads; default 0, the adaptive team), ORT_THREADS (default: the
#   number of cores), CNNX_ENV (extra environment for cnnx only, e.g. "GOMP_SPINCOUNT=10000").
# Measure on an otherwise idle machine (load average < 1 before the hogs start): the script prints it.
set -euo pipefail
cnnx=$1 dir=$2 ort=$3 hogs=${4:-2} rounds=${5:-4} iters=${6:-15}
shift $(( $# < 6 ? $# : 6 ))
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(mobilenet_v2 resnet50 efficientnet_b0)
peers=$(cd "$(dirname "$0")/../../shared/peers" 2>/dev/null && pwd || true)
[ -n "$peers" ] || { echo "../shared/peers not found" >&2; exit 1; }
cores=$(nproc)
results=$(mktemp)
hog_pids=()
cleanup() {
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -f "$results"
}
trap cleanup EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $cores cores, $hogs hogs" >&2
for ((h = 0; h < hogs; ++h)); do
  sh -c 'while :; do :; done' &
  hog_pids+=($!)
done
sleep 1
for m in "${models[@]}"; do
  for ((r = 0; r < rounds; ++r)); do
    echo "cnnx $m $(env ${CNNX_ENV:-} "$cnnx" bench "$dir/$m/model.onnx" --threads "${CNNX_THREADS:-0}" --iters "$iters" --json)" >> "$results"
    echo "ort $m $(NODE_PATH=$ort node "$peers/ort_bench.js" "$dir/$m/model.onnx" "$dir/$m/input.npy" "${ORT_THREADS:-$cores}" "$iters")" >> "$results"
  done
done
/usr/bin/python3 - "$results" "$hogs" <<'PY'
import collections, json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    engine, model, text = line.split(" ", 2)
    rows.setdefault(model, {}).setdefault(engine, []).append(json.loads(text))
print(f"{sys.argv[2]} hogs; per-round medians (ms); worst and median over rounds; ratio = cnnx / ORT")
print(f"{'model':18s} {'engine':6s} {'worst':>8s} {'median':>8s}  rounds")
for model, e in rows.items():
    figures = {}
    for engine in ("cnnx", "ort"):
        rounds = [r["median_ms"] for r in e.get(engine, [])]
        figures[engine] = (max(rounds), statistics.median(rounds))
        print(f"{model:18s} {engine:6s} {figures[engine][0]:8.2f} {figures[engine][1]:8.2f}  "
              + " ".join(f"{x:.2f}" for x in rounds))
    teams = collections.Counter()
    for r in e.get("cnnx", []):
        teams.update({k: v for k, v in r.get("run_threads", {}).items()})
    (cw, cm), (ow, om) = figures["cnnx"], figures["ort"]
    print(f"{model:18s} {'ratio':6s} {cw / ow:8.2f} {cm / om:8.2f}  cnnx runs by team: "
          + ", ".join(f"{k} thread{'s' if k != '1' else ''} x{v}" for k, v in sorted(teams.items())))
PY
