#!/usr/bin/env bash
# Global average pooling, every spelling: PyTorch 1.13, ONNX Runtime 1.30 and `cnnx pool gap` in one session, on
# the same shape and thread count. Shared machines drift, so the three alternate for ROUNDS rounds and the summary
# takes each one's median over the rounds; only same-session ratios mean anything. The peers' harnesses are
# ../shared/peers/{torch_gap.py,make_gap_models.py,ort_gap.js} (their models are 128x128).
# Usage: bench/pool_gap.sh CNNX ORT_NODE_MODULES [threads=2] [N=256] [C=96] [OUT_DIR=.] [ROUNDS=3]
#   prints a summary (median ms and ratio to the read floor cnnx measures), then cnnx's full table (both backends,
#   pass off and on, with the peers as --compare rows); writes OUT_DIR/pool_gap.svg and OUT_DIR/pool_gap.txt.
set -euo pipefail
cnnx=$1 ort=$2 threads=${3:-2} N=${4:-256} C=${5:-96} out=${6:-.} rounds=${7:-3}
peers=$(cd "$(dirname "$0")/../../shared/peers" 2>/dev/null && pwd || true)
[ -n "$peers" ] || { echo "../shared/peers not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
/usr/bin/python3 "$peers/make_gap_models.py" "$tmp/models" >/dev/null 2>&1
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < rounds; ++r)); do
  /usr/bin/python3 "$peers/torch_gap.py" "$threads" "$N" "$C" 128 128 2>/dev/null > "$tmp/torch.$r"
  NODE_PATH=$ort node "$peers/ort_gap.js" "$tmp/models" "$threads" "$N" "$C" > "$tmp/ort.$r"
  "$cnnx" pool gap --shape "$N,$C,128,128" --threads "$threads" --iters 5 --backend dnnl --json > "$tmp/cnnx.$r"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Medians over the rounds; --compare rows for the full table.
/usr/bin/python3 - "$tmp" "$rounds" > "$tmp/summary" <<'PY'
import json, re, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
times, floor = {}, []
for r in range(rounds):
    for engine in ("torch", "ort"):
        for line in open(f"{tmp}/{engine}.{r}"):
            m = re.match(r"(.*?)\s+median\s+([0-9.]+) ms", line)
            if m:
                label = ("PyTorch " if engine == "torch" else "ONNX Runtime ") + m.group(1).strip()
                times.setdefault(label, []).append(float(m.group(2)))
    j = json.load(open(f"{tmp}/cnnx.{r}"))
    floor.append(j["read_probe"]["median_ms"])
    for run in j["runs"]:
        if run["pass"] and "error" not in run:
            times.setdefault("cnnx " + run["spelling"], []).append(run["median_ms"])
f = statistics.median(floor)
print(f"# read floor (cnnx's probe, median of {rounds} rounds): {f:.1f} ms")
print(f"# {'spelling':62s} {'median ms':>9s} {'x floor':>8s}")
for label, ts in times.items():
    ms = statistics.median(ts)
    print(f"# {label:62s} {ms:9.1f} {ms / f:8.2f}")
for label, ts in times.items():
    if not label.startswith("cnnx"):
        print(f"--compare\n{label}={statistics.median(ts):.1f}")
PY
grep '^#' "$tmp/summary" | sed 's/^# //' | tee "$out/pool_gap.txt"
mapfile -t compare < <(grep -v '^#' "$tmp/summary")
echo
"$cnnx" pool gap --shape "$N,$C,128,128" --threads "$threads" --iters 5 --plot "$out/pool_gap.svg" "${compare[@]}" \
  | tee -a "$out/pool_gap.txt"
