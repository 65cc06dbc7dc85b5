#!/usr/bin/env bash
# Resize kernels against ONNX Runtime: one-node Resize graphs (bench/resize_models.py) timed with cnnx as planned
# (dnnl, else native), cnnx without the native kernel (what ran before it: the reference kernel where oneDNN
# declines) and ONNX Runtime 1.30, in alternating rounds; prints per graph the median over rounds of each
# engine's median and the ratio cnnx / ORT.
#
# Usage: bench/resize.sh CNNX ORT_NODE_MODULES [threads=1] [rounds=3] [DIR=/tmp/cnnx-resize-models]
set -euo pipefail
cnnx=$1 ort=$2 threads=${3:-1} rounds=${4:-3} dir=${5:-/tmp/cnnx-resize-models}
here=$(cd "$(dirname "$0")" && pwd)
peers=${PEERS_DIR:-$here/../../shared/peers}
/usr/bin/python3 "$here/resize_models.py" "$dir" > /dev/null
median() { /usr/bin/python3 -c 'import sys, statistics; print("%.2f" % statistics.median(map(float, sys.argv[1:])))' "$@"; }
ms() { /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["median_ms"])'; }
printf '%-24s %10s %10s %10s %8s\n' graph before_ms cnnx_ms ort_ms cnnx/ort
for m in bilinear_half_pixel bilinear_align_corners bilinear_asymmetric bilinear_sizes_odd cubic_half_pixel nearest_x2 \
         linear_antialias_half decoder_96; do
  f=$dir/$m/model.onnx
  kernel=$("$cnnx" inspect "$f" | awk '/ Resize /{for (i = 1; i <= NF; ++i) if ($i == "kernel") print $(i + 1)}')
  kernel="$kernel, $("$cnnx" inspect "$f" | awk '/^reorders:/{print $2}') reorders"
  a=() b=() o=()
  for ((r = 0; r < rounds; ++r)); do
    a+=("$("$cnnx" bench "$f" --threads "$threads" --iters 20 --json | ms)")
    b+=("$("$cnnx" bench "$f" --threads "$threads" --iters 5 --disable-kernel Resize:native --json | ms)")
    o+=("$(NODE_PATH=$ort node "$peers/ort_bench.js" "$f" "$dir/$m/input.npy" "$threads" 20 | ms)")
  done
  A=$(median "${a[@]}") B=$(median "${b[@]}") O=$(median "${o[@]}")
  printf '%-24s %10s %10s %10s %8s  (%s)\n' "$m" "$B" "$A" "$O" "$(/usr/bin/python3 -c "print('%.2f' % ($A / $O))")" "$kernel"
done
