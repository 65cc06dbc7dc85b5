#!/bin/sh
# Images per second of `cnnx run MODEL DIR` (folder mode: decode, preprocess, run, one JSON line per image),
# for each batch size, over alternating rounds; prints the median rate of each (the summary line's img/s,
# planning of each batch size included). Usage: bench/folder_mode.sh CNNX MODEL DIR [ROUNDS] [BATCHES...]
#   /usr/bin/python3 models/shapes/train_shapes.py --write-test-set /tmp/shapes --count 400 &&
#     mkdir -p /tmp/pngs && cp /tmp/shapes/*.png /tmp/pngs/
#   bench/folder_mode.sh build/cnnx models/shapes/shapes.onnx /tmp/pngs 5 1 8 32
set -eu
cnnx=$1 model=$2 dir=$3
rounds=${4:-5}
shift $(( $# < 4 ? $# : 4 ))
batches=${*:-1 8}
out=$(mktemp)
for round in $(seq "$rounds"); do
  for b in $batches; do
    rate=$("$cnnx" run "$model" "$dir" --batch "$b" --jsonl /dev/null 2>&1 >/dev/null | sed -n 's/.*, \([0-9.]*\) img\/s.*/\1/p')
    echo "$b $rate" >> "$out"
  done
done
for b in $batches; do
  awk -v b="$b" '$1 == b { print $2 }' "$out" | sort -n | awk -v b="$b" -v model="$model" \
    '{ r[NR] = $1 } END { printf "%s batch %s: median %.1f img/s (min %.1f, max %.1f, %d rounds)\n", model, b, r[int((NR + 1) / 2)], r[1], r[NR], NR }'
done
rm -f "$out"
