#!/usr/bin/python3
"""What the Python module costs and what it scales to (issue 16's numbers), on one model:

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py overhead BUILD/cnnx MODEL [--rounds 5]
    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py threads MODEL [--seconds 5]
    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py dask MODEL IMAGE_DIR [--batch 16]
    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py images IMAGE_DIR [--count 96]  # for `dask`

overhead  cnnx.Model.run in Python against `cnnx bench` (Model::run in C++) on the same model, batch 1, one
          thread per run, in alternating rounds; prints each round's medians and the median ratio.
threads   one Model (threads=1) run by one Python thread, then by two at once: runs per second and the ratio,
          with the process's CPU use and CPU time per run (on a busy machine the ratio is capped by the CPU
          the process gets; 2 / the CPU-per-run ratio is what two free cores give) and the share of the time
          both threads were inside a run (0 if runs were serialized).
dask      cnnx.dask.classify on local clusters of 1 and of 2 single-threaded worker processes (the model
          loaded in each first), in alternating rounds on the same files: images per second and the ratio;
          the records must be identical.

The machines here are shared: quote ratios measured in one run, not absolute times.
"""
import argparse
import json
import os
import statistics
import subprocess
import threading
import time

import numpy as np

import cnnx


def feeds_for(model, batch=1, seed=0):
    rng = np.random.default_rng(seed)
    feeds = {}
    for spec in model.inputs:
        shape = [batch if not isinstance(d, int) else d for d in spec.shape]
        feeds[spec.name] = rng.uniform(-1, 1, shape).astype(spec.dtype)
    return feeds


def python_median_ms(model, feeds, iters, warmup):
    for _ in range(warmup):
        model.run(feeds)
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        model.run(feeds)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def cpp_median_ms(cnnx_tool, model_path, iters, warmup):
    out = subprocess.run([cnnx_tool, "bench", model_path, "--threads", "1", "--iters", str(iters),
                          "--warmup", str(warmup), "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["median_ms"]


def passthrough_model(path, model):
    """A model that does almost nothing with `model`'s input and output shapes (Flatten, then a Slice as large
    as the output), so that timing it measures what a run costs around the kernels."""
    import onnx
    import onnx.helper as oh
    (x,), (y,) = model.inputs, model.outputs
    n = int(np.prod(y.shape))
    starts, ends, axes = (oh.make_tensor(name, onnx.TensorProto.INT64, [1], [v])
                          for name, v in (("starts", 0), ("ends", n), ("axes", 1)))
    graph = oh.make_graph(
        [oh.make_node("Flatten", ["x"], ["flat"]), oh.make_node("Slice", ["flat", "starts", "ends", "axes"], ["y"])],
        "passthrough", [oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, x.shape)],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [x.shape[0], n])], [starts, ends, axes])
    onnx.save(oh.make_model(graph, opset_imports=[oh.make_opsetid("", 13)]), path)
    return path


def overhead(args):
    model = cnnx.Model(args.model, threads=1)
    feeds = feeds_for(model)
    ratios, cpp_times = [], []
    for r in range(args.rounds):
        cpp = cpp_median_ms(args.cnnx, args.model, args.iters, args.warmup)
        py = python_median_ms(model, feeds, args.iters, args.warmup)
        ratios.append(py / cpp)
        cpp_times.append(cpp)
        print(f"round {r + 1}: C++ Model::run {cpp:.3f} ms, Python Model.run {py:.3f} ms, ratio {py / cpp:.4f}")
    print(f"Python / C++ on the model: median of {args.rounds} rounds {statistics.median(ratios):.4f} "
          f"(min {min(ratios):.4f}, max {max(ratios):.4f})")
    # What Python adds to a run, measured where the kernels cost next to nothing (same input and output
    # sizes), then taken as a share of the model's C++ time.
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = passthrough_model(os.path.join(tmp, "passthrough.onnx"), model)
        small = cnnx.Model(path, threads=1)
        added = []
        for r in range(args.rounds):
            cpp = cpp_median_ms(args.cnnx, path, 20 * args.iters, args.warmup)
            py = python_median_ms(small, {"x": feeds[model.inputs[0].name]}, 20 * args.iters, args.warmup)
            added.append((py - cpp) * 1e3)
            print(f"round {r + 1}: pass-through model: C++ {cpp * 1e3:.1f} us, Python {py * 1e3:.1f} us")
    us = statistics.median(added)
    print(f"Python adds {us:.1f} us per run (median of {args.rounds} rounds), "
          f"{us / 10 / statistics.median(cpp_times):.2f}% of the model's C++ run")


def overlap(intervals):
    """The share of the time from the first start to the last end during which two runs were under way."""
    events = sorted([(a, 1) for a, _ in intervals] + [(b, -1) for _, b in intervals])
    inside, both, last = 0, 0.0, events[0][0]
    for t, step in events:
        if inside >= 2:
            both += t - last
        inside, last = inside + step, t
    return both / (events[-1][0] - events[0][0])


def runs_per_second(model, feeds, threads, seconds):
    """Runs per second, the process's CPU seconds per wall second and per run, and the share of the time two
    runs were under way at once."""
    intervals = [[] for _ in range(threads)]
    stop = time.perf_counter() + seconds

    def worker(i):
        while time.perf_counter() < stop:
            start = time.perf_counter()
            model.run(feeds)
            intervals[i].append((start, time.perf_counter()))

    start, cpu = time.perf_counter(), time.process_time()
    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    runs = sum(len(i) for i in intervals)
    return runs / wall, cpu / wall, cpu / runs * 1e3, overlap([r for i in intervals for r in i])


def threads(args):
    model = cnnx.Model(args.model, threads=1)
    feeds = feeds_for(model)
    python_median_ms(model, feeds, 3, 3)
    ratios, cost = [], []
    for r in range(args.rounds):
        one, cpu1, ms1, _ = runs_per_second(model, feeds, 1, args.seconds)
        two, cpu2, ms2, both = runs_per_second(model, feeds, 2, args.seconds)
        ratios.append(two / one)
        cost.append(ms2 / ms1)
        print(f"round {r + 1}: 1 thread {one:.1f} runs/s ({cpu1:.2f} CPU, {ms1:.2f} CPU ms/run), 2 threads "
              f"{two:.1f} runs/s ({cpu2:.2f} CPU, {ms2:.2f} CPU ms/run, both running {100 * both:.0f}% of the "
              f"time), ratio {two / one:.3f}")
    print(f"2 threads / 1 thread: median of {args.rounds} rounds {statistics.median(ratios):.3f}; CPU per run "
          f"2 threads / 1 thread {statistics.median(cost):.3f} (the ratio two free cores give: "
          f"{2 / statistics.median(cost):.2f})")


def dask(args):
    import contextlib
    import distributed
    import cnnx.dask
    files = cnnx.collect_files([args.images])
    model_path = os.path.abspath(args.model)
    with contextlib.ExitStack() as stack:
        clients = {}
        for workers in (1, 2):
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"))
            clients[workers] = stack.enter_context(distributed.Client(cluster))
            cnnx.dask.preload(clients[workers], model_path)
        ratios, records = [], set()
        for r in range(args.rounds):  # alternating, so both see the same machine
            rate = {}
            for workers, client in clients.items():
                start = time.perf_counter()
                records.add(tuple(cnnx.dask.classify_json(files, model_path, client, args.batch)))
                rate[workers] = len(files) / (time.perf_counter() - start)
            ratios.append(rate[2] / rate[1])
            print(f"round {r + 1}: {len(files)} images, 1 worker {rate[1]:.1f} images/s, 2 workers "
                  f"{rate[2]:.1f} images/s, ratio {ratios[-1]:.3f}")
    assert len(records) == 1, "the records differ between runs"
    print(f"2 workers / 1 worker: median of {args.rounds} rounds {statistics.median(ratios):.3f} "
          f"(min {min(ratios):.3f}, max {max(ratios):.3f}); records identical in every run")


def images(args):
    from PIL import Image
    rng = np.random.default_rng(0)
    os.makedirs(args.dir, exist_ok=True)
    for i in range(args.count):  # smooth colour fields, photo-sized
        small = Image.fromarray(rng.integers(0, 255, (26, 34, 3), np.uint8))
        small.resize((500, 375), Image.BILINEAR).save(os.path.join(args.dir, f"img_{i:03d}.jpg"), quality=90)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    o = sub.add_parser("overhead")
    o.add_argument("cnnx", help="the cnnx program")
    o.add_argument("model")
    o.add_argument("--rounds", type=int, default=5)
    o.add_argument("--iters", type=int, default=100)
    o.add_argument("--warmup", type=int, default=10)
    t = sub.add_parser("threads")
    t.add_argument("model")
    t.add_argument("--rounds", type=int, default=3)
    t.add_argument("--seconds", type=float, default=5)
    d = sub.add_parser("dask")
    d.add_argument("model")
    d.add_argument("images", help="a folder of images")
    d.add_argument("--batch", type=int, default=16)
    d.add_argument("--rounds", type=int, default=5)
    i = sub.add_parser("images")
    i.add_argument("dir")
    i.add_argument("--count", type=int, default=96)
    args = p.parse_args()
    {"overhead": overhead, "threads": threads, "dask": dask, "images": images}[args.command](args)


if __name__ == "__main__":
    main()
