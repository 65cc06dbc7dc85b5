#!/usr/bin/env bash
# float16 models against the same models stored in float32 (issue 32's target: within 1.1x), and each against
# ONNX Runtime on the same file, in one bench/zoo.sh run (alternating rounds, same-run ratios).
#
# Per model of MODELS_DIR (NAME/model.onnx + NAME/input.npy, as bench/zoo.sh takes them) it writes two
# conversions next to the float32 model (models/float16_convert.py): NAME-f16w (float16 initializers read
# through Cast: what shipped float16-weight models look like; cnnx folds the Casts at load) and NAME-f16io (the
# whole graph in float16 with float32 input and output; cnnx runs each op in float32 between Casts, as ONNX
# Runtime's CPU provider does for ops without float16 kernels).
#
# Usage: bench/float16.sh CNNX MODELS_DIR ORT_NODE_MODULES [zoo.sh options] [model ...]
#   e.g. bench/float16.sh build/cnnx /tmp/zoo /tmp/ort/node_modules --configs 2x1,1x1 --rounds 3 resnet18
# Reading the table: the f16w and f16io rows over the float32 row of the same model (cnnx column) are the
# float16 costs; cnnx/ORT per row compares engines on the same file.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
cnnx=$1 dir=$2 ort=$3
shift 3
opts=() models=()
while [ $# -gt 0 ]; do
  case $1 in
    --rounds|--seconds|--iters|--configs|--cnnx-threads|--limits) opts+=("$1" "$2"); shift 2 ;;
    -*) opts+=("$1"); shift ;;
    *) models+=("$1"); shift ;;
  esac
done
[ ${#models[@]} -gt 0 ] || models=(resnet18 mobilenet_v2 efficientnet_b0 densenet121)
work=$(mktemp -d /tmp/cnnx-float16.XXXXXX)
trap 'rm -rf "$work"' EXIT
names=()
for m in "${models[@]}"; do
  for kind in "" f16w f16io; do
    name=$m${kind:+-$kind}
    mkdir -p "$work/$name"
    cp "$dir/$m/input.npy" "$work/$name/"
    case $kind in
      "") ln -s "$(cd "$dir/$m" && pwd)/model.onnx" "$work/$name/model.onnx" ;;
      f16w) /usr/bin/python3 "$here/../models/float16_convert.py" weights "$dir/$m/model.onnx" "$work/$name/model.onnx" ;;
      f16io) /usr/bin/python3 "$here/../models/float16_convert.py" graph_io "$dir/$m/model.onnx" "$work/$name/model.onnx" ;;
    esac
    names+=("$name")
  done
done
"$here/zoo.sh" "$cnnx" "$work" "$ort" --no-torch "${opts[@]}" "${names[@]}"
