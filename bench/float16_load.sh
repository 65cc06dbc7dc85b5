#!/usr/bin/env bash
# Load + first run and peak RSS of float16 graphs beside the same model stored in float32 (issue 32: at or below
# float32), alternating rounds: per round and file, one process `cnnx bench FILE --iters 1 --warmup 0 --json`
# under /usr/bin/time -v. Prints per model the medians over the rounds: load_ms + first_run_ms from cnnx, and
# the maximum resident set size from time -v (the whole process: oneDNN's and libgomp's too).
#
# Usage: bench/float16_load.sh CNNX MODELS_DIR ROUNDS THREADS model ...
set -euo pipefail
[ $# -ge 5 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
cnnx=$1 dir=$2 rounds=$3 threads=$4
shift 4
work=$(mktemp -d /tmp/cnnx-float16-load.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2
for m in "$@"; do
  /usr/bin/python3 "$here/../models/float16_convert.py" graph_io "$dir/$m/model.onnx" "$work/$m-graph_io.onnx"
  for r in $(seq "$rounds"); do
    for f in "$dir/$m/model.onnx" "$work/$m-graph_io.onnx"; do
      /usr/bin/time -v -o "$work/time" "$cnnx" bench "$f" --threads "$threads" --iters 1 --warmup 0 --json > "$work/json"
      echo "$m $(basename "$f") $(/usr/bin/python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(j["load_ms"] + j["first_run_ms"])' "$work/json") $(awk -F': ' '/Maximum resident/ {print $2 / 1024}' "$work/time")"
    done
  done
done > "$work/rows"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
/usr/bin/python3 - "$work/rows" "$threads" "$rounds" <<'PY'
import collections, statistics, sys
t = collections.defaultdict(list)
for m, f, ms, mb in (l.split() for l in open(sys.argv[1])):
    t[(m, "f32" if f == "model.onnx" else "f16")].append((float(ms), float(mb)))
print(f"cnnx, {sys.argv[2]} thread(s), medians of {sys.argv[3]} alternating rounds\n")
print("| model | load + 1st run ms, f32 | f16 graph (/ f32) | peak RSS MB, f32 | f16 graph (/ f32) |\n|---|---|---|---|---|")
for m in dict.fromkeys(k[0] for k in t):
    a = [statistics.median(x[i] for x in t[(m, "f32")]) for i in (0, 1)]
    b = [statistics.median(x[i] for x in t[(m, "f16")]) for i in (0, 1)]
    print(f"| {m} | {a[0]:.0f} | {b[0]:.0f} ({b[0] / a[0]:.2f}) | {a[1]:.1f} | {b[1]:.1f} ({b[1] / a[1]:.2f}) |")
PY
