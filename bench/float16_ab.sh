#!/usr/bin/env bash
# cnnx on float16 models against the same models stored in float32 (issue 32's target: within 1.1x), A/B:
# per round, `cnnx bench` on the float32 file, its float16-weights form (f16w) and its whole-float16-graph
# form with float32 I/O (f16io, both from models/float16_convert.py) in turn, so a shared machine's drift
# hits the three alike. Prints per model the median of the per-round medians and of the per-round ratios.
# bench/float16.sh adds ONNX Runtime, load and memory; this one is for the ratio on a busy machine.
#
# With BASELINE=OTHER_CNNX, each round also times the float16 graph with that build (old vs new, same run).
# STAT=min_ms takes each bench's fastest run instead of its median (steadier when other jobs share the cores).
#
# Usage: [BASELINE=OTHER_CNNX] bench/float16_ab.sh CNNX MODELS_DIR ROUNDS THREADS model ...
#   e.g. bench/float16_ab.sh build/cnnx /tmp/zoo 5 1 resnet18 mobilenet_v2
set -euo pipefail
[ $# -ge 5 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
cnnx=$1 dir=$2 rounds=$3 threads=$4
shift 4
work=$(mktemp -d /tmp/cnnx-float16-ab.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2
for m in "$@"; do
  for kind in weights graph_io; do
    /usr/bin/python3 "$here/../models/float16_convert.py" $kind "$dir/$m/model.onnx" "$work/$m-$kind.onnx"
  done
  for r in $(seq "$rounds"); do
    for f in "$dir/$m/model.onnx" "$work/$m-weights.onnx" "$work/$m-graph_io.onnx" ${BASELINE:+baseline}; do
      exe=$cnnx
      [ "$f" = baseline ] && exe=$BASELINE f=$work/$m-graph_io.onnx name=baseline || name=$(basename "$f")
      echo "$m $name $("$exe" bench "$f" --threads "$threads" --iters 10 --warmup 2 --json |
        /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "${STAT:-median_ms}")"
    done
  done
done > "$work/times"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
/usr/bin/python3 - "$work/times" "$threads" "$rounds" "${STAT:-median_ms}" <<'PY'
import collections, statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
t = collections.defaultdict(list)
for m, f, ms in rows:
    kind = {"model.onnx": "f32", "baseline": "base"}.get(f, "f16w" if f.endswith("-weights.onnx") else "f16io")
    t[(m, kind)].append(float(ms))
kinds = ["f16w", "f16io"] + (["base"] if any(k == "base" for _, k in t) else [])
print(f"cnnx, {sys.argv[2]} thread(s), {sys.argv[3]} alternating rounds, each bench's {sys.argv[4]}: median ms "
      "(median of per-round ratios to float32)\n")
heads = ["f16 weights ms (/ f32)", "f16 graph, f32 I/O ms (/ f32)", "f16 graph, BASELINE ms (/ f32)"][:len(kinds)]
print("| model | float32 ms | " + " | ".join(heads) + " |\n|---|---|" + "---|" * len(kinds))
for m in dict.fromkeys(r[0] for r in rows):
    f32 = t[(m, "f32")]
    cells = [f"{statistics.median(t[(m, k)]):.1f} ({statistics.median(a / b for a, b in zip(t[(m, k)], f32)):.2f})"
             for k in kinds]
    print(f"| {m} | {statistics.median(f32):.1f} | " + " | ".join(cells) + " |")
PY
