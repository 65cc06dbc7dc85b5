#!/usr/bin/env bash
# Two builds of cnnx side by side (a refactor's before and after): `cnnx bench` on each model with each binary,
# alternating in rounds within one session (shared machines drift, so only same-run ratios mean anything).
# Prints the median of the per-round medians per build, their ratio, load + first run and peak RSS per build, and the
# geometric mean of the ratios.
#
# Usage: bench/compare_builds.sh OLD_CNNX NEW_CNNX MODELS_DIR [threads=2] [rounds=5] [model ...]
#   MODELS_DIR holds NAME/model.onnx (models/export_torchvision.py --out MODELS_DIR NAME ...); the default
#   models are compare_peers.sh's six. BATCH=N (default 1) sets a symbolic batch dim (`cnnx bench --batch N`).
set -euo pipefail
old=$1 new=$2 dir=$3 threads=${4:-2} rounds=${5:-5} batch=${BATCH:-1}
shift $(( $# < 5 ? $# : 5 ))
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(resnet50 mobilenet_v2 squeezenet1_1 efficientnet_b0 densenet121 shufflenet_v2_x1_0)
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for ((r = 0; r < rounds; ++r)); do
  for m in "${models[@]}"; do
    for build in old new; do
      bin=$old; [ $build = new ] && bin=$new
      echo "$build $m $("$bin" bench "$dir/$m/model.onnx" --threads "$threads" --batch "$batch" --iters 20 --json)" >> "$results"
    done
  done
done
/usr/bin/python3 - "$results" "$threads" "$rounds" "$batch" <<'PY'
import json, math, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    build, model, text = line.split(" ", 2)
    rows.setdefault(model, {}).setdefault(build, []).append(json.loads(text))
med = lambda runs, key: statistics.median(r[key] for r in runs)
print(f"threads {sys.argv[2]}, batch {sys.argv[4]}, {sys.argv[3]} alternating rounds; medians of per-round medians (ms)")
print(f"{'model':20s} {'old':>8s} {'new':>8s} {'new/old':>8s} {'old load+1st':>12s} {'new load+1st':>12s}"
      f" {'old RSS MB':>10s} {'new RSS MB':>10s}")
logs = []
for model, e in rows.items():
    o, n = med(e["old"], "median_ms"), med(e["new"], "median_ms")
    logs.append(math.log(n / o))
    print(f"{model:20s} {o:8.2f} {n:8.2f} {n / o:8.3f} {med(e['old'], 'load_ms') + med(e['old'], 'first_run_ms'):12.1f}"
          f" {med(e['new'], 'load_ms') + med(e['new'], 'first_run_ms'):12.1f}"
          f" {med(e['old'], 'peak_rss_mb'):10.1f} {med(e['new'], 'peak_rss_mb'):10.1f}")
print(f"geometric mean new / old: {math.exp(sum(logs) / len(logs)):.3f}")
PY
