#!/usr/bin/python3
"""One op's steps in two cnnx builds (a kernel's before and after), in the models that use it.

Usage: bench/op_ab.py OLD_CNNX NEW_CNNX MODELS_DIR OP THREADS ROUNDS ITERS model ...

Alternating rounds of `cnnx bench MODELS_DIR/model/model.onnx --threads THREADS --iters ITERS --profile --json`
with each build; per model, the summed min_ms and median_ms of the steps whose op is OP (each the median over
the rounds) and the whole run's median. On a loaded machine the minima of short steps say the most: a whole
run of a small model is measured by the scheduler (bench/README.md).
"""
import json, statistics, subprocess, sys
if len(sys.argv) < 9:
    sys.exit(__doc__)
old, new, d, op, threads, rounds, iters = sys.argv[1:8]
models = sys.argv[8:]
res = {}
for r in range(int(rounds)):
    for m in models:
        for tag, b in (("old", old), ("new", new)):
            j = json.loads(subprocess.run([b, "bench", f"{d}/{m}/model.onnx", "--threads", threads, "--iters", iters,
                                           "--profile", "--json"], check=True, capture_output=True, text=True).stdout)
            st = [s for s in j["steps"] if s["op"] == op]
            res.setdefault((m, tag), []).append((sum(s["min_ms"] for s in st), sum(s["median_ms"] for s in st),
                                                 j["median_ms"], len(st)))
print(f"{op}, {threads} thread(s), {rounds} alternating rounds x {iters} profiled runs; load {open('/proc/loadavg').read().split()[0]}")
print("| model | steps | old min | new min | new/old | old median | new median | new/old | run old | run new |")
print("|---|---|---|---|---|---|---|---|---|---|")
for m in models:
    o, n = res[(m, "old")], res[(m, "new")]
    f = lambda rows, i: statistics.median(x[i] for x in rows)
    print(f"| {m} | {o[0][3]} | {f(o,0):.3f} | {f(n,0):.3f} | {f(n,0)/f(o,0):.2f} | {f(o,1):.3f} | {f(n,1):.3f} | "
          f"{f(n,1)/f(o,1):.2f} | {f(o,2):.2f} | {f(n,2):.2f} |")
