#!/usr/bin/python3
"""What the Python module costs and what it scales to (issue 16's numbers), on one model:

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py overhead BUILD/cnnx MODEL [--rounds 5]
    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py threads MODEL [--seconds 5]
    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py dask MODEL IMAGE_DIR [--batch 16]

overhead  cnnx.Model.run in Python against `cnnx bench` (Model::run in C++) on the same model, batch 1, one
          thread per run, in alternating rounds; prints each round's medians and the median ratio.
threads   one Model (threads=1) run by one Python thread, then by two at once: runs per second and the ratio.
dask      cnnx.dask.classify on a local cluster of 1, then 2, single-threaded worker processes on the same
          files: images per second (cluster start excluded) and the ratio; the records must be identical.

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


def overhead(args):
    model = cnnx.Model(args.model, threads=1)
    feeds = feeds_for(model)
    ratios = []
    for r in range(args.rounds):
        out = subprocess.run([args.cnnx, "bench", args.model, "--threads", "1", "--iters", str(args.iters),
                              "--warmup", str(args.warmup), "--json"], check=True, capture_output=True, text=True)
        cpp = json.loads(out.stdout)["median_ms"]
        py = python_median_ms(model, feeds, args.iters, args.warmup)
        ratios.append(py / cpp)
        print(f"round {r + 1}: C++ Model::run {cpp:.3f} ms, Python Model.run {py:.3f} ms, ratio {py / cpp:.4f}")
    print(f"Python / C++: median of {args.rounds} rounds {statistics.median(ratios):.4f} "
          f"(min {min(ratios):.4f}, max {max(ratios):.4f})")


def runs_per_second(model, feeds, threads, seconds):
    counts = [0] * threads
    stop = time.perf_counter() + seconds

    def worker(i):
        while time.perf_counter() < stop:
            model.run(feeds)
            counts[i] += 1

    start = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return sum(counts) / (time.perf_counter() - start)


def threads(args):
    model = cnnx.Model(args.model, threads=1)
    feeds = feeds_for(model)
    python_median_ms(model, feeds, 3, 3)
    ratios = []
    for r in range(args.rounds):
        one = runs_per_second(model, feeds, 1, args.seconds)
        two = runs_per_second(model, feeds, 2, args.seconds)
        ratios.append(two / one)
        print(f"round {r + 1}: 1 thread {one:.1f} runs/s, 2 threads {two:.1f} runs/s, ratio {two / one:.3f}")
    print(f"2 threads / 1 thread: median of {args.rounds} rounds {statistics.median(ratios):.3f}")


def dask(args):
    import distributed
    import cnnx.dask
    files = cnnx.collect_files([args.images])
    results = {}
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as client:
            client.run(cnnx.dask._model, os.path.abspath(args.model))  # each worker loads the model first
            start = time.perf_counter()
            records = cnnx.dask.classify_json(files, os.path.abspath(args.model), client, args.batch)
            seconds = time.perf_counter() - start
        results[workers] = (len(files) / seconds, records)
        print(f"{workers} worker{'s' if workers > 1 else ''}: {len(files)} images in {seconds:.2f} s, "
              f"{len(files) / seconds:.1f} images/s")
    assert results[1][1] == results[2][1], "the records differ between the runs"
    print(f"2 workers / 1 worker: {results[2][0] / results[1][0]:.3f} (records identical)")


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
    args = p.parse_args()
    {"overhead": overhead, "threads": threads, "dask": dask}[args.command](args)


if __name__ == "__main__":
    main()
