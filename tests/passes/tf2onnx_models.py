#!/usr/bin/env python3
"""The tf2onnx passes (elementwise-before-transpose, cancel-transposes, reduce-before-transpose,
pad-through-transpose, fold-mul-add, then global-average-pool, fold-pad and fuse-conv) on a whole tf2onnx-style
MobileNet (tf2onnx_graphs.py; also written without tf2onnx's transpose optimizer): `cnnx inspect` must report
what each took, the plan must keep no Pad, Clip, Mul or Add of the convolutions (only the input
normalization's Mul and Sub, and the head), no Transpose but the input's and the head's (views), and no
reorder; `cnnx check` must be clean, and `cnnx run` must give the output of the same model planned with every
pass off on the reference kernels, within the last op's (Softmax's) tolerance, on both backends.
Usage: tf2onnx_models.py CNNX [WORKDIR]"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
sys.path.insert(0, here)
from cnnx_outputs import mismatch, run_saved  # noqa: E402
from tf2onnx_graphs import mobilenet_nhwc  # noqa: E402
from torch_fusions import inspect_reports  # noqa: E402

SOFTMAX = (1e-7, 1e-5)  # ops/softmax/softmax.h: |got - want| <= abs + rel * |want|

EXPECTED = {  # pass -> its report on mobilenet_nhwc(96, 0.5)
    "elementwise-before-transpose": "no match",
    "cancel-transposes": "removed 10 nodes (Transpose x10)",
    "reduce-before-transpose": "rewrote 2 nodes (ReduceMean x1, Transpose x1)",
    "global-average-pool": "1 GlobalAveragePool from 1 nodes (ReduceMean x1)",
    "pad-through-transpose": "rewrote 2 nodes (Pad x1, Transpose x1)",
    "fold-pad": "removed 5 nodes (Pad x5)",
    "fold-mul-add": "removed 80 nodes (Add x40, Mul x40)",
    "fuse-conv": "33 FusedConv from 66 nodes (Add x6, Clip x27, Conv x33)",
}
# mobilenet_nhwc(96, 0.5, nhwc_ops=True): BatchNorm and Relu6 in NHWC between Transposes; the same plan after.
EXPECTED_NHWC_OPS = dict(EXPECTED, **{
    "elementwise-before-transpose": "rewrote 147 nodes (Add x40, Clip x27, Mul x40, Transpose x40)",
    "cancel-transposes": "removed 90 nodes (Transpose x90)",
})
# Steps the plan may keep besides convolutions: the input normalization, the first Transpose (a view), the head
# (a GlobalAveragePool, its Transpose to [1, 1, 1, C] (a view), Reshape, FusedMatMul, Softmax).
ALLOWED = {"Mul": 1, "Sub": 1, "Transpose": 2, "GlobalAveragePool": 1, "Reshape": 1, "FusedMatMul": 1, "Softmax": 1}


def check(cnnx, work, name, model, expected):
    """The checks on one model; returns the failure messages."""
    path = os.path.join(work, name + ".onnx")
    onnx.save(model, path)
    work = os.path.join(work, name)
    os.makedirs(work, exist_ok=True)
    x = np.random.default_rng(0).uniform(0, 255, (1, 96, 96, 3)).astype(np.float32)
    x_path = os.path.join(work, "x.npy")
    np.save(x_path, x)
    failures = []
    reports, text = inspect_reports(cnnx, path)
    if reports is None:
        return [f"{name}: cnnx inspect failed: {text}"]
    for pass_name, want in expected.items():
        if reports.get(pass_name) != want:
            failures.append(f"inspect reports {pass_name}: {reports.get(pass_name)!r}, want {want!r}")
    steps = {}
    for line in text.split("plan (")[-1].splitlines()[1:]:
        fields = line.split()
        if len(fields) > 1 and not line.startswith("reorders") and not line.startswith("arena"):
            steps[fields[1]] = steps.get(fields[1], 0) + 1
    for op, n in steps.items():
        if op not in ("Conv", "FusedConv") and n > ALLOWED.get(op, 0):
            failures.append(f"the plan keeps {n} {op} steps, want at most {ALLOWED.get(op, 0)}")
    if "reorders: 0" not in text:
        failures.append("the plan reorders: " + [l for l in text.splitlines() if l.startswith("reorders")][0])
    r = subprocess.run([cnnx, "check", path], capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"cnnx check: exit {r.returncode}: {r.stdout[-400:]} {r.stderr[-400:]}")
    # Every pass `cnnx inspect` lists as one to turn off (lowerings such as float16-compute always run).
    names = next(l for l in text.splitlines() if l.startswith("graph passes:")).split(":", 1)[1].split("(")[0].split()
    all_off = [a for p in reports if p in names for a in ("--disable-pass", p)]
    want = run_saved(cnnx, path, x_path, os.path.join(work, "want"), "ref", all_off, output="probs")
    if isinstance(want, str):
        failures.append(f"the pass-free reference run failed: {want}")
    else:
        for backend in ("dnnl", "ref"):
            got = run_saved(cnnx, path, x_path, os.path.join(work, backend), backend, output="probs")
            why = mismatch(got, want.astype(np.float64), *SOFTMAX)
            if why:
                failures.append(f"--backend {backend}: {why}")
    print(f"{'ok  ' if not failures else 'FAIL'} {name}")
    return [f"{name}: {f}" for f in failures]


def main():
    cnnx = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    failures = check(cnnx, work, "mobilenet_nhwc", mobilenet_nhwc(96, 0.5, seed=1), EXPECTED)
    failures += check(cnnx, work, "mobilenet_nhwc_ops", mobilenet_nhwc(96, 0.5, seed=1, nhwc_ops=True), EXPECTED_NHWC_OPS)
    for f in failures:
        print("  " + f)
    print(f"2 models, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
