#!/usr/bin/env python3
"""`cnnx bench` keeps the contract other tools parse (DESIGN.md): --json prints one object with median_ms, min_ms,
p90_ms, load_ms, first_run_ms and peak_rss_mb, ordered as statistics of one sample; --batch and --shape set the
input shape; --profile --json adds every plan step (op, name, kernel, ms) in plan order and profile_run_ms; bad options exit non-zero
with a message. run_threads counts the timed runs by team (--threads N: all N; --callers K: K x iters runs, and
runs_per_s); omp_waiting shows libgomp's spin count and wait policy (3000 spins unless the user set either);
with --proc-masked: where /proc cannot be read (masked in a mount namespace; skipped where none can
be made) every run uses the whole team. Usage: bench_contract_test.py CNNX MODEL [--proc-masked]"""
import json
import os
from math import prod
import subprocess
import sys

import onnx

failures = []
passes = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    (passes if ok else failures).append(what)


def bench(*args, iters=20, env=None):
    return subprocess.run([CNNX, "bench", MODEL, "--iters", str(iters), "--warmup", "1", *args], capture_output=True,
                          text=True, timeout=300, env=env)


def bench_json(*args, iters=20, env=None):
    r = bench("--json", *args, iters=iters, env=env)
    check(r.returncode == 0, f"bench --json {' '.join(args)} exits 0" + (f" (stderr: {r.stderr.strip()[-300:]})" if r.returncode else ""))
    lines = r.stdout.strip().splitlines()
    check(len(lines) == 1, f"bench --json {' '.join(args)} prints one line, got {len(lines)}")
    return json.loads(lines[0]) if lines else {}


def work(path):
    """FLOP of one batch-1 run of the model's Conv and Gemm nodes, and its weight bytes once BatchNormalization
    is folded into the convolutions (this model: Conv without bias -> BatchNormalization)."""
    model = onnx.shape_inference.infer_shapes(onnx.load(path))
    inits = {i.name: list(i.dims) for i in model.graph.initializer}
    shapes = {v.name: [d.dim_value or 1 for d in v.type.tensor_type.shape.dim]  # the batch dim_param: 1
              for v in list(model.graph.value_info) + list(model.graph.output) + list(model.graph.input)}
    flop = weight_floats = 0
    for n in model.graph.node:
        if n.op_type == "Conv":
            m, c_per_group, *kernel = inits[n.input[1]]
            flop += 2 * prod(shapes[n.output[0]]) * c_per_group * prod(kernel)
            weight_floats += prod(inits[n.input[1]]) + m
        elif n.op_type == "Gemm":
            out, k = inits[n.input[1]]  # transB = 1
            flop += 2 * shapes[n.input[0]][0] * out * k
            weight_floats += out * k + out
    return flop, 4 * weight_floats


def main():
    graph = onnx.load(MODEL).graph
    input_name = graph.input[0].name

    j = bench_json()
    for key in ("median_ms", "min_ms", "p90_ms", "load_ms", "first_run_ms", "peak_rss_mb"):
        check(isinstance(j.get(key), (int, float)) and j[key] > 0, f"{key} is a positive number: {j.get(key)}")
    check(j["min_ms"] <= j["median_ms"] <= j["p90_ms"] <= j["max_ms"],
          f"min <= median <= p90 <= max: {j['min_ms']} {j['median_ms']} {j['p90_ms']} {j['max_ms']}")
    check(j["iters"] == 20, f"iters echoed: {j['iters']}")
    check(j["inputs"][input_name][0] == 1, f"batch 1 by default: {j['inputs']}")
    check("steps" not in j, "no steps without --profile")

    # libgomp's waiting (tools/omp_waiting.cc): 3000 spins unless the user set the spin count or the policy.
    quiet = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    for extra, want in (({}, {"GOMP_SPINCOUNT": "3000", "OMP_WAIT_POLICY": None}),
                        ({"GOMP_SPINCOUNT": "50"}, {"GOMP_SPINCOUNT": "50", "OMP_WAIT_POLICY": None}),
                        ({"OMP_WAIT_POLICY": "active"}, {"GOMP_SPINCOUNT": None, "OMP_WAIT_POLICY": "active"})):
        got = bench_json(iters=3, env={**quiet, **extra}).get("omp_waiting")
        check(got == want, f"omp_waiting with {extra or 'neither set'}: {got}, want {want}")

    j = bench_json("--batch", "3")
    check(j["inputs"][input_name][0] == 3, f"--batch 3 sets the unknown batch dim: {j['inputs']}")
    check(j["disabled_passes"] == [] and j["disabled_kernels"] == [], f"nothing disabled by default: {j}")

    j = bench_json("--disable-pass", "fuse-conv", "--disable-kernel", "Conv:dnnl", "--disable-kernel", "mean")
    check(j["disabled_passes"] == ["fuse-conv"] and j["disabled_kernels"] == ["Conv:dnnl", "mean"],
          f"the record names what it planned without: {j['disabled_passes']} {j['disabled_kernels']}")

    # The work: 2 FLOP per multiply-add of the Conv and Gemm nodes (the count from the model's own shapes), and
    # the bytes of the weights the plan reads (each BatchNormalization folded into its convolution's weights
    # and a new bias of M floats).
    flop, weight_bytes = work(MODEL)
    for batch in (1, 3):
        j = bench_json("--batch", str(batch))
        check(abs(j["gflop"] * 1e9 - batch * flop) < 1e-6 * flop, f"gflop at batch {batch}: {j['gflop']} vs {batch * flop / 1e9}")
        check(abs(j["weight_mb"] * 1e6 - weight_bytes) < 0.5, f"weight_mb at batch {batch}: {j['weight_mb']} vs {weight_bytes / 1e6}")
    j = bench_json("--shape", f"{input_name}=2,3,64,64")
    check(j["inputs"][input_name] == [2, 3, 64, 64], f"--shape sets the input shape: {j['inputs']}")

    # 200 runs: see the last check.
    j = bench_json("--profile", iters=200)
    steps = j.get("steps", [])
    node_names = {n.name for n in graph.node}
    value_names = {v.name for v in graph.input} | {o for n in graph.node for o in n.output}
    check(len(steps) > 0, f"--profile --json lists steps: {len(steps)}")
    for s in steps:
        named = s["name"] in (value_names if s["op"] == "(reorder)" else node_names)
        check(named and s["kernel"] and s["ms"] >= 0, f"step names a model node or value, a kernel, ms >= 0: {s}")
        # The minimum of the runs is at most their median and their mean.
        check(0 <= s["min_ms"] <= s["median_ms"] and s["min_ms"] <= s["ms"] * (1 + 1e-9),
              f"step's min_ms <= median_ms and min_ms <= ms: {s}")
    convs = [s for s in steps if s["op"] in ("Conv", "FusedConv")]
    check(len(convs) == sum(n.op_type == "Conv" for n in graph.node), f"one step per Conv: {len(convs)}")
    # Each step's time is a mean per run, so together they are at most the profiled runs' mean wall time (they are
    # timed inside those runs); a sum over all 200 runs would be ~200 times that. No timing bound: this holds
    # however loaded the machine is.
    total = sum(s["ms"] for s in steps)
    run_ms = j.get("profile_run_ms", 0)
    check(0 < total <= run_ms * (1 + 1e-9),
          f"steps add up to at most one profiled run (a sum over all 200 would be ~200 runs): {total} vs {run_ms}")

    teams = bench_json()["run_threads"]
    check(all(k.isdigit() and int(k) >= 1 for k in teams) and sum(teams.values()) == 20,
          f"run_threads counts the 20 timed runs by team size: {teams}")
    j = bench_json("--threads", "1")
    check(j["run_threads"] == {"1": 20}, f"--threads 1 pins the team: {j['run_threads']}")
    j = bench_json("--callers", "3", iters=10)
    check(sum(j["run_threads"].values()) == 30 and j["callers"] == 3 and j["runs_per_s"] > 0,
          f"--callers 3 --iters 10: 30 timed runs and a rate: {j['run_threads']} {j.get('runs_per_s')}")

    for args, want in ((["--shape", "nope=1,3,64,64"], "no input named 'nope'"), (["--iters", "0"], "--iters"),
                       (["--backend", "gpu"], "--backend")):
        r = bench(*args)
        check(r.returncode != 0 and want in r.stderr, f"bench {' '.join(args)}: exit {r.returncode}, names {want!r}: "
              f"{r.stderr.strip()[:200]}")

    print(f"{len(passes)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


SKIPPED = 77  # ctest's SKIP_RETURN_CODE for this test (tests/CMakeLists.txt)


def proc_masked():
    """No /proc: no contention signal, so every run uses the whole team (OpenMP's default: the usable cores).
    Needs a mount namespace (root, or unprivileged user namespaces): exits SKIPPED where none can be made."""
    masked = subprocess.run(["unshare", "-m", "sh", "-c", 'mount -t tmpfs none /proc && exec "$@"', "sh", CNNX, "bench",
                             MODEL, "--iters", "10", "--warmup", "1", "--json"], capture_output=True, text=True, timeout=300)
    if masked.returncode != 0 and not masked.stdout:
        print(f"skipped: cannot make a mount namespace here ({masked.stderr.strip()[:120]})")
        sys.exit(SKIPPED)
    wide = str(len(os.sched_getaffinity(0)))
    teams = json.loads(masked.stdout)["run_threads"]
    check(teams == {wide: 10}, f"with /proc masked every run uses the whole team ({wide}): {teams}")
    print(f"{len(passes)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    CNNX, MODEL = sys.argv[1:3]
    proc_masked() if sys.argv[3:] == ["--proc-masked"] else main()
