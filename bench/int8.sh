#!/usr/bin/env bash
# int8 cnnx vs ONNX Runtime on the same QDQ files made by `python3 -m cnnx quantize`, beside both engines'
# float32, in alternating rounds (cnnx f32, ORT f32, cnnx int8, ORT int8 per round and model); prints one JSON
# line per run and a table of medians (the median over rounds of each round's median) with the ratios, and
# cnnx's load + first run and peak RSS of the int8 file against the float32 one (from the last round).
#
# Usage: bench/int8.sh BUILD_DIR MODELS_DIR ORT_NODE_MODULES [threads=2] [rounds=3] [model ...]
#   MODELS_DIR holds NAME/model.onnx + NAME/input.npy (torchvision exports, models/export_torchvision.py).
#   Calibration: models/shapes/samples (any images do for timing; accuracy is the quantize report's business).
#   QUANTIZE_ARGS (default "--per-channel --reduce-range") are passed to quantize; the int8 models are written
#   to $OUT_DIR (default /tmp/cnnx_int8) as NAME.int8.onnx and reused when present.
#   BATCH (default 1): above 1, both files are rewritten with a named batch dim (NAME.bN.onnx and
#   NAME.int8.bN.onnx in $OUT_DIR; the torchvision exports flatten, so nothing else pins the batch) and the
#   input repeated BATCH times; the table is then in ms per batch all the same.
#   ITERS (default 20): timed runs per engine, file and round.
set -euo pipefail
build=$1 dir=$2 ort=$3 threads=${4:-2} rounds=${5:-3}
shift $(( $# < 5 ? $# : 5 ))
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(resnet18 resnet50 mobilenet_v2)
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
out=${OUT_DIR:-/tmp/cnnx_int8}
batch=${BATCH:-1} iters=${ITERS:-20}
mkdir -p "$out"
peers=${PEERS_DIR:-/work/shared/peers}
log=$(mktemp)
batched() {  # batched SRC DST: SRC with its first input's and outputs' dim 0 named "N"
  [ -s "$2" ] || /usr/bin/python3 - "$1" "$2" <<'PY'
import sys, onnx
m = onnx.load(sys.argv[1])
for v in list(m.graph.input[:1]) + list(m.graph.output):
    v.type.tensor_type.shape.dim[0].dim_param = "N"
del m.graph.value_info[:]
onnx.save(m, sys.argv[2])
PY
}
for m in "${models[@]}"; do
  q="$out/$m.int8.onnx"
  if [ ! -s "$q" ]; then
    PYTHONPATH="$build/python" /usr/bin/python3 -m cnnx quantize "$dir/$m/model.onnx" \
      --calibrate "$src/models/shapes/samples" --out "$q" ${QUANTIZE_ARGS:---per-channel --reduce-range} >&2
  fi
  if [ "$batch" -gt 1 ]; then
    batched "$dir/$m/model.onnx" "$out/$m.b$batch.onnx"
    batched "$q" "$out/$m.int8.b$batch.onnx"
  fi
  /usr/bin/python3 -c 'import numpy as np, sys; np.save(sys.argv[2], np.repeat(np.load(sys.argv[1]), int(sys.argv[3]), 0))' \
    "$dir/$m/input.npy" "$out/$m.input.b$batch.npy" "$batch"
done
for r in $(seq "$rounds"); do
  for m in "${models[@]}"; do
    for kind in f32 int8; do
      file="$dir/$m/model.onnx"; [ $kind = int8 ] && file="$out/$m.int8.onnx"
      if [ "$batch" -gt 1 ]; then
        file="$out/$m.b$batch.onnx"; [ $kind = int8 ] && file="$out/$m.int8.b$batch.onnx"
      fi
      "$build/cnnx" bench "$file" --threads "$threads" --batch "$batch" --iters "$iters" --json | /usr/bin/python3 -c \
        'import json,sys; j=json.load(sys.stdin); print(json.dumps({"round": int(sys.argv[1]), "model": sys.argv[2], "engine": "cnnx", "kind": sys.argv[3], "median_ms": j["median_ms"], "first_ms": j["first_run_ms"], "rss_mb": j["peak_rss_mb"]}))' \
        "$r" "$m" "$kind" | tee -a "$log"
      NODE_PATH="$ort" node "$peers/ort_bench.js" "$file" "$out/$m.input.b$batch.npy" "$threads" "$iters" | /usr/bin/python3 -c \
        'import json,sys; j=json.load(sys.stdin); print(json.dumps({"round": int(sys.argv[1]), "model": sys.argv[2], "engine": "ort", "kind": sys.argv[3], "median_ms": j["median_ms"], "first_ms": j["first_run_ms"], "rss_mb": j["rss_mb"]}))' \
        "$r" "$m" "$kind" | tee -a "$log"
    done
  done
done
/usr/bin/python3 - "$log" "$threads" "$batch" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'EOF2'
import json, math, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"\nthreads {sys.argv[2]}, batch {sys.argv[3]}, median ms over rounds (load average at the end {sys.argv[4]})")
print(f"| model | cnnx f32 | cnnx int8 | ORT f32 | ORT int8 | int8 cnnx / ORT | cnnx int8 / f32 | cnnx load+1st int8 / f32 | cnnx peak RSS int8 / f32 MB |")
print("|---|---|---|---|---|---|---|---|---|")
ratios = []
for m in dict.fromkeys(r["model"] for r in rows):
    pick = lambda e, k: [r for r in rows if r["model"] == m and r["engine"] == e and r["kind"] == k]
    t = {(e, k): statistics.median(r["median_ms"] for r in pick(e, k)) for e in ("cnnx", "ort") for k in ("f32", "int8")}
    last = {k: pick("cnnx", k)[-1] for k in ("f32", "int8")}
    ratios.append(t['cnnx', 'int8'] / t['ort', 'int8'])
    print(f"| {m} | {t['cnnx','f32']:.2f} | {t['cnnx','int8']:.2f} | {t['ort','f32']:.2f} | {t['ort','int8']:.2f} | "
          f"{ratios[-1]:.2f} | {t['cnnx','int8'] / t['cnnx','f32']:.2f} | "
          f"{last['int8']['first_ms']:.0f} / {last['f32']['first_ms']:.0f} | {last['int8']['rss_mb']:.0f} / {last['f32']['rss_mb']:.0f} |")
print(f"\nint8 cnnx / ORT geo-mean {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}")
EOF2
rm -f "$log"
