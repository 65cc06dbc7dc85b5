#!/usr/bin/env python3
"""Adaptive average pooling against PyTorch's own output: each case is a torch module exported with
operator_export_type=ONNX_ATEN_FALLBACK (an org.pytorch.aten adaptive_avg_pool{1,2,3}d node whenever the output
size does not divide the input), run by `cnnx run --backend ref|dnnl --save`, and compared with the module's output
on the same seeded input within the op's tolerance (abs 1e-5 + rel 1e-5, kPoolAverageTolerance).
Usage: adaptive_vs_torch.py CNNX [WORKDIR]"""
import io
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

TOL_ABS, TOL_REL = 1e-5, 1e-5

# (name, function, input shape, output size, expected op in the export)
CASES = [
    ("2d_10x7_to_3x4", F.adaptive_avg_pool2d, (2, 3, 10, 7), (3, 4), "adaptive_avg_pool2d"),
    ("2d_upsample_5x5_to_7x3", F.adaptive_avg_pool2d, (1, 4, 5, 5), (7, 3), "adaptive_avg_pool2d"),
    ("2d_keep_one_dim", F.adaptive_avg_pool2d, (2, 2, 10, 9), (None, 4), "adaptive_avg_pool2d"),
    ("2d_int_size", F.adaptive_avg_pool2d, (1, 3, 13, 11), 5, "adaptive_avg_pool2d"),
    ("2d_unbatched", F.adaptive_avg_pool2d, (3, 10, 7), (3, 4), "adaptive_avg_pool2d"),
    ("2d_large_plane", F.adaptive_avg_pool2d, (2, 8, 97, 101), (6, 7), "adaptive_avg_pool2d"),
    ("1d_10_to_3", F.adaptive_avg_pool1d, (2, 3, 10), 3, "adaptive_avg_pool1d"),
    ("1d_7_to_9", F.adaptive_avg_pool1d, (1, 2, 7), 9, "adaptive_avg_pool1d"),
    ("3d_5x6x7_to_2x3x4", F.adaptive_avg_pool3d, (2, 2, 5, 6, 7), (2, 3, 4), "adaptive_avg_pool3d"),
    ("3d_unbatched", F.adaptive_avg_pool3d, (2, 7, 5, 3), (3, 2, 2), "adaptive_avg_pool3d"),
    ("2d_to_1x1_exports_gap", F.adaptive_avg_pool2d, (2, 5, 9, 11), (1, 1), "GlobalAveragePool"),
]


class Pool(torch.nn.Module):
    def __init__(self, fn, size):
        super().__init__()
        self.fn, self.size = fn, size

    def forward(self, x):
        return self.fn(x, self.size)


def export(module, x, path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        buf = io.BytesIO()
        torch.onnx.export(module, x, buf, opset_version=13, input_names=["x"], output_names=["y"],
                          operator_export_type=torch.onnx.OperatorExportTypes.ONNX_ATEN_FALLBACK)
    model = onnx.load_from_string(buf.getvalue())
    onnx.save(model, path)
    return model


def main():
    cnnx = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    failures = 0
    for i, (name, fn, shape, size, op) in enumerate(CASES):
        torch.manual_seed(i)
        x = torch.randn(shape)
        module = Pool(fn, size)
        want = module(x).numpy()
        model_path = os.path.join(work, name + ".onnx")
        model = export(module, x, model_path)
        ops = [n.op_type for n in model.graph.node]
        if op not in ops:
            print(f"FAIL {name}: the export has {ops}, expected {op}")
            failures += 1
            continue
        if op.startswith("adaptive"):
            node = next(n for n in model.graph.node if n.op_type == op)
            assert node.domain == "org.pytorch.aten", node.domain
        input_path = os.path.join(work, name + "_x.npy")
        np.save(input_path, x.numpy())
        for backend in ("ref", "dnnl"):
            got = run_saved(cnnx, model_path, input_path, os.path.join(work, name + "_" + backend), backend)
            failures += report(f"{name} ({backend})", got, want, TOL_ABS, TOL_REL,
                               f"{op} {list(shape)} -> {list(want.shape)}")
    print(f"{len(CASES)} cases x 2 backends, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
