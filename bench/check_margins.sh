#!/usr/bin/env bash
# The largest error of any node of each model, as a fraction of its tolerance (`cnnx check`'s "of tol"
# column), and the node it is at: how close oneDNN's results come to the bound cnnx checks them against.
#   bench/check_margins.sh CNNX MODEL_DIR...    (each MODEL_DIR holds model.onnx and input.npy, as
#                                                models/export_torchvision.py writes them)
set -euo pipefail
cnnx=$1; shift
printf '%-20s %10s  %s\n' model "max of tol" node
for dir in "$@"; do
  "$cnnx" check "$dir/model.onnx" "$dir/input.npy" | awk -v m="$(basename "$dir")" '
    $0 ~ /^node / { table = 1; next }
    table && NF >= 6 && $(NF-1) + 0 >= worst { worst = $(NF-1) + 0; at = $1 " (" $2 ")" }
    END { printf "%-20s %10.3g  %s\n", m, worst, at }'
done
