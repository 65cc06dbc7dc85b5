#!/usr/bin/env bash
# cnnx vs ONNX Runtime 1.30 vs PyTorch 1.13 on exported torchvision models at one thread count, batch 1, 20 runs
# per engine and round: bench/zoo.sh with the six models cnnx was first tuned on (see zoo.sh for the table).
#
# Usage: bench/compare_peers.sh CNNX MODELS_DIR ORT_NODE_MODULES [threads=2] [rounds=3] [model ...]
#   MODELS_DIR holds NAME/model.onnx + NAME/input.npy: models/export_torchvision.py --out MODELS_DIR NAME ...
#   NO_TORCH=1 skips PyTorch.
#   threads is the peers' thread count. When it is every core, cnnx runs with its default team (--threads 0),
#   as an app that sets nothing would (the same team on a quiet machine; on a busy one it adapts); otherwise,
#   or with CNNX_THREADS=N, cnnx is pinned to that count.
set -euo pipefail
cnnx=$1 dir=$2 ort=$3 threads=${4:-2} rounds=${5:-3}
shift $(( $# < 5 ? $# : 5 ))
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(resnet50 mobilenet_v2 squeezenet1_1 efficientnet_b0 densenet121 shufflenet_v2_x1_0)
cnnx_threads=${CNNX_THREADS:-$([ "$threads" = "$(nproc)" ] && echo 0 || echo "$threads")}
exec "$(dirname "$0")/zoo.sh" "$cnnx" "$dir" "$ort" --configs "${threads}x1" --rounds "$rounds" --iters 20 \
  --cnnx-threads "$cnnx_threads" ${NO_TORCH:+--no-torch} "${models[@]}"
