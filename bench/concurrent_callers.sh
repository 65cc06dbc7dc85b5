#!/usr/bin/env bash
# Throughput of one loaded model called from K threads at once, cnnx (`cnnx bench --callers K`) vs ONNX Runtime
# sharing one session the same way (ort_callers.js), alternating in rounds. Prints per model and K the median
# over rounds of runs per second (all callers together), the ratio cnnx / ORT (issue 17: >= 1 for K = 2, 4),
# and the teams cnnx's runs used.
#
# Usage: bench/concurrent_callers.sh CNNX MODELS_DIR ORT_NODE_MODULES [rounds=3] [iters=20] [model ...]
#   iters: timed runs per caller. CNNX_THREADS (default 0, the adaptive team) and ORT_THREADS (default: the
#   number of cores) set each engine's threads per run.
set -euo pipefail
cnnx=$1 dir=$2 ort=$3 rounds=${4:-3} iters=${5:-20}
shift $(( $# < 5 ? $# : 5 ))
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(mobilenet_v2 resnet50 efficientnet_b0)
here=$(cd "$(dirname "$0")" && pwd)
results=$(mktemp)
trap 'rm -f "$results"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2
for m in "${models[@]}"; do
  for ((r = 0; r < rounds; ++r)); do
    for k in 1 2 4; do
      echo "cnnx $m $("$cnnx" bench "$dir/$m/model.onnx" --threads "${CNNX_THREADS:-0}" --callers $k --iters "$iters" --json)" >> "$results"
      echo "ort $m $(NODE_PATH=$ort node "$here/ort_callers.js" "$dir/$m/model.onnx" "$dir/$m/input.npy" "${ORT_THREADS:-$(nproc)}" $k "$iters")" >> "$results"
    done
  done
done
/usr/bin/python3 - "$results" <<'PY'
import collections, json, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    engine, model, text = line.split(" ", 2)
    j = json.loads(text)
    rows[(model, j["callers"], engine)].append(j)
print("runs/s, all callers together (median over rounds); ratio = cnnx / ORT")
print(f"{'model':18s} {'callers':>7s} {'cnnx':>8s} {'ORT':>8s} {'ratio':>6s}  cnnx runs by team")
for model, k in sorted({(m, k) for m, k, _ in rows}, key=lambda x: (x[0], x[1])):
    c, o = rows[(model, k, "cnnx")], rows[(model, k, "ort")]
    cr, orr = statistics.median(r["runs_per_s"] for r in c), statistics.median(r["runs_per_s"] for r in o)
    teams = collections.Counter()
    for r in c:
        teams.update(r.get("run_threads", {}))
    print(f"{model:18s} {k:7d} {cr:8.1f} {orr:8.1f} {cr / orr:6.2f}  "
          + ", ".join(f"{t}: {n}" for t, n in sorted(teams.items())))
PY
