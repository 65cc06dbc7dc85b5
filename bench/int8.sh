#!/usr/bin/env bash
# int8 cnnx vs ONNX Runtime on the same QDQ files made by `python3 -m cnnx quantize`, beside both engines'
# float32, in alternating rounds (cnnx f32, cnnx int8, ORT f32, ORT int8 per round), batch 1; prints one JSON
# line per run and a table of medians (the median over rounds of each round's median) with the ratios.
#
# Usage: bench/int8.sh BUILD_DIR MODELS_DIR ORT_NODE_MODULES [threads=2] [rounds=3] [model ...]
#   MODELS_DIR holds NAME/model.onnx + NAME/input.npy (torchvision exports, models/export_torchvision.py).
#   Calibration: models/shapes/samples (any images do for timing; accuracy is the quantize report's business).
#   QUANTIZE_ARGS (default "--per-channel --reduce-range") are passed to quantize; the int8 models are written
#   to $OUT_DIR (default /tmp/cnnx_int8) as NAME.int8.onnx and reused when present.
set -euo pipefail
build=$1 dir=$2 ort=$3 threads=${4:-2} rounds=${5:-3}
shift $(( $# < 5 ? $# : 5 ))
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(resnet18 resnet50 mobilenet_v2)
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
out=${OUT_DIR:-/tmp/cnnx_int8}
mkdir -p "$out"
peers=${PEERS_DIR:-/work/shared/peers}
log=$(mktemp)
for m in "${models[@]}"; do
  q="$out/$m.int8.onnx"
  if [ ! -s "$q" ]; then
    PYTHONPATH="$build/python" /usr/bin/python3 -m cnnx quantize "$dir/$m/model.onnx" \
      --calibrate "$src/models/shapes/samples" --out "$q" ${QUANTIZE_ARGS:---per-channel --reduce-range} >&2
  fi
done
for r in $(seq "$rounds"); do
  for m in "${models[@]}"; do
    for kind in f32 int8; do
      file="$dir/$m/model.onnx"; [ $kind = int8 ] && file="$out/$m.int8.onnx"
      ms=$("$build/cnnx" bench "$file" --threads "$threads" --iters 20 --json | /usr/bin/python3 -c \
        'import json,sys; print(json.load(sys.stdin)["median_ms"])')
      echo "{\"round\": $r, \"model\": \"$m\", \"engine\": \"cnnx\", \"kind\": \"$kind\", \"median_ms\": $ms}" | tee -a "$log"
      ms=$(NODE_PATH="$ort" node "$peers/ort_bench.js" "$file" "$dir/$m/input.npy" "$threads" 20 | /usr/bin/python3 -c \
        'import json,sys; print(json.load(sys.stdin)["median_ms"])')
      echo "{\"round\": $r, \"model\": \"$m\", \"engine\": \"ort\", \"kind\": \"$kind\", \"median_ms\": $ms}" | tee -a "$log"
    done
  done
done
/usr/bin/python3 - "$log" "$threads" <<'EOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"\nthreads {sys.argv[2]}, batch 1, median ms over rounds")
print(f"{'model':<14}{'cnnx f32':>10}{'cnnx int8':>11}{'ORT f32':>10}{'ORT int8':>10}{'int8 cnnx/ORT':>15}{'cnnx int8/f32':>15}")
for m in dict.fromkeys(r["model"] for r in rows):
    t = {(e, k): statistics.median(r["median_ms"] for r in rows if r["model"] == m and r["engine"] == e and r["kind"] == k)
         for e in ("cnnx", "ort") for k in ("f32", "int8")}
    print(f"{m:<14}{t['cnnx','f32']:>10.2f}{t['cnnx','int8']:>11.2f}{t['ort','f32']:>10.2f}{t['ort','int8']:>10.2f}"
          f"{t['cnnx','int8'] / t['ort','int8']:>15.2f}{t['cnnx','int8'] / t['cnnx','f32']:>15.2f}")
EOF
rm -f "$log"
