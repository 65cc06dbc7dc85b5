"""float16 graphs against the same model stored in float32, by the sum of per-step minima: what a run costs
when no other job takes the core from it. On a shared machine the whole-run times of float16_ab.sh swing by
1.5x between rounds; a step's fastest time over many runs does not.

Per model: models/float16_convert.py's graph_io form (the whole graph in float16, float32 input and output);
per round, `cnnx bench FILE --profile --json` on the float32 file, the float16 graph, and (with --baseline) the
float16 graph with another build, in turn. Each step's minimum over every run of every round, summed per file.

Usage: python3 bench/float16_steps.py CNNX MODELS_DIR [--baseline OTHER_CNNX] [--rounds R] [--iters N]
                                      [--threads T] model ...
  e.g. python3 bench/float16_steps.py build/cnnx /tmp/zoo --baseline ../main/build/cnnx mobilenet_v2"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))


def step_minima(cnnx, path, threads, iters):
    out = subprocess.run([cnnx, "bench", path, "--threads", str(threads), "--iters", str(iters), "--warmup", "2",
                          "--profile", "--json"], check=True, capture_output=True, text=True).stdout
    return {s["name"]: s["min_ms"] for s in json.loads(out)["steps"]}


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("cnnx")
    a.add_argument("models_dir")
    a.add_argument("models", nargs="+")
    a.add_argument("--baseline")
    a.add_argument("--rounds", type=int, default=3)
    a.add_argument("--iters", type=int, default=20)
    a.add_argument("--threads", type=int, default=1)
    args = a.parse_args()
    print(f"load average at start: {open('/proc/loadavg').read().split()[:3]}", file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for m in args.models:
            f32 = os.path.join(args.models_dir, m, "model.onnx")
            f16 = os.path.join(work, m + "-graph_io.onnx")
            subprocess.run([sys.executable, os.path.join(here, "..", "models", "float16_convert.py"), "graph_io", f32,
                            f16], check=True)
            runs = [("f32", args.cnnx, f32), ("f16", args.cnnx, f16)] + \
                ([("base", args.baseline, f16)] if args.baseline else [])
            best = collections.defaultdict(dict)
            for _ in range(args.rounds):
                for kind, exe, path in runs:
                    for step, ms in step_minima(exe, path, args.threads, args.iters).items():
                        best[kind][step] = min(ms, best[kind].get(step, ms))
            rows.append((m, {k: sum(v.values()) for k, v in best.items()}))
    print(f"load average at end: {open('/proc/loadavg').read().split()[:3]}", file=sys.stderr)
    print(f"cnnx, {args.threads} thread(s), sum of per-step minima over {args.rounds} alternating rounds of "
          f"{args.iters} runs, ms (/ float32)\n")
    heads = ["float32", "f16 graph, f32 I/O"] + (["f16 graph, baseline"] if args.baseline else [])
    print("| model | " + " | ".join(heads) + " |\n|---|" + "---|" * len(heads))
    for m, t in rows:
        cells = [f"{t['f32']:.2f}"] + [f"{t[k]:.2f} ({t[k] / t['f32']:.2f})" for k in ("f16", "base") if k in t]
        print(f"| {m} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
