#!/usr/bin/env bash
# cnnx vs ONNX Runtime 1.30 vs PyTorch 1.13 (TorchScript, frozen) over one model per torchvision family, and
# every figure set against the machine's limits measured in the same run (bench/machine_limits.cc).
#
# Per model and config (THREADSxBATCH; default 2x1, 1x1 and 2x8) each engine makes a timed batch of runs, the
# engines alternating within each round (shared machines drift: only same-run ratios mean anything). Prints
# one markdown table: medians of the per-round medians, cnnx / ONNX Runtime ratios (of latency; of time per
# image at batch > 1, so < 1 is cnnx ahead everywhere) and their geometric means, load + first run and peak
# RSS (from the first config's run), and cnnx's and ONNX Runtime's share of the FMA peak (GFLOP / latency,
# cnnx bench's count: 2 per multiply-add of the sum-of-products ops) and of the read bandwidth (weight bytes
# / latency) at the first config's thread count. The table's first column is headed by the instruction set
# cnnx's oneDNN ran (avx2, avx512_core, ...), the machine line above it by the limits' (with the int8 and
# bfloat16 peaks, or why there are none).
#
# Usage: bench/zoo.sh CNNX MODELS_DIR ORT_NODE_MODULES [options] [model ...]
#   MODELS_DIR   NAME/model.onnx + NAME/input.npy, from
#                /usr/bin/python3 models/export_torchvision.py --dynamic-batch --out MODELS_DIR NAME ...
#   ORT_NODE_MODULES  npm install --ignore-scripts onnxruntime-node@1.30.0 (see ../shared/peers/README.md)
#   model ...    default: the 22 families below
# Options:
#   --rounds R       alternating rounds (default 3)
#   --seconds S      timed work per engine, config and round, from a calibration run of cnnx (default 1):
#                    iters = S / estimated time per run, clamped to [3, 100]
#   --iters N        N timed runs everywhere instead (a quick look: --iters 3 --rounds 1)
#   --configs LIST   THREADSxBATCH,... (default 2x1,1x1,2x8); the first gives load, RSS and the limit columns
#   --no-torch       skip PyTorch
#   --cnnx-threads N cnnx's --threads at every config (0: its default team, which adapts to a busy machine);
#                    default: the config's thread count, pinned
#   --limits PROG    cnnx_machine_limits (default: beside CNNX); --no-limits skips the limit columns
# Environment: PEERS (../shared/peers: ort_bench.js), TORCH_CACHE (default /tmp/zoo-torch: frozen TorchScript
# files bench/torch_frozen.py makes once per model, untimed).
# The full default run takes ~35 min on 2 cores (bench/README.md); `uptime` goes into the output.
set -euo pipefail
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 3 ] || usage
cnnx=$1 dir=$2 ort=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
rounds=3 seconds=1 iters= configs=2x1,1x1,2x8 torch=1 limits=$(dirname "$cnnx")/cnnx_machine_limits cnnx_threads=
models=()
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --configs) configs=$2; shift 2 ;;
    --no-torch) torch=; shift ;;
    --cnnx-threads) cnnx_threads=$2; shift 2 ;;
    --limits) limits=$2; shift 2 ;;
    --no-limits) limits=; shift ;;
    -*) usage ;;
    *) models+=("$1"); shift ;;
  esac
done
[ ${#models[@]} -gt 0 ] || models=(alexnet convnext_tiny densenet121 efficientnet_b0 efficientnet_v2_s googlenet
  inception_v3 maxvit_t mnasnet0_5 mobilenet_v2 mobilenet_v3_large regnet_x_400mf regnet_y_400mf resnet18 resnet50
  resnext50_32x4d shufflenet_v2_x0_5 squeezenet1_0 swin_t vgg11_bn vit_b_16 wide_resnet50_2)
peers=${PEERS:-$(cd "$here/../../shared/peers" 2>/dev/null && pwd || echo /work/shared/peers)}
[ -f "$peers/ort_bench.js" ] || { echo "zoo.sh: no ort_bench.js in $peers (set PEERS)" >&2; exit 1; }
torch_cache=${TORCH_CACHE:-/tmp/zoo-torch}
IFS=, read -ra config_list <<< "$configs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results=$work/results
started=$(date +%s)
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2

if [ -n "$limits" ]; then
  threads=$(printf '%s\n' "${config_list[@]}" | cut -dx -f1 | sort -nu | paste -sd,)
  echo "machine limits ($limits --threads $threads) ..." >&2
  "$limits" --threads "$threads" > "$work/limits.json"
  cat "$work/limits.json" >&2
fi

# Per model, untimed: inputs at each batch, the frozen TorchScript file, and the iteration count per config
# from one calibration run of cnnx at 2 threads, batch 1 (a 1-thread run is taken as twice as long, a batch of
# B as B times).
ready=()
for m in "${models[@]}"; do
  if [ ! -f "$dir/$m/model.onnx" ] || [ ! -f "$dir/$m/input.npy" ]; then
    echo "zoo.sh: skipping $m: no $dir/$m/model.onnx and input.npy" >&2
    continue
  fi
  mkdir -p "$work/$m"
  for c in "${config_list[@]}"; do
    /usr/bin/python3 -c 'import numpy as np, sys; x = np.load(sys.argv[1]); np.save(sys.argv[2], np.repeat(x, int(sys.argv[3]), 0))' \
      "$dir/$m/input.npy" "$work/$m/input_b${c#*x}.npy" "${c#*x}"
  done
  if [ -n "$torch" ] && [ ! -f "$torch_cache/$m.pt" ]; then
    echo "zoo.sh: freezing $m for PyTorch into $torch_cache/$m.pt ..." >&2
    /usr/bin/python3 "$here/torch_frozen.py" prepare "$m" "$torch_cache/$m.pt" 2>"$work/$m/torch_prepare.log" ||
      echo "zoo.sh: PyTorch cannot freeze $m (see below); no PyTorch figures for it
$(tail -3 "$work/$m/torch_prepare.log")" >&2
  fi
  if ! calibration=$("$cnnx" bench "$dir/$m/model.onnx" --threads 2 --iters 2 --warmup 0 --json 2>"$work/$m/cnnx.log"); then
    echo "zoo.sh: cnnx cannot run $m: $(tail -1 "$work/$m/cnnx.log")" >&2
    calibration='{"median_ms": 100}'
  fi
  /usr/bin/python3 - "$calibration" "$configs" "$seconds" "$iters" > "$work/$m/iters" <<'PY'
import json, sys
ms = json.loads(sys.argv[1])["median_ms"]
for c in sys.argv[2].split(","):
    threads, batch = (int(v) for v in c.split("x"))
    n = int(sys.argv[4]) if sys.argv[4] else round(float(sys.argv[3]) * 1e3 / (ms * max(1, 2 / threads) * batch))
    print(c, min(100, max(3, n)) if not sys.argv[4] else n)
PY
  ready+=("$m")
done
[ ${#ready[@]} -gt 0 ] || { echo "zoo.sh: no model to run in $dir (name them after the options)" >&2; exit 1; }

iters_of() { awk -v c="$2" '$1 == c { print $2 }' "$work/$1/iters"; }
for ((r = 1; r <= rounds; ++r)); do
  echo "round $r of $rounds (load average $(cut -d' ' -f1 /proc/loadavg))" >&2
  for m in "${ready[@]}"; do
    for c in "${config_list[@]}"; do
      n=$(iters_of "$m" "$c")
      out=$("$cnnx" bench "$dir/$m/model.onnx" --threads "${cnnx_threads:-${c%x*}}" --batch "${c#*x}" --iters "$n" \
            --json 2>>"$work/$m/cnnx.log") && echo "cnnx $m $c $out" >> "$results"
    done
    for c in "${config_list[@]}"; do
      n=$(iters_of "$m" "$c")
      out=$(NODE_PATH=$ort node "$peers/ort_bench.js" "$dir/$m/model.onnx" "$work/$m/input_b${c#*x}.npy" \
            "${c%x*}" "$n" 2>>"$work/$m/ort.log") && echo "ort $m $c $out" >> "$results"
    done
    if [ -n "$torch" ] && [ -f "$torch_cache/$m.pt" ]; then
      n=$(for c in "${config_list[@]}"; do iters_of "$m" "$c"; done | paste -sd,)
      out=$(/usr/bin/python3 "$here/torch_frozen.py" time "$torch_cache/$m.pt" "$dir/$m/input.npy" "$configs" "$n" \
            2>>"$work/$m/torch.log") && echo "torch $m all $out" >> "$results"
    fi
  done
done
for m in "${ready[@]}"; do
  for e in cnnx ort torch; do
    [ -s "$work/$m/$e.log" ] && grep -q . "$work/$m/$e.log" && echo "zoo.sh: $e on $m said: $(tail -1 "$work/$m/$e.log")" >&2
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg); $(( ($(date +%s) - started) / 60 )) min" >&2

/usr/bin/python3 - "$results" "$configs" "$rounds" "${limits:+$work/limits.json}" "${ready[@]}" <<'PY'
import json, math, statistics, sys
results, configs, rounds, limits_file, models = sys.argv[1], sys.argv[2].split(","), sys.argv[3], sys.argv[4], sys.argv[5:]
runs = {}  # (engine, model, config) -> [json per round]
for line in open(results):
    engine, model, config, text = line.split(" ", 3)
    runs.setdefault((engine, model, config), []).append(json.loads(text))
first = configs[0]
batch = {c: int(c.split("x")[1]) for c in configs}
nan = float("nan")

def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else nan

def ms(engine, model, config):  # median of the per-round medians: ms per run
    if engine == "torch":
        return med(r["median_ms"].get(config) for r in runs.get(("torch", model, "all"), []))
    return med(r["median_ms"] for r in runs.get((engine, model, config), []))

def load_first(engine, model):
    if engine == "cnnx":
        return med(r["load_ms"] + r["first_run_ms"] for r in runs.get(("cnnx", model, first), []))
    if engine == "ort":  # ort_bench.js times the first run from the start of loading
        return med(r["first_run_ms"] for r in runs.get(("ort", model, first), []))
    return med(r["load_first_ms"] for r in runs.get(("torch", model, "all"), []))

def rss(engine, model):
    key = {"cnnx": "peak_rss_mb", "ort": "rss_mb", "torch": "peak_rss_mb"}[engine]
    return med(r[key] for r in runs.get((engine, model, "all" if engine == "torch" else first), []))

def cost(model):
    rs = [r for c in configs for r in runs.get(("cnnx", model, c), []) if batch[c] == 1]
    return (rs[0]["gflop"], rs[0]["weight_mb"]) if rs else (nan, nan)

def f(v, digits):
    return "-" if v != v else f"{v:.{digits}f}"

def per_image(v, b):  # batch 1: ms per run; batch > 1: images per second
    return v if b == 1 else b * 1e3 / v

limits = json.load(open(limits_file)) if limits_file else None
threads = first.split("x")[0]
# The instruction set cnnx's oneDNN ran (cnnx bench's "isa"; ONEDNN_MAX_CPU_ISA lowers it) heads the table,
# so a table copied alone still says which kind of CPU it is from.
isas = sorted({r.get("isa", "?") for (e, _, _), rs in runs.items() if e == "cnnx" for r in rs})
head = [f"model ({'/'.join(isas) or '?'})", "GFLOP", "weights MB"]
for c in configs:
    t, b = c.split("x")
    head += [f"{t}t b{b} {'ms' if b == '1' else 'img/s'}: cnnx / ORT / torch", "cnnx / ORT"]
head += ["load + 1st run ms: cnnx / ORT / torch", "peak RSS MB: cnnx / ORT / torch"]
if limits:
    head += [f"% FMA peak ({threads}t b1): cnnx / ORT", f"% read bandwidth ({threads}t b1): cnnx / ORT"]
print(f"{rounds} alternating rounds, medians of per-round medians; cnnx / ORT is a ratio of time per image "
      f"(< 1: cnnx ahead); torch = TorchScript frozen + optimize_for_inference.")
if limits:
    by_threads = lambda d, unit: ", ".join(f"{v} {unit} at {t} thread{'s' if t != '1' else ''}" for t, v in d.items())
    int8, bf16 = limits.get("int8", {}), limits.get("bf16", {})
    print(f"machine ({limits['isa']}, best of {limits['reps']}): FMA peak {by_threads(limits['fma_gflops'], 'GFLOP/s')}"
          f" ({limits.get('fma_per_cycle', '?')} FMAs per cycle at {limits.get('clock_ghz', '?')} GHz); "
          f"read bandwidth {by_threads(limits['read_gbps'], 'GB/s')}")
    if int8:
        print(f"int8 peak {by_threads(int8['gops'], 'GOP/s')} ({int8['via']}); bf16: "
              + (by_threads(bf16['gflops'], 'GFLOP/s') + f" ({bf16['via']})" if 'gflops' in bf16 else bf16.get('declined', '?')))
print()
print("| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
logs = {k: [] for k in configs + ["load", "rss"]}
for m in models:
    gflop, weight_mb = cost(m)
    row = [m, f(gflop, 2), f(weight_mb, 1)]
    for c in configs:
        v = {e: ms(e, m, c) for e in ("cnnx", "ort", "torch")}
        shown = [f(per_image(v[e], batch[c]), 2 if batch[c] == 1 else 1) for e in ("cnnx", "ort", "torch")]
        ratio = v["cnnx"] / v["ort"]
        if ratio == ratio:
            logs[c].append(math.log(ratio))
        row += [" / ".join(shown), f(ratio, 2)]
    lf = {e: load_first(e, m) for e in ("cnnx", "ort", "torch")}
    rs = {e: rss(e, m) for e in ("cnnx", "ort", "torch")}
    for key, v in (("load", lf), ("rss", rs)):
        if v["cnnx"] == v["cnnx"] and v["ort"] == v["ort"]:
            logs[key].append(math.log(v["cnnx"] / v["ort"]))
    row += [" / ".join(f(lf[e], 0) for e in lf), " / ".join(f(rs[e], 0) for e in rs)]
    if limits:
        peak, bw = limits["fma_gflops"][threads], limits["read_gbps"][threads]
        lat = {e: ms(e, m, f"{threads}x1") for e in ("cnnx", "ort")}
        row += [" / ".join(f(100 * gflop / (lat[e] / 1e3) / peak, 0) for e in lat),
                " / ".join(f(100 * weight_mb / 1e3 / (lat[e] / 1e3) / bw, 0) for e in lat)]
    print("| " + " | ".join(row) + " |")
geo = lambda key: f(math.exp(sum(logs[key]) / len(logs[key])), 2) if logs[key] else "-"
row = ["geometric mean cnnx / ORT", "", ""]
for c in configs:
    row += ["", geo(c)]
row += [geo("load"), geo("rss")]
if limits:
    row += ["", ""]
print("| " + " | ".join(row) + " |")
PY
