#!/usr/bin/python3
"""The share of each model's run spent in reference kernels, from `cnnx bench --profile --json`.

Usage: bench/ref_share.py CNNX MODELS_DIR [--threads T] [--batch B] [--iters N] [model ...]
  MODELS_DIR holds NAME/model.onnx; the default models are every folder in it.

Per model, one profiled run (`cnnx bench MODEL --threads T --batch B --iters N --profile --json`): the steps
whose kernel is "ref" (the reference kernels, the oracle that must not be a user's fallback), their summed
median ms against every step's, and which ops they are. Issue 31 wants every zoo model below 5%. Views and
joins that move no data show as 0 ms steps, whatever their kernel.
"""
import json
import os
import subprocess
import sys


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    cnnx, models_dir = args[:2]
    opts = {"--threads": "1", "--batch": "1", "--iters": "20"}
    models = []
    rest = args[2:]
    while rest:
        if rest[0] in opts and len(rest) > 1:
            opts[rest[0]] = rest[1]
            rest = rest[2:]
        elif rest[0].startswith("-"):
            sys.exit(__doc__)
        else:
            models.append(rest.pop(0))
    if not models:
        models = sorted(m for m in os.listdir(models_dir) if os.path.isfile(os.path.join(models_dir, m, "model.onnx")))
    print(f"threads {opts['--threads']}, batch {opts['--batch']}, {opts['--iters']} profiled runs; "
          f"median ms per step; load average {open('/proc/loadavg').read().split()[0]}")
    print("\n| model | isa | steps ms | ref steps | ref ms | ref share | ref ops |\n|---|---|---|---|---|---|---|")
    for m in models:
        cmd = [cnnx, "bench", os.path.join(models_dir, m, "model.onnx"), "--profile", "--json", "--warmup", "2"]
        for k, v in opts.items():
            cmd += [k, v]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        j = json.loads(out)
        steps = j["steps"]
        total = sum(s["median_ms"] for s in steps)
        ref = [s for s in steps if s["kernel"] == "ref"]
        ref_ms = sum(s["median_ms"] for s in ref)
        ops = {}
        for s in ref:
            ops[s["op"]] = ops.get(s["op"], 0) + 1
        what = ", ".join(f"{op} x{n}" for op, n in sorted(ops.items())) or "-"
        print(f"| {m} | {j.get('isa', '?')} | {total:.2f} | {len(ref)} | {ref_ms:.3f} | "
              f"{100 * ref_ms / total if total else 0:.2f}% | {what} |", flush=True)


if __name__ == "__main__":
    main()
