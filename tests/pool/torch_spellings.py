#!/usr/bin/env python3
"""The spellings of global average pooling PyTorch users write, exported by torch.onnx (opsets 11, 13 and 17):
`cnnx inspect` must show one GlobalAveragePool running the mean kernel (plus at most a Reshape) and name the
spelling it found; `cnnx run` must give PyTorch's float64 mean within 1e-6 relative.
Usage: torch_spellings.py CNNX [WORKDIR]"""
import io
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import onnx
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cnnx_outputs import mismatch, run_saved  # noqa: E402

SPELLINGS = {
    "x.mean((2, 3))": lambda x: x.mean((2, 3)),
    "x.mean((-1, -2), keepdim=True)": lambda x: x.mean((-1, -2), keepdim=True),
    "x.mean((2, 3)).view(N, C, 1, 1)": lambda x: x.mean((2, 3)).view(x.shape[0], x.shape[1], 1, 1),
    "F.avg_pool2d(x, x.shape[2:])": lambda x: F.avg_pool2d(x, x.shape[2:]),
    "F.avg_pool2d(x, H, ceil_mode=True)": lambda x: F.avg_pool2d(x, x.shape[2:], ceil_mode=True),
    "F.adaptive_avg_pool2d(x, 1)": lambda x: F.adaptive_avg_pool2d(x, 1),
    "torch.mean(x.view(N, C, -1), dim=2)": lambda x: torch.mean(x.view(x.shape[0], x.shape[1], -1), dim=2),
    "x.flatten(2).mean(-1)": lambda x: x.flatten(2).mean(-1),
    "x.reshape(N * C, -1).mean(1)": lambda x: x.reshape(x.shape[0] * x.shape[1], -1).mean(1),
}


class Fn(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


def main():
    cnnx = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    x = torch.randn(2, 8, 12, 10)
    x_path = os.path.join(work, "x.npy")
    np.save(x_path, x.numpy())
    want = x.double().mean((2, 3)).numpy().reshape(-1)
    failures = 0
    for opset in (11, 13, 17):
        for i, (name, fn) in enumerate(SPELLINGS.items()):
            path = os.path.join(work, f"s{i}_opset{opset}.onnx")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                buf = io.BytesIO()
                torch.onnx.export(Fn(fn), x, buf, opset_version=opset, input_names=["x"], output_names=["y"])
            onnx.save(onnx.load_from_string(buf.getvalue()), path)
            ops = [n.op_type for n in onnx.load(path).graph.node]
            r = subprocess.run([cnnx, "inspect", path], capture_output=True, text=True)
            plan = r.stdout.split("plan (")[-1].splitlines()[1:]
            steps = [l for l in plan if l.startswith("  ")]
            pooled = [l for l in steps if "GlobalAveragePool" in l]
            others = [l for l in steps if "GlobalAveragePool" not in l]
            ok = (r.returncode == 0 and len(pooled) == 1 and "kernel mean" in pooled[0]
                  and all(" Reshape " in l for l in others) and len(others) <= 1)
            note = pooled[0].split("{")[-1].rstrip("}") if pooled and "{" in pooled[0] else "(a GlobalAveragePool node)"
            out = os.path.join(work, f"out{i}_{opset}")
            got = run_saved(cnnx, path, x_path, out)
            why = mismatch(got if isinstance(got, str) else got.reshape(-1), want, 0, 1e-6)
            close = not why
            print(f"{'ok  ' if ok and close else 'FAIL'} opset {opset} {name}: exported {ops} -> {note}"
                  + ("" if ok else f"\n     plan: {steps}") + ("" if close else f"\n     result differs: {why}"))
            failures += 0 if ok and close else 1
    print(f"{len(SPELLINGS) * 3} exports, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
