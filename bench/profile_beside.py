#!/usr/bin/python3
"""cnnx's steps beside ONNX Runtime's nodes, per node of the model: where the time goes in each engine.

Usage: bench/profile_beside.py MODEL.onnx CNNX_PROFILE.json ORT_PROFILE.json [top=20] [mean|median|min]
  CNNX_PROFILE.json  `cnnx bench MODEL --profile --json ...` (its "steps")
  ORT_PROFILE.json   `bench/ort_profile.js MODEL INPUT THREADS RUNS json` (its "nodes")

Both engines fuse and rename: a step or node is put on the model's node whose name, or one of whose output
names, it carries (ONNX Runtime appends suffixes such as "_nchwc", and names some fused nodes after their
last output), and an activation, residual Add or BatchNormalization right after a convolution or product on
that producer (both engines fuse those). Reorders (cnnx's, ORT's
ReorderInput/ReorderOutput) are their own rows, as is anything that names no model node. Prints the ms by
op on both sides, then the `top` rows with the largest cnnx - ORT difference, with cnnx's kernel.
The statistic (default mean) is each step's or node's over the profiled runs: on a shared machine the means
carry the load, the medians and minima much less (both tools write all three).
"""
import json
import re
import sys

import onnx


# Ops the engines fuse into the convolution or product before them (as post-ops or by their passes).
FUSED_INTO_PRODUCER = {"Relu", "Clip", "Add", "Sum", "Mul", "Sigmoid", "HardSigmoid", "HardSwish", "LeakyRelu",
                       "BatchNormalization", "Tanh"}
PRODUCERS = {"Conv", "Gemm", "MatMul", "ConvTranspose"}


def owners(model_path):
    """Model node index of every node name and output value name: its own, or for an elementwise op right
    after a convolution or product (whose output it alone reads), that producer's."""
    graph = onnx.load(model_path, load_external_data=False).graph
    producer, readers = {}, {}
    for i, node in enumerate(graph.node):
        for o in node.output:
            producer[o] = i
        for x in node.input:
            readers[x] = readers.get(x, 0) + 1
    anchor = list(range(len(graph.node)))
    for i, node in enumerate(graph.node):
        if node.op_type not in FUSED_INTO_PRODUCER:
            continue
        for x in node.input:
            j = producer.get(x)
            if j is not None and graph.node[anchor[j]].op_type in PRODUCERS and readers.get(x) == 1:
                anchor[i] = anchor[j]
                break
    of = {}
    for i, node in enumerate(graph.node):
        for name in [node.name] + list(node.output):
            if name:
                of.setdefault(name, anchor[i])
    return of, [n.op_type for n in graph.node], [n.name or n.output[0] for n in graph.node]


def owner(name, of):
    for candidate in (name, re.sub(r"(_nchwc|_fused|_token_\d+|_output_\d+)$", "", name)):
        if candidate in of:
            return of[candidate]
    return None


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    model, cnnx_path, ort_path = sys.argv[1:4]
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    stat = sys.argv[5] if len(sys.argv) > 5 else "mean"
    if stat not in ("mean", "median", "min"):
        sys.exit(f"profile_beside.py: statistic '{stat}' is not mean, median or min")
    field = "ms" if stat == "mean" else stat + "_ms"
    of, ops, names = owners(model)
    cnnx = json.load(open(cnnx_path))
    ort = json.load(open(ort_path))
    rows = {}  # key -> {"cnnx": ms, "ort": ms, "what": kernel text, "op": str}

    def add(key, side, ms, op, what=""):
        r = rows.setdefault(key, {"cnnx": 0.0, "ort": 0.0, "what": "", "op": op})
        r[side] += ms
        if what and not r["what"]:
            r["what"] = what

    by_op = {"cnnx": {}, "ort": {}}
    for s in cnnx["steps"]:
        s["ms"] = s[field]
        by_op["cnnx"][s["op"]] = by_op["cnnx"].get(s["op"], 0) + s["ms"]
        i = None if s["op"] == "(reorder)" else owner(s["name"], of)
        key = ("node", i) if i is not None else ("cnnx", s["op"] + " " + s["name"])
        add(key, "cnnx", s["ms"], ops[i] if i is not None else s["op"], s["kernel"])
    for n in ort["nodes"]:
        n["ms"] = n[field]
        by_op["ort"][n["op"]] = by_op["ort"].get(n["op"], 0) + n["ms"]
        i = None if n["op"] in ("ReorderInput", "ReorderOutput") else owner(n["name"], of)
        key = ("node", i) if i is not None else ("ort", n["op"] + " " + n["name"])
        add(key, "ort", n["ms"], ops[i] if i is not None else n["op"])

    total = {side: sum(v.values()) for side, v in by_op.items()}
    print(f"cnnx {total['cnnx']:.2f} ms in steps, ONNX Runtime {total['ort']:.2f} ms in nodes ({stat} per step) "
          f"({cnnx.get('threads')} / {ort.get('threads')} threads, cnnx isa {cnnx.get('isa', '?')})")
    print("\n| op (cnnx) | cnnx ms | | op (ORT) | ORT ms |\n|---|---|---|---|---|")
    left = sorted(by_op["cnnx"].items(), key=lambda kv: -kv[1])
    right = sorted(by_op["ort"].items(), key=lambda kv: -kv[1])
    for k in range(max(len(left), len(right))):
        a = left[k] if k < len(left) else ("", None)
        b = right[k] if k < len(right) else ("", None)
        print(f"| {a[0]} | {'' if a[1] is None else f'{a[1]:.3f}'} | | {b[0]} | {'' if b[1] is None else f'{b[1]:.3f}'} |")
    print(f"\nthe {top} nodes with the largest difference (cnnx - ORT):\n")
    print("| node | op | cnnx ms | ORT ms | cnnx - ORT | cnnx kernel |\n|---|---|---|---|---|---|")
    for key, r in sorted(rows.items(), key=lambda kv: -(kv[1]["cnnx"] - kv[1]["ort"]))[:top]:
        name = names[key[1]] if key[0] == "node" else f"({key[0]} only) {key[1]}"
        print(f"| {name} | {r['op']} | {r['cnnx']:.3f} | {r['ort']:.3f} | {r['cnnx'] - r['ort']:+.3f} | {r['what']} |")


if __name__ == "__main__":
    main()
