#!/usr/bin/python3
"""Runs the bad-input corpus written by make_corpus.py against the cnnx program.

    /usr/bin/python3 run_corpus.py CNNX_BINARY CORPUS_DIR [--filter SUBSTRING] [--mem-limit-mb N] [--verbose]

A case expecting "error" passes when cnnx exits with code 1 (not by a signal), stderr starts with
"cnnx: error: " and holds every required substring, and nothing on stdout/stderr looks like a crash or a
sanitizer report. A case expecting "ok" passes when cnnx exits 0 without such output and, where the manifest
gives expected outputs, the saved outputs equal them (NaN equal to NaN; shapes and dtypes must match).
--mem-limit-mb caps the address space of each run (0: no cap; use 0 for sanitizer builds, whose shadow memory
needs terabytes of address space); it is what turns "allocates 1 GiB before noticing the data is missing" into
a failure. Prints one line per failing case and a final "N passed, M failed"; exits 1 on any failure.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile

import numpy as np

CRASH_MARKERS = ("Segmentation", "Aborted", "AddressSanitizer", "UndefinedBehaviorSanitizer", "LeakSanitizer",
                 "runtime error:", "terminate called", "core dumped", "Floating point exception", "stack overflow")


def check_outputs(case, corpus, save_dir):
    for name, rel in case.get("outputs", {}).items():
        want = np.load(os.path.join(corpus, rel))
        path = os.path.join(save_dir, name + ".npy")
        if not os.path.exists(path):
            return f"output '{name}' was not saved"
        got = np.load(path)
        if got.dtype != want.dtype or got.shape != want.shape:
            return f"output '{name}': got {got.dtype}{list(got.shape)}, want {want.dtype}{list(want.shape)}"
        if not np.array_equal(got, want, equal_nan=got.dtype.kind == "f"):
            return f"output '{name}': got {got.ravel()[:8].tolist()}, want {want.ravel()[:8].tolist()}"
    return None


def run_case(binary, corpus, case, mem_limit_mb, timeout):
    args = [binary] + case["args"]
    save_dir = None
    if case["expect"] == "ok" and case.get("outputs"):
        save_dir = tempfile.mkdtemp(prefix="cnnx_bad_input_")
        args += ["--save", save_dir]

    def limit():
        if mem_limit_mb > 0:
            cap = mem_limit_mb << 20
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    try:
        p = subprocess.run(args, cwd=corpus, capture_output=True, timeout=timeout, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout} s", None
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    detail = f"exit {p.returncode}, stderr: {err.strip()[:400]!r}"
    try:
        if p.returncode < 0:
            return f"killed by signal {-p.returncode}", detail
        crash = [m for m in CRASH_MARKERS if m in err or m in out]
        if crash:
            return f"crash output ({', '.join(crash)})", detail
        if case["expect"] == "ok":
            if p.returncode != 0:
                return "expected success", detail
            if save_dir:
                problem = check_outputs(case, corpus, save_dir)
                if problem:
                    return problem, detail
            return None, None
        if p.returncode != 1:
            return "expected exit code 1", detail
        if not err.startswith("cnnx: error: "):
            return "stderr does not start with 'cnnx: error: '", detail
        missing = [s for s in case["contains"] if s not in err]
        if missing:
            return f"stderr lacks {missing}", detail
        return None, None
    finally:
        if save_dir:
            for f in os.listdir(save_dir):
                os.remove(os.path.join(save_dir, f))
            os.rmdir(save_dir)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("corpus")
    ap.add_argument("--filter", default="", help="run only cases whose name contains this")
    ap.add_argument("--mem-limit-mb", type=int, default=512)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--verbose", action="store_true", help="print a line for passing cases too")
    o = ap.parse_args()
    binary = os.path.abspath(o.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"run_corpus.py: {binary} is not an executable")
    with open(os.path.join(o.corpus, "manifest.json")) as f:
        cases = [c for c in json.load(f)["cases"] if o.filter in c["name"]]
    passed = failed = 0
    for case in cases:
        problem, detail = run_case(binary, o.corpus, case, o.mem_limit_mb, o.timeout)
        if problem:
            failed += 1
            want = case["expect"] + (f" containing {case['contains']}" if case["expect"] == "error" else "")
            print(f"FAIL {case['name']}: {problem}\n     args: {' '.join(case['args'])}\n     expect: {want}\n"
                  f"     got: {detail}")
        else:
            passed += 1
            if o.verbose:
                print(f"PASS {case['name']}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
