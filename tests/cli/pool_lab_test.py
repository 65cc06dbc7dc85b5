#!/usr/bin/env python3
"""The pooling lab from the command line: `cnnx pool gap` (every spelling, both backends, pass off and on, JSON and
SVG), `cnnx pool avg` (geometry, divisors, engines), bad --shape values (exit 1, 'cnnx: error: ...') and usage
errors (exit 2); load-time AveragePool warnings printed once by run / bench / check; `cnnx inspect` naming the
spelling the global-average-pool pass found and the kernel that runs it, and the next kernel with that one
disabled (--disable-kernel), which gives the same mean.
Usage: pool_lab_test.py CNNX"""
import json
import os
import subprocess
import sys
import tempfile
import xml.dom.minidom

import numpy as np
import onnx
from onnx import TensorProto, helper

FAILURES = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        FAILURES.append(what)


def cnnx(*args):
    return subprocess.run([CNNX, *args], capture_output=True, text=True)


def save_model(path, nodes, x_shape, opset=13, inits=(), extra_opsets=()):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph(nodes, "g", [x], [y], initializer=list(inits))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    model = helper.make_model(graph, opset_imports=opsets)
    model.ir_version = 8
    onnx.save(model, path)
    return path


def gap_lab(tmp):
    plot = os.path.join(tmp, "gap.svg")
    r = cnnx("pool", "gap", "--shape", "2,3,8,8", "--iters", "1", "--json", "--plot", plot,
             "--compare", "PyTorch mean=0.05")
    check(r.returncode == 0, f"pool gap --json exits 0 ({r.stderr.strip()})")
    if r.returncode:
        return
    j = json.loads(r.stdout)
    runs = j["runs"]
    check(len(runs) == 24, f"6 spellings x 2 backends x pass off/on = 24 runs (got {len(runs)})")
    check(all("error" not in run for run in runs), "no spelling fails")
    check(j["read_probe"]["median_ms"] > 0, "the read probe is timed")
    for run in runs:
        name = f"{run['spelling']} / {run['backend']} / pass {'on' if run['pass'] else 'off'}"
        if "AveragePool:dnnl" in run["kernels"] or "ReduceMean:dnnl" in run["kernels"]:  # oneDNN sums in float32
            check(run["max_abs_err"] <= 1e-5, f"{name}: max abs err {run['max_abs_err']:.2g} <= 1e-5")
        else:
            check(run["max_rel_err"] <= 1e-6, f"{name}: max rel err {run['max_rel_err']:.2g} <= 1e-6")
        if run["pass"]:
            want = "GlobalAveragePool:mean" if run["backend"] == "dnnl" else "GlobalAveragePool:ref"
            check(run["kernels"].startswith(want), f"{name}: runs {want} ({run['kernels']})")
    off = [r["kernels"] for r in runs if not r["pass"] and r["backend"] == "dnnl"]
    check(any("ReduceMean:dnnl" in k for k in off) and any("AveragePool:dnnl" in k for k in off),
          "with the pass off each spelling keeps its own kernel")
    check(j["compare"][0]["label"] == "PyTorch mean", "--compare rows are kept")
    svg = xml.dom.minidom.parse(plot)
    check(len(svg.getElementsByTagName("rect")) == 24 + 1 + 1, "the SVG has a bar per run and per --compare row")
    for shape, op in (("2,3,50", "adaptive_avg_pool1d"), ("1,2,3,4,5", "adaptive_avg_pool3d")):
        r = cnnx("pool", "gap", "--shape", shape, "--iters", "1", "--json", "--backend", "dnnl")
        runs = json.loads(r.stdout)["runs"] if r.returncode == 0 else []
        check(len(runs) == 12 and all(run["max_abs_err"] <= 1e-5 for run in runs),
              f"pool gap --shape {shape}: 12 dnnl runs, all close")
        check(any(op in run["spelling"] for run in runs), f"pool gap --shape {shape} spells {op}")
        check(all(run["kernels"].startswith("GlobalAveragePool:mean") for run in runs if run["pass"]),
              f"pool gap --shape {shape}: the pass makes every spelling run the mean kernel")
    r = cnnx("pool", "gap", "--shape", "1,2,4,4", "--iters", "1", "--backend", "ref")
    check(r.returncode == 0 and "read bandwidth probe" in r.stdout and "GlobalAveragePool:ref" in r.stdout,
          "pool gap prints a table")


def avg_lab():
    r = cnnx("pool", "avg", "--shape", "1,1,6,6", "--kernel", "3,3", "--strides", "2,2", "--pads", "1,1,1,1",
             "--ceil", "--count-include-pad", "--json")
    check(r.returncode == 0, f"pool avg --json exits 0 ({r.stderr.strip()})")
    if r.returncode:
        return
    j = json.loads(r.stdout)
    check(j["output_shape"] == [1, 1, 4, 4], "ceil_mode output 4x4")
    axis = j["axes"][0]
    check("ceil((6 + 1 + 1 - 3) / 2) + 1 = 4" in axis["formula"], f"formula shown: {axis['formula']}")
    check([w["divisor_factor"] for w in axis["windows"]] == [3, 3, 3, 2], "divisor factors 3 3 3 2 (last overhangs)")
    check([w["overhangs"] for w in axis["windows"]] == [False, False, False, True], "the last window overhangs")
    check([w["starts_in_padding"] for w in axis["windows"]] == [True, False, False, False],
          "the first window starts in the padding")
    check(j["engines"]["dnnl_backend_kernel"] == "ref" and "overhangs" in " ".join(j["engines"]["declined"]),
          "the dnnl backend declines oneDNN here and says why")
    check(j["engines"]["max_abs_diff_vs_ref"] == 0, "dnnl backend equals the reference")
    check(len(j["engines"]["onednn_include_padding_differs"]) == 2, "oneDNN's own divisor differs on both axes")
    check(j["pytorch"]["expressible"] and not j["pytorch"]["differences"], "PyTorch computes the same")
    check(any("count_include_pad=1" in w for w in j["warnings"]), "the ceil_mode + count_include_pad caution")

    r = cnnx("pool", "avg", "--shape", "1,1,7", "--kernel", "3", "--dilations", "2", "--auto-pad", "SAME_UPPER",
             "--json")
    j = json.loads(r.stdout) if r.returncode == 0 else {}
    check(j.get("output_shape") == [1, 1, 7], "SAME_UPPER with dilation keeps the size")
    check(not j.get("pytorch", {}).get("expressible", True), "no PyTorch equivalent for SAME + dilations")
    check(any("ONNX Runtime" in w for w in j.get("warnings", [])), "the SAME + dilations caution names ORT")

    r = cnnx("pool", "avg", "--shape", "1,1,5,5", "--kernel", "2,2", "--strides", "2,2", "--pads", "1,1,1,1", "--ceil")
    check(r.returncode == 0 and "minus the last window" in r.stdout and "divisor of every window" in r.stdout,
          "pool avg explains a dropped ceil_mode window")


def bad_inputs():
    errors = [
        (["pool", "gap", "--shape", "a,b,c"], "is not an integer"),
        (["pool", "gap", "--shape", "1,2"], "has 2 dims"),
        (["pool", "gap", "--shape", "2,0,4,4"], "dim 1 is 0"),
        (["pool", "gap", "--shape", "1,2,3,4,5,6"], "has 6 dims"),
        (["pool", "gap", "--shape", "4294967296,4294967296,4"], "overflows"),
        (["pool", "gap", "--shape", "99999999999999999999,1,1"], "out of range"),
        (["pool", "gap", "--shape", "1000000,1000,1000,1000"], "GB for the input alone"),
        (["pool", "gap", "--shape", "1,,2,2"], "is not an integer"),
        (["pool", "gap", "--shape", "1,2,4,4", "--compare", "nonsense"], "LABEL=MS"),
        (["pool", "avg", "--shape", "1,1,4,4", "--kernel", "3"], "expected 2 for 2 spatial dims"),
        (["pool", "avg", "--shape", "1,1,4,4", "--kernel", "5,5"], "larger than the padded input"),
        (["pool", "avg", "--shape", "1,1,4,4", "--kernel", "3,3", "--pads", "3,3,3,3"], "padding only"),
        (["pool", "avg", "--shape", "1,1,4,4", "--kernel", "2,2", "--strides", "0,1"], "is not a positive integer"),
    ]
    for args, want in errors:
        r = cnnx(*args)
        check(r.returncode == 1 and r.stderr.startswith("cnnx: error:") and want in r.stderr,
              f"{' '.join(args)}: exit 1 with '{want}' ({r.returncode}: {r.stderr.strip()})")
    for args in (["pool"], ["pool", "gap"], ["pool", "avg", "--shape", "1,1,4,4"],
                 ["pool", "avg", "--shape", "1,1,4,4", "--kernel", "2,2", "--auto-pad", "SAME"],
                 ["pool", "gap", "--shape", "1,1,4", "--iters", "0"]):
        r = cnnx(*args)
        check(r.returncode == 2, f"{' '.join(args)}: usage error, exit 2 (got {r.returncode})")


def warnings_and_inspect(tmp):
    x = np.random.default_rng(0).standard_normal((1, 2, 6, 6)).astype(np.float32)
    x_path = os.path.join(tmp, "x.npy")
    np.save(x_path, x)
    model = save_model(os.path.join(tmp, "ceil_cip.onnx"), [helper.make_node(
        "AveragePool", ["x"], ["y"], name="pool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
        ceil_mode=1, count_include_pad=1)], [1, 2, 6, 6], opset=19)
    for args in (["run", model, x_path], ["bench", model, "--iters", "1", "--warmup", "0"], ["check", model]):
        r = cnnx(*args)
        lines = [l for l in r.stderr.splitlines() if l.startswith("cnnx: warning:")]
        check(r.returncode == 0 and len(lines) == 1 and "node 'pool' (AveragePool): ceil_mode with count_include_pad"
              in lines[0], f"cnnx {args[0]} prints the AveragePool warning once on stderr ({r.stderr.strip()})")
    r = cnnx("inspect", model)
    check("warning: node 'pool' (AveragePool)" in r.stdout, "inspect lists the warning")

    axes = helper.make_tensor("axes", TensorProto.INT64, [2], [2, 3])
    size = helper.make_tensor("size", TensorProto.INT64, [2], [1, 1])
    spellings = [
        ("reducemean18", [helper.make_node("ReduceMean", ["x", "axes"], ["y"], keepdims=0)], 18, [axes], (),
         "{ReduceMean(axes input [2,3], keepdims=0)}"),
        ("averagepool", [helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[6, 6])], 13, [], (),
         "{AveragePool(kernel_shape=[6,6])}"),
        ("adaptive", [helper.make_node("adaptive_avg_pool2d", ["x", "size"], ["y"], domain="org.pytorch.aten")], 13,
         [size], [("org.pytorch.aten", 1)], "{adaptive_avg_pool2d(output_size=[1,1])}"),
    ]
    for name, nodes, opset, inits, extra, note in spellings:
        path = save_model(os.path.join(tmp, name + ".onnx"), nodes, [1, 2, 6, 6], opset, inits, extra)
        r = cnnx("inspect", path)
        line = next((l for l in r.stdout.splitlines() if "GlobalAveragePool" in l and "kernel" in l), "")
        check("kernel mean" in line and note in line, f"inspect {name}: '{line.strip()}'")
        r = cnnx("inspect", path, "--disable-pass", "global-average-pool")
        check("GlobalAveragePool" not in r.stdout.split("plan (")[-1], f"inspect {name} with the pass off")
        off = ["--disable-kernel", "GlobalAveragePool:mean"]
        r = cnnx("inspect", path, *off)
        line = next((l for l in r.stdout.splitlines() if "GlobalAveragePool" in l and "kernel" in l), "")
        check("kernel dnnl" in line and "[declined mean: disabled (--disable-kernel GlobalAveragePool:mean)]" in line,
              f"inspect {name} with the mean kernel off: '{line.strip()}'")
        for extra in ([], off):
            out = os.path.join(tmp, name + ("-dnnl" if extra else ""))
            r = cnnx("run", path, x_path, "--save", out, *extra)
            got = np.load(os.path.join(out, "y.npy")) if r.returncode == 0 else None
            check(got is not None and np.allclose(got.reshape(-1), x.mean(axis=(2, 3)).reshape(-1), rtol=1e-6, atol=0),
                  f"run {name} {' '.join(extra)} gives the mean")
    any_model = path
    for bad, says in (("nope", "unknown kernel 'nope' (known: "), ("GlobalAveragePool:ref", "cannot be disabled"),
                      ("GlobalAveragePool:channels-last", "op GlobalAveragePool has no kernel 'channels-last'")):
        r = cnnx("inspect", any_model, "--disable-kernel", bad)
        check(r.returncode == 1 and r.stderr.startswith("cnnx: error: ") and says in r.stderr,
              f"--disable-kernel {bad}: exit {r.returncode}, '{r.stderr.strip()}'")


def main():
    global CNNX
    CNNX = sys.argv[1]
    tmp = tempfile.mkdtemp()
    gap_lab(tmp)
    avg_lab()
    bad_inputs()
    warnings_and_inspect(tmp)
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
