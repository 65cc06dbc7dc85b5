#!/usr/bin/env python3
"""`cnnx run` reports a classifier's probabilities honestly: an output that a Softmax over the classes already
made (through reshapes or not) is shown as the model computed it, never softmaxed again; any other scores are
softmaxed once. Models built with onnx.helper and exported by PyTorch; the model's own numbers are read back
with --save. Usage: probability_test.py CNNX"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(7)
W = RNG.standard_normal((3, 4)).astype(np.float32)
B = RNG.standard_normal(3).astype(np.float32)
X = RNG.standard_normal((2, 4)).astype(np.float32)


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def gemm_model(path, tail, out_shape, opset=13, extra_inits=()):
    """X [N, 4] -> Gemm -> 'logits' [N, 3] -> the `tail` nodes -> 'y'."""
    nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["logits"], transB=1)] + tail
    inits = [numpy_helper.from_array(W, "w"), numpy_helper.from_array(B, "b")] + list(extra_inits)
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, path)


def torch_softmax_model(path, p0):
    """PyTorch's usual export of a classifier ending in nn.Softmax(dim=1): outputs [p0, 1 - p0] whatever the input."""
    net = torch.nn.Sequential(torch.nn.Linear(4, 2), torch.nn.Softmax(dim=1))
    with torch.no_grad():
        net[0].weight.zero_()
        net[0].bias.copy_(torch.log(torch.tensor([p0, 1 - p0])))
    torch.onnx.export(net, torch.from_numpy(X), path, input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": {0: "N"}, "y": {0: "N"}}, opset_version=13)


def cases(tmp):
    logits = X @ W.T + B
    shape4 = numpy_helper.from_array(np.array([-1, 3, 1, 1], np.int64), "shape4")
    shape2 = numpy_helper.from_array(np.array([-1, 3], np.int64), "shape2")
    two = numpy_helper.from_array(np.array(2, np.float32), "two")
    sm = lambda i, o, **kw: helper.make_node("Softmax", [i], [o], **kw)  # noqa: E731
    # (name, build, the model's output as numpy computes it, already probabilities?)
    return [
        ("softmax axis=1, opset 13", lambda p: gemm_model(p, [sm("logits", "y", axis=1)], ["N", 3]),
         softmax(logits, 1), True),
        ("softmax default axis, opset 13 (-1)", lambda p: gemm_model(p, [sm("logits", "y")], ["N", 3]),
         softmax(logits, 1), True),
        ("softmax default axis, opset 11 (1, coerced to 2-D)",
         lambda p: gemm_model(p, [sm("logits", "y")], ["N", 3], opset=11), softmax(logits, 1), True),
        ("reshape [N,3,1,1], softmax axis=1, flatten",
         lambda p: gemm_model(p, [helper.make_node("Reshape", ["logits", "shape4"], ["r"]), sm("r", "s", axis=1),
                                  helper.make_node("Flatten", ["s"], ["y"])], ["N", 3], extra_inits=[shape4]),
         softmax(logits, 1), True),
        ("softmax, identity, reshape to [N,3,1,1]",
         lambda p: gemm_model(p, [sm("logits", "s", axis=1), helper.make_node("Identity", ["s"], ["i"]),
                                  helper.make_node("Reshape", ["i", "shape4"], ["y"])], ["N", 3, 1, 1],
                              extra_inits=[shape4]),
         softmax(logits, 1).reshape(2, 3, 1, 1), True),
        ("logits (no softmax)", lambda p: gemm_model(p, [helper.make_node("Identity", ["logits"], ["y"])], ["N", 3]),
         logits, False),
        ("softmax across the batch (axis=0)", lambda p: gemm_model(p, [sm("logits", "y", axis=0)], ["N", 3]),
         softmax(logits, 0), False),
        ("softmax over a size-1 axis of [N,3,1,1]",
         lambda p: gemm_model(p, [helper.make_node("Reshape", ["logits", "shape4"], ["r"]), sm("r", "y", axis=3)],
                              ["N", 3, 1, 1], extra_inits=[shape4]),
         np.ones((2, 3, 1, 1), np.float32), False),
        ("log-softmax", lambda p: gemm_model(p, [helper.make_node("LogSoftmax", ["logits"], ["y"], axis=1)],
                                             ["N", 3]), np.log(softmax(logits, 1)), False),
        ("softmax times 2", lambda p: gemm_model(p, [sm("logits", "s", axis=1),
                                                     helper.make_node("Mul", ["s", "two"], ["y"])], ["N", 3],
                                                 extra_inits=[two]), 2 * softmax(logits, 1), False),
        ("softmax, reshape to [N*3] then [1, N*3] (rows change)",
         lambda p: gemm_model(p, [sm("logits", "s", axis=1),
                                  helper.make_node("Reshape", ["s", "flat"], ["y"])], [1, 6],
                              extra_inits=[numpy_helper.from_array(np.array([1, -1], np.int64), "flat")]),
         softmax(logits, 1).reshape(1, 6), False),
        ("PyTorch export, nn.Softmax(dim=1)", lambda p: torch_softmax_model(p, 0.5772),
         np.tile(np.array([0.5772, 0.4228], np.float32), (2, 1)), True),
    ], shape2


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def main():
    cnnx = sys.argv[1]
    tmp = tempfile.mkdtemp()
    x_path = os.path.join(tmp, "x.npy")
    np.save(x_path, X)
    table, _ = cases(tmp)
    passed = failed = 0
    for i, (what, build, expected, is_probability) in enumerate(table):
        model = os.path.join(tmp, f"model_{i}.onnx")
        build(model)
        save = os.path.join(tmp, f"out_{i}")
        r = run([cnnx, "run", model, x_path, "--json", "--save", save, "--top", "3"])
        problems = []
        if r.returncode != 0:
            problems.append(f"exit {r.returncode}: {r.stderr.strip()}")
        else:
            y = np.load(os.path.join(save, "y.npy"))
            if not np.allclose(y, expected, rtol=1e-5, atol=1e-6):
                problems.append(f"the model computes {y.ravel().tolist()}, numpy says {expected.ravel().tolist()}")
            rows = y.reshape(y.shape[0], -1)
            for n, top in enumerate(json.loads(r.stdout)["outputs"][0]["top"]):
                want = rows[n].astype(np.float64) if is_probability else softmax(rows[n].astype(np.float64), 0)
                for item in top:
                    c, p, s = item["class"], item["probability"], item["score"]
                    if np.float32(s) != rows[n, c]:
                        problems.append(f"row {n} class {c}: score {s}, the model's output is {rows[n, c]}")
                    if not (p == want[c] if is_probability else abs(p - want[c]) <= 1e-12 * max(1.0, want[c])):
                        problems.append(f"row {n} class {c}: probability {p}, expected {want[c]} "
                                        f"({'the model value' if is_probability else 'softmax of the scores'})")
            # The text output prints the same numbers.
            t = run([cnnx, "run", model, x_path, "--top", "3"])
            for n in range(rows.shape[0]):
                want = rows[n].astype(np.float64) if is_probability else softmax(rows[n].astype(np.float64), 0)
                for c in np.argsort(-rows[n], kind="stable")[:3]:
                    line = f"{want[c]:.4f}  class {c:4d}"
                    if line not in t.stdout:
                        problems.append(f"text output lacks '{line}':\n{t.stdout}")
        if problems:
            failed += 1
            print(f"FAIL {what} (already probabilities: {is_probability}): {model}\n  " + "\n  ".join(problems))
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
