#!/usr/bin/env bash
# --precision bf16 against cnnx float32 and ONNX Runtime float32 (issue 32 item 6): per model and config
# (THREADSxBATCH) one round runs cnnx fp32, cnnx bf16 and ONNX Runtime in turn (alternating rounds: only
# same-run ratios mean anything on a shared machine). Prints a table of medians of the per-round medians, the
# bf16 / fp32 and bf16 / ORT ratios of time per image and their geometric means, each engine's share of the
# bfloat16 or float32 FMA peak (cnnx_machine_limits, same run), and cnnx's load + first run and peak RSS in
# both precisions (from the first config). Where the CPU has no native bfloat16, bf16 runs float32 (the
# precision column says so).
#
# Usage: bench/bfloat16.sh CNNX MODELS_DIR ORT_NODE_MODULES [--rounds R] [--iters N] [--configs 2x1,1x1,2x8] [model ...]
#   MODELS_DIR holds NAME/model.onnx + NAME/input.npy with a symbolic batch
#   (/usr/bin/python3 models/export_torchvision.py --dynamic-batch --out MODELS_DIR NAME ...)
#   default models: issue 32's seven (resnet50 mobilenet_v2 efficientnet_b0 densenet121 regnet_y_400mf
#   convnext_tiny vit_b_16)
set -euo pipefail
cnnx=$1 dir=$2 ort=$3
shift 3
rounds=3 iters=10 configs=2x1,1x1,2x8 models=()
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --configs) configs=$2; shift 2 ;;
    *) models+=("$1"); shift ;;
  esac
done
[ ${#models[@]} -gt 0 ] || models=(resnet50 mobilenet_v2 efficientnet_b0 densenet121 regnet_y_400mf convnext_tiny vit_b_16)
peers=${PEERS:-$(cd "$(dirname "$0")/../../shared/peers" 2>/dev/null && pwd || echo /work/shared/peers)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
limits=$(dirname "$cnnx")/cnnx_machine_limits
IFS=, read -ra cfgs <<< "$configs"
threads_list=$(printf '%s\n' "${cfgs[@]}" | cut -dx -f1 | sort -u | paste -sd,)
[ -x "$limits" ] && "$limits" --threads "$threads_list" > "$work/limits.json" 2>/dev/null || echo '{}' > "$work/limits.json"
uptime > "$work/uptime"
for m in "${models[@]}"; do
  for c in "${cfgs[@]}"; do  # ONNX Runtime's input: the model's input repeated to the batch
    /usr/bin/python3 -c "import numpy as np,sys; x=np.load(sys.argv[1]); np.save(sys.argv[2], np.repeat(x[:1], int(sys.argv[3]), 0))" \
      "$dir/$m/input.npy" "$work/${m}_b${c#*x}.npy" "${c#*x}"
  done
done
for ((r = 0; r < rounds; ++r)); do
  for m in "${models[@]}"; do
    for c in "${cfgs[@]}"; do
      t=${c%x*} b=${c#*x}
      for p in fp32 bf16; do
        echo "cnnx-$p $m $c $("$cnnx" bench "$dir/$m/model.onnx" --precision "$p" --threads "$t" --batch "$b" --iters "$iters" --json 2>/dev/null)" >> "$work/runs"
      done
      echo "ort $m $c $(NODE_PATH=$ort node "$peers/ort_bench.js" "$dir/$m/model.onnx" "$work/${m}_b$b.npy" "$t" "$iters")" >> "$work/runs"
    done
  done
done
/usr/bin/python3 - "$work" "$configs" <<'PY'
import json, math, statistics, sys
work, configs = sys.argv[1], sys.argv[2].split(",")
limits = json.load(open(f"{work}/limits.json"))
rows = {}
for line in open(f"{work}/runs"):
    engine, model, config, text = line.split(" ", 3)
    rows.setdefault((model, config), {}).setdefault(engine, []).append(json.loads(text))
def med(runs): return statistics.median(r["median_ms"] for r in runs)
def peak(threads):  # the bfloat16 FMA peak, else the float32 one (no native bfloat16)
    v = (limits.get("bf16") or {}).get("gflops") or limits.get("fma_gflops") or {}
    return v.get(str(threads))
print(open(f"{work}/uptime").read().strip())
isa = next((r[0].get("isa") for r in (v.get("cnnx-bf16") for v in rows.values()) if r), "?")
print(f"\n| model ({isa}) | config | cnnx fp32 ms | cnnx bf16 ms | ORT fp32 ms | bf16 / fp32 | bf16 / ORT | "
      f"bf16 GFLOP/s (% peak) | precision | load+1st fp32 / bf16 ms | peak RSS fp32 / bf16 MB |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
ratios = {}
for (model, config), e in rows.items():
    f, b, o = med(e["cnnx-fp32"]), med(e["cnnx-bf16"]), med(e["ort"])
    first = lambda k: e[k][-1]
    gflops = first("cnnx-bf16").get("gflop", 0) / (b / 1e3) if b else 0  # gflop: per run, at the planned batch
    p = peak(config.split("x")[0])
    share = f" ({100 * gflops / p:.0f}%)" if p else ""
    ratios.setdefault(config, []).append((b / f, b / o))
    load = lambda k: first(k).get("load_ms", 0) + first(k).get("first_run_ms", 0)
    print(f"| {model} | {config} | {f:.2f} | {b:.2f} | {o:.2f} | {b / f:.2f} | {b / o:.2f} | {gflops:.0f}{share} | "
          f"{first('cnnx-bf16').get('precision')}{' (emulated)' if first('cnnx-bf16').get('precision_emulated') else ''} | "
          f"{load('cnnx-fp32'):.0f} / {load('cnnx-bf16'):.0f} | "
          f"{first('cnnx-fp32').get('peak_rss_mb', 0):.0f} / {first('cnnx-bf16').get('peak_rss_mb', 0):.0f} |")
for config, rs in ratios.items():
    g = lambda i: math.exp(sum(math.log(r[i]) for r in rs) / len(rs))
    print(f"\ngeo-mean {config}: bf16 / fp32 {g(0):.3f}, bf16 / ORT fp32 {g(1):.3f} ({len(rs)} models)")
print("\nlimits:", json.dumps({k: limits.get(k) for k in ("isa", "fma_gflops", "bf16", "int8")}))
PY
