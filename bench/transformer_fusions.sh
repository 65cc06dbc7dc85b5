#!/usr/bin/env bash
# The fuse-layer-norm, fuse-gelu and fuse-matmul-bias passes on a transformer: torchvision's vit_b_16 (random
# weights) exported at opset 13, where torch.onnx spells LayerNorm, GELU and the 3-D Linear layers out. `cnnx
# bench` runs with every pass on, with the three passes off, and with each one off, alternating for ROUNDS
# rounds (shared machines drift); the summary is each setting's median of medians and its ratio to all-on, then
# (from --profile, whose runs are not the timed ones) the time per op type with all on and with the three off:
# the whole model is mostly matmuls, whose noise on a shared machine can hide what the passes save.
# Usage: bench/transformer_fusions.sh CNNX [MODEL=vit_b_16] [threads=2] [iters=10] [ROUNDS=3] [WORK_DIR=tmp]
set -euo pipefail
cnnx=$1 model=${2:-vit_b_16} threads=${3:-2} iters=${4:-10} rounds=${5:-3}
work=${6:-$(mktemp -d)}
mkdir -p "$work"
onnx=$work/${model}_opset13.onnx
if [ ! -f "$onnx" ]; then
  /usr/bin/python3 - "$model" "$onnx" <<'PY'
import sys, warnings
import torch, torchvision
warnings.simplefilter("ignore")
torch.manual_seed(0)
m = getattr(torchvision.models, sys.argv[1])(weights=None).eval()
torch.onnx.export(m, torch.randn(1, 3, 224, 224), sys.argv[2], opset_version=13, input_names=["input"],
                  output_names=["logits"], do_constant_folding=True)
PY
fi
"$cnnx" inspect "$onnx" | sed -n '/graph passes applied/,/^plan/p' | grep -E "fuse-(layer-norm|gelu|matmul-bias)"
settings=("all on" "fusions off" "fuse-layer-norm off" "fuse-gelu off" "fuse-matmul-bias off")
flags=("" "--disable-pass fuse-layer-norm --disable-pass fuse-gelu --disable-pass fuse-matmul-bias"
       "--disable-pass fuse-layer-norm" "--disable-pass fuse-gelu" "--disable-pass fuse-matmul-bias")
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < rounds; ++r)); do
  for i in "${!settings[@]}"; do
    # shellcheck disable=SC2086
    "$cnnx" bench "$onnx" --threads "$threads" --iters "$iters" --warmup 2 --json --profile ${flags[$i]} 2>/dev/null > "$work/bench.$r.$i"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$work" "$rounds" "${settings[@]}" <<'PY'
import json, statistics, sys
work, rounds, settings = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
med = [statistics.median(json.load(open(f"{work}/bench.{r}.{i}"))["median_ms"] for r in range(rounds))
       for i in range(len(settings))]
print(f"{'setting':22s} {'median ms':>9s} {'/ all on':>8s}")
for s, m in zip(settings, med):
    print(f"{s:22s} {m:9.1f} {m / med[0]:8.2f}")
def per_op(i):
    rounds_ms = []
    for r in range(rounds):
        ms = {}
        for step in json.load(open(f"{work}/bench.{r}.{i}"))["steps"]:
            ms[step["op"]] = ms.get(step["op"], 0) + step["ms"]
        rounds_ms.append(ms)
    ops = {op for ms in rounds_ms for op in ms}
    return {op: statistics.median(ms.get(op, 0) for ms in rounds_ms) for op in ops}
on, off = per_op(0), per_op(1)
print(f"\n{'op (profile)':22s} {'all on ms':>9s} {'off ms':>9s}")
for op in sorted(set(on) | set(off), key=lambda op: -max(on.get(op, 0), off.get(op, 0))):
    if max(on.get(op, 0), off.get(op, 0)) >= 0.05:
        print(f"{op:22s} {on.get(op, 0):9.1f} {off.get(op, 0):9.1f}")
PY
