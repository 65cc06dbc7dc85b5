#!/usr/bin/env python3
"""Resize and Upsample against PyTorch's own output: F.interpolate (nearest, bilinear with align_corners False and
True, bicubic, linear 1-D, trilinear; scale_factor and size forms) exported by torch.onnx at opsets 9 and 10
(Upsample / Resize-10: nearest only, the exporter's linear there is not PyTorch's), 11 and 13, run by
`cnnx run --backend ref|dnnl --save` and compared with the module's output on the same seeded input within the
op's tolerance (abs 2e-5 + rel 1e-5, kResizeTolerance in ops/resize/resize.h). Prints the kernel `cnnx inspect`
says ran the node on the dnnl backend.
Usage: resize_vs_torch.py CNNX [WORKDIR]"""
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
from cnnx_outputs import report, run_saved  # noqa: E402

TOL_ABS, TOL_REL = 2e-5, 1e-5

# (name, input shape, F.interpolate keyword arguments, opsets)
NEAREST_OPSETS = (9, 10, 11, 13)
CASES = [
    ("nearest_x2", (1, 3, 5, 6), dict(mode="nearest", scale_factor=2.0), NEAREST_OPSETS),
    ("nearest_x2x3", (2, 2, 4, 3), dict(mode="nearest", scale_factor=(2.0, 3.0)), NEAREST_OPSETS),
    ("nearest_size", (1, 2, 5, 6), dict(mode="nearest", size=(9, 13)), NEAREST_OPSETS),
    ("nearest_half", (1, 2, 8, 8), dict(mode="nearest", scale_factor=0.5), (11, 13)),
    ("bilinear_x2", (1, 3, 5, 6), dict(mode="bilinear", scale_factor=2.0, align_corners=False), (11, 13)),
    ("bilinear_size", (2, 3, 5, 6), dict(mode="bilinear", size=(7, 9), align_corners=False), (11, 13)),
    ("bilinear_half", (1, 2, 8, 10), dict(mode="bilinear", scale_factor=0.5, align_corners=False), (11, 13)),
    ("bilinear_to_one_row", (1, 2, 4, 6), dict(mode="bilinear", size=(1, 5), align_corners=False), (11, 13)),
    ("bilinear_align_x2", (1, 3, 5, 6), dict(mode="bilinear", scale_factor=2.0, align_corners=True), (11, 13)),
    ("bilinear_align_size", (1, 2, 5, 6), dict(mode="bilinear", size=(7, 9), align_corners=True), (11, 13)),
    ("bicubic_x2", (1, 3, 5, 6), dict(mode="bicubic", scale_factor=2.0, align_corners=False), (11, 13)),
    ("bicubic_size", (1, 2, 6, 5), dict(mode="bicubic", size=(4, 9), align_corners=False), (11, 13)),
    ("bicubic_align_size", (1, 2, 5, 6), dict(mode="bicubic", size=(7, 9), align_corners=True), (11, 13)),
    ("linear_1d", (1, 2, 7), dict(mode="linear", size=12, align_corners=False), (11, 13)),
    ("trilinear_x2", (1, 2, 3, 4, 5), dict(mode="trilinear", scale_factor=2.0, align_corners=False), (11, 13)),
]


class Interpolate(torch.nn.Module):
    def __init__(self, kwargs):
        super().__init__()
        self.kwargs = kwargs

    def forward(self, x):
        return F.interpolate(x, **self.kwargs)


def export(module, x, path, opset):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        buf = io.BytesIO()
        torch.onnx.export(module, x, buf, opset_version=opset, input_names=["x"], output_names=["y"])
    model = onnx.load_from_string(buf.getvalue())
    onnx.save(model, path)
    return model


def kernel_of(cnnx, model_path, op):
    """The kernel `cnnx inspect` names for the first `op` node, with its reasons (a line of text)."""
    r = subprocess.run([cnnx, "inspect", model_path], capture_output=True, text=True)
    lines = [" ".join(line.split()) for line in r.stdout.splitlines() if op in line and " kernel " in line]
    return lines[0] if lines else "?"


def main():
    cnnx = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    failures = runs = 0
    for i, (name, shape, kwargs, opsets) in enumerate(CASES):
        torch.manual_seed(i)
        x = torch.randn(shape)
        module = Interpolate(kwargs)
        want = module(x).numpy()
        input_path = os.path.join(work, name + "_x.npy")
        np.save(input_path, x.numpy())
        for opset in opsets:
            tag = f"{name}_opset{opset}"
            model_path = os.path.join(work, tag + ".onnx")
            model = export(module, x, model_path, opset)
            ops = [n.op_type for n in model.graph.node]
            op = "Upsample" if opset < 10 else "Resize"
            if op not in ops:
                print(f"FAIL {tag}: the export has {ops}, expected {op}")
                failures += 1
                continue
            for backend in ("ref", "dnnl"):
                runs += 1
                got = run_saved(cnnx, model_path, input_path, os.path.join(work, tag + "_" + backend), backend)
                failures += report(f"{tag} ({backend}) {kwargs}", got, want, TOL_ABS, TOL_REL,
                                   f"{list(shape)} -> {list(want.shape)}")
            print(f"     {tag} dnnl plan: {kernel_of(cnnx, model_path, op)}")
    print(f"{runs} runs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
