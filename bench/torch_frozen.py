#!/usr/bin/python3
"""PyTorch's TorchScript-frozen path for bench/zoo.sh: the same network and weights as the ONNX export, at the
thread counts and batch sizes zoo.sh asks for, in one process. (../shared/peers/torch_bench.py times batch 1
only, eager too, and builds the model inside the timing; this is the copy zoo.sh needs, not an edit of it.)

    torch_frozen.py prepare NAME FILE.pt      once per model, untimed: models/export_torchvision.py's network with
                                              its seeded weights (calibrated BatchNorm), traced at batch 1 and
                                              frozen (torch.jit.freeze), saved
    torch_frozen.py time FILE.pt INPUT.npy CONFIGS ITERS
        CONFIGS: THREADSxBATCH,... (2x1,1x1,2x8); ITERS: timed runs per config, one number each (20,10,4).
        Load + first run: torch.jit.load, torch.jit.optimize_for_inference (what a deployment runs at start)
        and the first run, at the first config. peak_rss_mb: the process's peak after that run (the Python
        interpreter and torch's libraries included, as a PyTorch user's process has them).
        Prints one JSON object: load_first_ms, peak_rss_mb and per config median_ms (null if the traced
        graph cannot run at that batch).
Run with Debian's python3 (/usr/bin/python3), which has torch and torchvision."""
import json
import os
import resource
import statistics
import sys
import time

import numpy as np
import torch


def prepare(name, out):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
    import export_torchvision as ex
    ex.load_frameworks()
    torch.manual_seed(0)  # export_torchvision.py's default --seed
    model = ex.build(name)
    ex.randomize_identity_init(model)
    ex.calibrate_batchnorm(model, 0, ex.input_size(name))
    x = torch.from_numpy(ex.make_input(0, 1, ex.input_size(name)))
    with torch.no_grad():
        frozen = torch.jit.freeze(torch.jit.trace(model, x).eval())
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = f"{out}.{os.getpid()}.tmp"  # never a half-written file under the final name
    torch.jit.save(frozen, tmp)
    os.replace(tmp, out)


def time_configs(path, input_path, configs, iters):
    image = torch.from_numpy(np.load(input_path))
    result = {"median_ms": {}}
    threads, _ = configs[0]
    torch.set_num_threads(threads)
    start = time.perf_counter()
    with torch.no_grad():
        model = torch.jit.optimize_for_inference(torch.jit.load(path))
        model(image)
        result["load_first_ms"] = round((time.perf_counter() - start) * 1e3, 1)
        result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        for (threads, batch), n in zip(configs, iters):
            torch.set_num_threads(threads)
            x = image.repeat(batch, 1, 1, 1)
            key = f"{threads}x{batch}"
            try:
                for _ in range(2):
                    model(x)
            except RuntimeError as e:  # a shape the trace fixed at batch 1
                print(f"torch_frozen.py: {os.path.basename(path)} at {key}: {str(e).splitlines()[0]}", file=sys.stderr)
                result["median_ms"][key] = None
                continue
            times = []
            for _ in range(n):
                t = time.perf_counter()
                model(x)
                times.append((time.perf_counter() - t) * 1e3)
            result["median_ms"][key] = round(statistics.median(times), 3)
    print(json.dumps(result))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 6 and sys.argv[1] == "time":
        configs = [tuple(int(v) for v in c.split("x")) for c in sys.argv[4].split(",")]
        iters = [int(v) for v in sys.argv[5].split(",")]
        if len(iters) != len(configs):
            sys.exit("torch_frozen.py: one ITERS value per config")
        time_configs(sys.argv[2], sys.argv[3], configs, iters)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
