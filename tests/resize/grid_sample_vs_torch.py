#!/usr/bin/env python3
"""GridSample against PyTorch's own output: F.grid_sample in every mode (bilinear, nearest, bicubic), padding
mode (zeros, border, reflection) and align_corners setting, exported by torch.onnx at opset 16, run by
`cnnx run --backend ref|dnnl --save` on a seeded input and a grid reaching 40% past the edges (plus the edges,
the centre and cells' midpoints exactly), compared with the module's output within the op's tolerance (abs 2e-5
+ rel 1e-5, kResizeTolerance in ops/resize/resize.h: the same taps and weights as Resize).
Usage: grid_sample_vs_torch.py CNNX [WORKDIR]"""
import io
import itertools
import os
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


class GridSample(torch.nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.kwargs = kwargs

    def forward(self, x, grid):
        return F.grid_sample(x, grid, **self.kwargs)


def grid_for(n, h, w, rng):
    g = rng.uniform(-1.4, 1.4, size=(n, h, w, 2)).astype(np.float32)
    # Exact points: the corners and edges (+-1), the centre, and where nearest meets a half (W = 5: x = 0.2
    # unnormalizes to 2.5 without align_corners, halfway between cells 2 and 3).
    special = np.array([-1, 1, 0, 0.2, -0.6, 1.2, -1.25, 0.5], np.float32)
    g.reshape(-1, 2)[: len(special), 0] = special
    g.reshape(-1, 2)[: len(special), 1] = special[::-1]
    return g


def main():
    cnnx = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    failures = runs = 0
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    grid = grid_for(2, 3, 6, rng)
    x_path, grid_path = os.path.join(work, "x.npy"), os.path.join(work, "grid.npy")
    np.save(x_path, x)
    np.save(grid_path, grid)
    for mode, padding, align in itertools.product(("bilinear", "nearest", "bicubic"), ("zeros", "border", "reflection"),
                                                  (False, True)):
        tag = f"{mode}_{padding}_align{int(align)}"
        module = GridSample(mode=mode, padding_mode=padding, align_corners=align)
        want = module(torch.from_numpy(x), torch.from_numpy(grid)).numpy()
        model_path = os.path.join(work, tag + ".onnx")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            buf = io.BytesIO()
            torch.onnx.export(module, (torch.from_numpy(x), torch.from_numpy(grid)), buf, opset_version=16,
                              input_names=["x", "grid"], output_names=["y"])
        model = onnx.load_from_string(buf.getvalue())
        ops = [n.op_type for n in model.graph.node]
        if ops != ["GridSample"]:
            print(f"FAIL {tag}: the export has {ops}, expected one GridSample")
            failures += 1
            continue
        onnx.save(model, model_path)
        for backend in ("ref", "dnnl"):
            runs += 1
            got = run_saved(cnnx, model_path, x_path, os.path.join(work, tag + "_" + backend), backend,
                            extra=(grid_path,))
            failures += report(f"{tag} ({backend})", got, want, TOL_ABS, TOL_REL)
    print(f"{runs} runs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
