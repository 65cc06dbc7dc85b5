#!/usr/bin/env bash
# cnnx vs ONNX Runtime on exported torchvision models, alternating runs in one session (shared machines
# drift, so only same-run ratios mean anything). Needs onnxruntime-node from npm (see ../../shared/peers).
# Usage: bench/compare_ort.sh CNNX MODELS_DIR ORT_NODE_MODULES [threads=2] [rounds=2] [model ...]
#   MODELS_DIR holds NAME/model.onnx + NAME/input.npy (models/export_torchvision.py --out MODELS_DIR NAME ...)
set -euo pipefail
cnnx=$1 dir=$2 ort=$3 threads=${4:-2} rounds=${5:-2}
shift $(( $# < 5 ? $# : 5 ))
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(resnet50 mobilenet_v2 squeezenet1_1 efficientnet_b0 densenet121 shufflenet_v2_x1_0)
peers=$(cd "$(dirname "$0")/../../shared/peers" 2>/dev/null && pwd || true)
[ -n "$peers" ] || { echo "../shared/peers not found" >&2; exit 1; }
printf '%-20s %12s %12s %8s %10s %10s %10s %10s\n' model cnnx_ms ort_ms ratio cnnx_load ort_load cnnx_rss ort_rss
for m in "${models[@]}"; do
  c=() o=()
  for ((r = 0; r < rounds; ++r)); do
    c+=("$("$cnnx" bench "$dir/$m/model.onnx" --threads "$threads" --iters 20 --json)")
    o+=("$(NODE_PATH=$ort node "$peers/ort_bench.js" "$dir/$m/model.onnx" "$dir/$m/input.npy" "$threads" 20)")
  done
  python3 - "$m" "${c[@]}" "${o[@]}" <<'PY'
import json, statistics, sys
name, runs = sys.argv[1], [json.loads(a) for a in sys.argv[2:]]
c, o = runs[: len(runs) // 2], runs[len(runs) // 2:]
med = lambda rs, k: statistics.median(r[k] for r in rs)
cm, om = med(c, "median_ms"), med(o, "median_ms")
print(f"{name:20s} {cm:12.2f} {om:12.2f} {cm / om:8.2f} {med(c, 'load_ms') + med(c, 'first_run_ms'):10.1f} "
      f"{med(o, 'load_ms') + med(o, 'first_run_ms'):10.1f} {med(c, 'peak_rss_mb'):10.0f} {med(o, 'rss_mb'):10.0f}")
PY
done
