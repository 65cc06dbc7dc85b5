#!/usr/bin/env bash
# Global average pooling, every spelling: PyTorch 1.13, ONNX Runtime 1.30 and `cnnx pool gap` in one session, on
# the same shape and thread count (shared machines drift: only same-session ratios mean anything). The peers'
# harnesses are ../shared/peers/{torch_gap.py,make_gap_models.py,ort_gap.js} (their models are 128x128).
# Usage: bench/pool_gap.sh CNNX ORT_NODE_MODULES [threads=2] [N=256] [C=96] [OUT_DIR=.]
#   prints the peers' lines, cnnx's table (with the peers' medians as --compare rows), and writes
#   OUT_DIR/pool_gap.json and OUT_DIR/pool_gap.svg
set -euo pipefail
cnnx=$1 ort=$2 threads=${3:-2} N=${4:-256} C=${5:-96} out=${6:-.}
peers=$(cd "$(dirname "$0")/../../shared/peers" 2>/dev/null && pwd || true)
[ -n "$peers" ] || { echo "../shared/peers not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

echo "== PyTorch ($threads threads)"
/usr/bin/python3 "$peers/torch_gap.py" "$threads" "$N" "$C" 128 128 2>/dev/null | tee "$tmp/torch.txt"
echo "== ONNX Runtime ($threads threads)"
/usr/bin/python3 "$peers/make_gap_models.py" "$tmp/models" >/dev/null 2>&1
NODE_PATH=$ort node "$peers/ort_gap.js" "$tmp/models" "$threads" "$N" "$C" | tee "$tmp/ort.txt"

# "name median 65.0 ms ..." lines -> --compare "PyTorch name=65.0" ...
compare=()
while read -r name _ ms _; do compare+=(--compare "PyTorch $name=$ms"); done < <(grep median "$tmp/torch.txt")
while read -r name _ ms _; do compare+=(--compare "ONNX Runtime $name=$ms"); done < <(grep median "$tmp/ort.txt")

echo "== cnnx pool gap ($threads threads)"
"$cnnx" pool gap --shape "$N,$C,128,128" --threads "$threads" --iters 5 --plot "$out/pool_gap.svg" "${compare[@]}" \
  | tee "$tmp/cnnx.txt"
"$cnnx" pool gap --shape "$N,$C,128,128" --threads "$threads" --iters 5 --backend dnnl --json "${compare[@]}" \
  > "$out/pool_gap.json"
echo "(second cnnx run, dnnl backend only, as JSON: $out/pool_gap.json; plot: $out/pool_gap.svg)"
