#!/usr/bin/env python3
"""`cnnx inspect`, `bench` and `check` on models with unknown input dims (README, Command line): an unknown batch
(first) dim is set to --batch; any other unknown dim needs --shape, and without one the command fails with a
message naming the input, its dims and the --shape to give, instead of planning with 1 and failing inside an
op. With --shape, the plan follows the given shape through a Shape -> Gather -> Concat -> Reshape chain.
Usage: unknown_dims_test.py CNNX"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

failures = []
passes = []


def check(ok, what, r=None):
    detail = f" (exit {r.returncode}; stdout: {r.stdout.strip()[-300:]!r}; stderr: {r.stderr.strip()[-300:]!r})" if r else ""
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else detail))
    (passes if ok else failures).append(what)


def model(path, dims, input_size=None):
    """x[dims] -> Conv 3x3 (3 -> 4, no padding) -> Reshape to [N, 4, -1] (the shape computed from Shape(x)) ->
    ReduceMean over the last axis -> y [N, 4]. Planned with H = W = 1 the Conv has no output."""
    rng = np.random.RandomState(0)
    w = numpy_helper.from_array(rng.uniform(-1, 1, (4, 3, 3, 3)).astype(np.float32), "w")
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3]),
        helper.make_node("Shape", ["c"], ["c_shape"], name="shape"),
        helper.make_node("Gather", ["c_shape", "zero"], ["n"], name="gather_n", axis=0),
        helper.make_node("Concat", ["n", "four_minus_one"], ["target"], name="concat", axis=0),
        helper.make_node("Reshape", ["c", "target"], ["r"], name="reshape"),
        helper.make_node("ReduceMean", ["r"], ["y"], name="mean", axes=[2], keepdims=0),
    ]
    inits = [w, numpy_helper.from_array(np.array([0], np.int64), "zero"),
             numpy_helper.from_array(np.array([4, -1], np.int64), "four_minus_one")]
    graph = helper.make_graph(nodes, "unknown_dims", [helper.make_tensor_value_info("x", TensorProto.FLOAT, dims)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    if input_size:
        helper.set_model_props(m, {"cnnx.input_size": input_size})
    save(m, path)
    return path


def cnnx(*args):
    return subprocess.run([CNNX, *args], capture_output=True, text=True, timeout=300)


def main():
    tmp = tempfile.mkdtemp()
    hw = model(os.path.join(tmp, "hw.onnx"), ["N", 3, "H", "W"])
    hw_meta = model(os.path.join(tmp, "hw_meta.onnx"), ["N", 3, "H", "W"], input_size="32,40")
    batch_only = model(os.path.join(tmp, "batch_only.onnx"), ["N", 3, 12, 10])
    bench = ("bench", "--iters", "2", "--warmup", "0")

    for command in (("inspect",), bench, ("check",)):
        name = command[0]
        r = cnnx(*command, hw)
        want = "cnnx: error: input 'x' has unknown dims [?,3,?,?]: give --shape x=1,3,D2,D3"
        check(r.returncode == 1 and want in r.stderr, f"{name} without --shape names the input and dims", r)
        r = cnnx(*command, hw_meta, "--batch", "2")
        want = "input 'x' has unknown dims [?,3,?,?]: give --shape x=2,3,32,40"
        check(r.returncode == 1 and want in r.stderr, f"{name}: the hint takes --batch and cnnx.input_size", r)
        r = cnnx(*command, hw, "--shape", "x=1,3,a,4")
        check(r.returncode != 0 and "--shape x: 'a' is not a non-negative integer" in r.stderr,
              f"{name} --shape with a bad dim is refused", r)
        r = cnnx(*command, hw, "--shape", "y=1,3,8,8")
        check(r.returncode != 0 and "the model has no input named 'y'" in r.stderr,
              f"{name} --shape for no input is refused", r)

    # The plan follows --shape (conv output [2,4,8,10], reshaped to [2,4,80]) and --batch.
    r = cnnx("inspect", hw, "--shape", "x=2,3,10,12")
    check(r.returncode == 0 and "float32[2,4,8,10]" in r.stdout and "Reshape to [2,4,80]" in r.stdout,
          "inspect --shape plans for that shape", r)
    r = cnnx("inspect", batch_only, "--batch", "3")
    check(r.returncode == 0 and "float32[3,4,10,8]" in r.stdout and "Reshape to [3,4,80]" in r.stdout,
          "inspect: an unknown batch dim alone is set to --batch", r)
    r = cnnx("inspect", batch_only)
    check(r.returncode == 0 and "float32[1,4,10,8]" in r.stdout, "inspect: the batch dim is 1 by default", r)

    r = cnnx(*bench, hw, "--shape", "x=2,3,10,12", "--json")
    ok = r.returncode == 0 and json.loads(r.stdout)["inputs"]["x"] == [2, 3, 10, 12]
    check(ok, "bench --shape runs that shape", r)
    r = cnnx(*bench, batch_only, "--batch", "3", "--json")
    ok = r.returncode == 0 and json.loads(r.stdout)["inputs"]["x"] == [3, 3, 12, 10]
    check(ok, "bench: an unknown batch dim alone is set to --batch", r)

    r = cnnx("check", hw, "--shape", "x=2,3,10,12")
    check(r.returncode == 0 and "beyond tolerance" in r.stdout, "check --shape runs that shape", r)

    print(f"{len(passes)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    CNNX = sys.argv[1]
    main()
