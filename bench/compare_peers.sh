#!/usr/bin/env bash
# cnnx vs ONNX Runtime 1.30 vs PyTorch 1.13 on exported torchvision models: batch 1, runs alternating between
# engines in rounds within one session (shared machines drift, so only same-run ratios mean anything). Prints
# one table with medians of the per-round medians, ratios, load + first run and RSS, the teams cnnx's runs
# used, and the geometric mean of cnnx / ONNX Runtime.
#
# Usage: bench/compare_peers.sh CNNX MODELS_DIR ORT_NODE_MODULES [threads=2] [rounds=3] [model ...]
#   threads: ONNX Runtime's and PyTorch's thread count. cnnx runs with its default team (--threads 0: up to
#   every core, adapting to a busy machine), as an app would, unless CNNX_THREADS=N pins it.
#   MODELS_DIR holds NAME/model.onnx + NAME/input.npy: models/export_torchvision.py --out MODELS_DIR NAME ...
#   ORT_NODE_MODULES: npm install --ignore-scripts onnxruntime-node@1.30.0 (see ../shared/peers/README.md)
#   ort_bench.js reports first_run_ms from the start of loading, so it is already load + first run.
#   PyTorch is Debian's python3-torch (run with /usr/bin/python3); set NO_TORCH=1 to skip it.
set -euo pipefail
cnnx=$1 dir=$2 ort=$3 threads=${4:-2} rounds=${5:-3}
shift $(( $# < 5 ? $# : 5 ))
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(resnet50 mobilenet_v2 squeezenet1_1 efficientnet_b0 densenet121 shufflenet_v2_x1_0)
peers=$(cd "$(dirname "$0")/../../shared/peers" 2>/dev/null && pwd || true)
[ -n "$peers" ] || { echo "../shared/peers not found" >&2; exit 1; }
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for m in "${models[@]}"; do
  for ((r = 0; r < rounds; ++r)); do
    echo "cnnx $m $("$cnnx" bench "$dir/$m/model.onnx" --threads "${CNNX_THREADS:-0}" --iters 20 --json)" >> "$results"
    echo "ort $m $(NODE_PATH=$ort node "$peers/ort_bench.js" "$dir/$m/model.onnx" "$dir/$m/input.npy" "$threads" 20)" >> "$results"
    [ -n "${NO_TORCH:-}" ] || echo "torch $m $(/usr/bin/python3 "$peers/torch_bench.py" "$m" "$threads" 20 2>/dev/null)" >> "$results"
  done
done
/usr/bin/python3 - "$results" "$threads" "${CNNX_THREADS:-0}" <<'PY'
import collections, json, math, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    engine, model, text = line.split(" ", 2)
    rows.setdefault(model, {}).setdefault(engine, []).append(json.loads(text))
med = lambda runs, key: statistics.median(r[key] for r in runs) if runs else float("nan")


def teams(runs):  # "2 x58 1 x2": cnnx's timed runs by the team they used
    count = collections.Counter()
    for r in runs:
        count.update({int(k): v for k, v in r.get("run_threads", {}).items()})
    return " ".join(f"{t} x{n}" for t, n in sorted(count.items(), reverse=True))


print(f"peers' threads {sys.argv[2]}, cnnx --threads {sys.argv[3]}, batch 1; medians of per-round medians (ms);"
      f" ratio = cnnx / peer")
print(f"{'model':20s} {'cnnx':>8s} {'ORT':>8s} {'torch':>8s} {'torch-jit':>9s} {'/ORT':>6s} {'/jit':>6s}"
      f" {'cnnx load+1st':>13s} {'ORT load+1st':>12s} {'cnnx RSS':>9s} {'ORT RSS':>8s}  cnnx teams (runs)")
logs = []
for model, e in rows.items():
    c, o, t = e.get("cnnx", []), e.get("ort", []), e.get("torch", [])
    cm, om = med(c, "median_ms"), med(o, "median_ms")
    te, tj = med(t, "eager_median_ms"), med(t, "jit_frozen_median_ms")
    logs.append(math.log(cm / om))
    print(f"{model:20s} {cm:8.2f} {om:8.2f} {te:8.2f} {tj:9.2f} {cm / om:6.2f} {cm / tj:6.2f}"
          f" {med(c, 'load_ms') + med(c, 'first_run_ms'):13.1f} {med(o, 'first_run_ms'):12.1f}"
          f" {med(c, 'peak_rss_mb'):9.0f} {med(o, 'rss_mb'):8.0f}  {teams(c)}")
print(f"geometric mean cnnx / ORT: {math.exp(sum(logs) / len(logs)):.2f}")
PY
