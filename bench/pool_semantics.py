#!/usr/bin/env python3
"""AveragePool corner cases on every engine at hand: the ONNX opset-19 text (a brute-force implementation here),
ONNX Runtime (onnxruntime-node), PyTorch 1.13 (where it can express the case) and cnnx (`cnnx run`, both
backends). 1-D inputs x = 1, 2, 3, ... so every output is (sum of the window's cells) / divisor and the divisor
can be read off. Prints one block per case, marking outputs that differ from the ONNX text.
Usage: pool_semantics.py CNNX ORT_NODE_MODULES"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper


def onnx19(x, k, s, pads, ceil, cip, d, auto_pad):
    """AveragePool along one axis, straight from the opset-19 text."""
    n, eff = len(x), (k - 1) * d + 1
    if auto_pad.startswith("SAME"):
        out = -(-n // s)
        total = max(0, (out - 1) * s + eff - n)
        pb = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
        pe = total - pb
    elif auto_pad == "VALID":
        pb = pe = 0
        out = (n - eff) // s + 1
    else:
        pb, pe = pads
        out = (-(-(n + pb + pe - eff) // s) if ceil else (n + pb + pe - eff) // s) + 1
        if ceil and (out - 1) * s - pb >= n:  # a last window starting in the right padding is dropped
            out -= 1
    y = []
    for o in range(out):
        cells = [o * s - pb + j * d for j in range(k)]
        inside = [q for q in cells if 0 <= q < n]
        padded = [q for q in cells if -pb <= q < n + pe]
        y.append(sum(x[q] for q in inside) / (len(padded) if cip else len(inside)))
    return np.array(y)


CASES = [  # name, input length, kernel, stride, pads, ceil_mode, count_include_pad, dilation, auto_pad
    ("ceil + count_include_pad, last window overhangs", 6, 3, 2, (1, 1), 1, 1, 1, "NOTSET"),
    ("ceil + count_include_pad, no pads", 7, 2, 3, (0, 0), 1, 1, 1, "NOTSET"),
    ("onnxruntime#16203's case", 9, 7, 3, (3, 3), 1, 1, 1, "NOTSET"),
    ("ceil drops a window starting in the padding", 5, 2, 2, (1, 1), 1, 0, 1, "NOTSET"),
    ("windows starting deep in the padding", 4, 3, 1, (2, 2), 0, 1, 1, "NOTSET"),
    ("asymmetric pads, count_include_pad", 5, 3, 1, (0, 2), 0, 1, 1, "NOTSET"),
    ("SAME_UPPER with dilation", 7, 3, 1, (0, 0), 0, 0, 2, "SAME_UPPER"),
    ("SAME_LOWER with dilation, count_include_pad", 7, 3, 1, (0, 0), 0, 1, 2, "SAME_LOWER"),
    ("SAME_UPPER, stride 2, count_include_pad", 6, 3, 2, (0, 0), 0, 1, 1, "SAME_UPPER"),
    ("dilation with pads, count_include_pad", 7, 3, 1, (2, 2), 0, 1, 2, "NOTSET"),
    ("dilation with ceil_mode", 8, 2, 3, (1, 1), 1, 1, 2, "NOTSET"),
]


def main():
    cnnx, ort = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp()
    jobs = []
    for i, (name, n, k, s, pads, ceil, cip, d, auto_pad) in enumerate(CASES):
        attrs = {"kernel_shape": [k], "strides": [s], "ceil_mode": ceil, "count_include_pad": cip, "dilations": [d]}
        if auto_pad == "NOTSET":
            attrs["pads"] = list(pads)
        else:
            attrs["auto_pad"] = auto_pad
        graph = helper.make_graph([helper.make_node("AveragePool", ["x"], ["y"], **attrs)], "g",
                                  [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, n])],
                                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
        model.ir_version = 8
        path = os.path.join(tmp, f"case{i}.onnx")
        onnx.save(model, path)
        x = [float(v + 1) for v in range(n)]
        np.save(os.path.join(tmp, f"case{i}.npy"), np.array(x, np.float32).reshape(1, 1, n))
        jobs.append({"name": str(i), "model": path, "shape": [1, 1, n], "x": x})
    cases_json = os.path.join(tmp, "cases.json")
    json.dump(jobs, open(cases_json, "w"))
    here = os.path.dirname(os.path.abspath(__file__))
    r = subprocess.run(["node", os.path.join(here, "pool_ort_cases.js"), cases_json], capture_output=True, text=True,
                       env=dict(os.environ, NODE_PATH=ort))
    ort_out = json.loads(r.stdout) if r.returncode == 0 else {}

    def run_cnnx(i, backend):
        out = os.path.join(tmp, f"out{i}_{backend}")
        r = subprocess.run([cnnx, "run", jobs[i]["model"], os.path.join(tmp, f"case{i}.npy"), "--backend", backend,
                            "--save", out], capture_output=True, text=True)
        return np.load(os.path.join(out, "y.npy")).reshape(-1) if r.returncode == 0 else "error: " + r.stderr.strip()

    def run_torch(n, k, s, pads, ceil, cip, d, auto_pad, x):
        if auto_pad != "NOTSET":
            return "no SAME padding in PyTorch pooling"
        if d != 1:
            return "no dilation in PyTorch average pooling"
        if pads[0] != pads[1]:
            return "PyTorch pads symmetrically"
        try:
            return F.avg_pool1d(torch.tensor(x).reshape(1, 1, n), k, s, pads[0], bool(ceil), bool(cip)).reshape(-1).numpy()
        except RuntimeError as e:
            return "refused: " + str(e).splitlines()[0]

    for i, (name, n, k, s, pads, ceil, cip, d, auto_pad) in enumerate(CASES):
        x = jobs[i]["x"]
        want = onnx19(x, k, s, pads, ceil, cip, d, auto_pad)
        o = ort_out.get(str(i), {"error": "ONNX Runtime did not run"})
        results = [("ONNX opset 19", want),
                   ("ONNX Runtime", np.array(o["data"]) if "data" in o else "error: " + o["error"]),
                   ("PyTorch", run_torch(n, k, s, pads, ceil, cip, d, auto_pad, x)),
                   ("cnnx ref", run_cnnx(i, "ref")), ("cnnx dnnl", run_cnnx(i, "dnnl"))]
        print(f"{name}: in {n}, kernel {k}, stride {s}, pads {list(pads)}, ceil_mode {ceil}, count_include_pad {cip}, "
              f"dilation {d}, auto_pad {auto_pad}")
        for who, v in results:
            if isinstance(v, str):
                print(f"  {who:14s} {v}")
                continue
            same = v.shape == want.shape and np.allclose(v, want)
            print(f"  {who:14s} [{' '.join(f'{a:.4g}' for a in v)}]{'' if same else '   <- differs'}")


if __name__ == "__main__":
    main()
