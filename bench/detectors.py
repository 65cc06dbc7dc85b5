#!/usr/bin/env python3
"""Detectors, a CRNN and the per-iteration cost of Loop: cnnx against ONNX Runtime in one run, alternating rounds.

Usage: bench/detectors.py BUILD_DIR ORT_NODE_MODULES WORK_DIR [--rounds R] [--threads 1,2] [--iters N]
                          [--models ssdlite320_mobilenet_v3_large,...] [--classes K] [--no-loop]

Models are exported into WORK_DIR once (models/export_detectors.py: seeded random weights, K classes, the
image it writes; the CRNN of tests/python/test_rnn.py on a [1, 1, 32, 256] line; Loops of M = 1, 10, 100, 1000
iterations of `acc = acc * 0.5 + x[i]` over x [M, 256], a scripted `for` planned once; and tests/python/
test_control_flow.py's Grow over x [M, 4], M = 10, 100, 400, whose carried value grows by a Concat per iteration
and runs node by node in the plan's tail). Each round times, per thread count,
cnnx (the Python module, the same input array, `iters` runs after one warm-up) and then ONNX Runtime
(../shared/peers/ort_bench.js, same input, graph optimizations on): medians of each round's median, and the ratio
cnnx / ORT. The Loop's cost per iteration is the slope of median time over M (least squares), beside the same
for ORT. Prints one table; the load average is printed per round (a loaded machine moves both engines)."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
PEERS = os.environ.get("PEERS", os.path.join(SOURCE, "..", "shared", "peers"))


def export_all(build, work, models, classes, loop):
    import torch
    sys.path.insert(0, os.path.join(build, "python"))  # test_rnn.py imports cnnx
    sys.path.insert(0, os.path.join(SOURCE, "models"))
    sys.path.insert(0, os.path.join(SOURCE, "tests", "python"))
    import export_detectors as E
    out = []
    sizes = {"ssdlite320_mobilenet_v3_large": 320, "fasterrcnn_mobilenet_v3_large_320_fpn": 320, "ssd300_vgg16": 300}
    for name in models:
        size = sizes.get(name, 320)
        path, inp = os.path.join(work, f"{name}.onnx"), os.path.join(work, f"{name}.npy")
        if not os.path.exists(path):
            model = E.build(name, classes, size)
            x = E.image(size)
            E.export(model, x, path, 13)
            np.save(inp, x.numpy())
        out.append((name, path, inp))
    path, inp = os.path.join(work, "crnn.onnx"), os.path.join(work, "crnn.npy")
    if not os.path.exists(path):
        from test_rnn import CRNN
        torch.manual_seed(5)
        x = np.random.default_rng(6).standard_normal((1, 1, 32, 256)).astype(np.float32)
        m = CRNN(classes=37, hidden=128).eval()
        m.cnn[-1] = torch.nn.MaxPool2d((8, 1))  # a 32-row line down to one row
        torch.onnx.export(m, (torch.from_numpy(x),), path, opset_version=14, input_names=["x"], output_names=["y"])
        np.save(inp, x)
    out.append(("crnn_2x_bilstm128", path, inp))
    if loop:
        # Decay: acc = acc * 0.5 + x[i] over the rows of x [M, 256] (a planned Loop). Grow: Mask R-CNN's paste
        # loop in small, a carried [i, 4] grown by a Concat per row (a Loop run node by node in the plan's tail).
        from test_control_flow import Decay, Grow
        for family, module, counts, width in (("loop", Decay, (1, 10, 100, 1000), 256), ("grow", Grow, (10, 100, 400), 4)):
            for m in counts:
                path, inp = os.path.join(work, f"{family}_{m}.onnx"), os.path.join(work, f"{family}_{m}.npy")
                if not os.path.exists(path):
                    x = np.random.default_rng(m).standard_normal((m, width)).astype(np.float32)
                    torch.onnx.export(torch.jit.script(module()), (torch.from_numpy(x),), path, opset_version=14,
                                      input_names=["x"], output_names=["y"])
                    np.save(inp, x)
                out.append((f"{family}_{m}", path, inp))
    return out


def time_cnnx(build, path, inp, threads, iters):
    code = f"""
import sys, time, json, numpy as np
sys.path.insert(0, {os.path.join(build, 'python')!r})
import cnnx
m = cnnx.Model({path!r}, threads={threads})
x = np.load({inp!r}); feeds = {{m.inputs[0].name: x}}
t0 = time.perf_counter(); m.run(feeds); first = (time.perf_counter() - t0) * 1e3
ts = []
for _ in range({iters}):
    t = time.perf_counter(); m.run(feeds); ts.append((time.perf_counter() - t) * 1e3)
ts.sort(); print(json.dumps({{"median_ms": ts[len(ts) // 2], "first_run_ms": first}}))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def time_ort(ort, path, inp, threads, iters):
    env = dict(os.environ, NODE_PATH=ort)
    r = subprocess.run(["node", os.path.join(PEERS, "ort_bench.js"), path, inp, str(threads), str(iters)],
                       capture_output=True, text=True, check=True, env=env)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("ort")
    ap.add_argument("work")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--models", default="ssdlite320_mobilenet_v3_large,fasterrcnn_mobilenet_v3_large_320_fpn")
    ap.add_argument("--classes", type=int, default=4)
    ap.add_argument("--no-loop", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    a.build = os.path.abspath(a.build)
    models = export_all(a.build, a.work, [m for m in a.models.split(",") if m], a.classes, not a.no_loop)
    threads = [int(t) for t in a.threads.split(",")]
    times = {}
    for r in range(a.rounds):
        print(f"round {r + 1} of {a.rounds} (load average {open('/proc/loadavg').read().split()[0]})", file=sys.stderr)
        for name, path, inp in models:
            for t in threads:
                iters = 3 * a.iters if name.startswith(("loop_", "grow_")) else a.iters
                times.setdefault((name, t, "cnnx"), []).append(time_cnnx(a.build, path, inp, t, iters))
                times.setdefault((name, t, "ort"), []).append(time_ort(a.ort, path, inp, t, iters))
    med = lambda name, t, e, k="median_ms": statistics.median(x[k] for x in times[(name, t, e)])
    # The instruction set oneDNN dispatches here, as `cnnx bench --json` reports it.
    isa = json.loads(subprocess.run([os.path.join(a.build, "cnnx"), "bench", models[0][1], "--iters", "1", "--json"],
                                    capture_output=True, text=True, check=True).stdout)["isa"]
    print(f"isa {isa} (this machine), {a.rounds} rounds alternating, load average now "
          f"{open('/proc/loadavg').read().split()[0]}")
    print(f"{'model':42s} {'thr':>3s} {'cnnx ms':>9s} {'ORT ms':>9s} {'ratio':>6s} {'cnnx 1st':>9s} {'ORT 1st':>9s}")
    for name, _, _ in models:
        for t in threads:
            c, o = med(name, t, "cnnx"), med(name, t, "ort")
            print(f"{name:42s} {t:3d} {c:9.2f} {o:9.2f} {c / o:6.2f} {med(name, t, 'cnnx', 'first_run_ms'):9.1f} "
                  f"{med(name, t, 'ort', 'first_run_ms'):9.1f}")
    for family in ("loop", "grow"):
        loops = [(int(n.split("_")[1]), n) for n, _, _ in models if n.startswith(family + "_")]
        if not loops:
            continue
        for t in threads:
            for e in ("cnnx", "ort"):
                ms = np.array([med(n, t, e) for _, n in loops])
                m = np.array([m for m, _ in loops], float)
                slope, icpt = np.polyfit(m, ms, 1)
                print(f"{family} per iteration ({e}, {t} thr): {slope * 1e3:.2f} us (+ {icpt * 1e3:.0f} us fixed); "
                      + ", ".join(f"M={int(mm)}: {v:.3f} ms" for mm, v in zip(m, ms)))

if __name__ == "__main__":
    main()
