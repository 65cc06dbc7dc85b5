"""What the scripts that check cnnx against PyTorch or numpy share: run `cnnx run ... --save` on one model and
input, and compare its output with the expected array within an op's tolerance.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from cnnx_outputs import run_saved, mismatch, report
"""
import os
import subprocess

import numpy as np


def run_saved(cnnx, model, x_path, out_dir, backend=None, extra=(), output="y"):
    """Runs `cnnx run MODEL X --save OUT_DIR [--backend B] EXTRA...`; returns output `output` as an array, or
    cnnx's exit code and stderr as a string when it failed."""
    args = [cnnx, "run", model, x_path, "--save", out_dir, *(["--backend", backend] if backend else []), *extra]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return f"exit {r.returncode}: {r.stderr.strip()}"
    return np.load(os.path.join(out_dir, output + ".npy"))


def mismatch(got, want, tol_abs, tol_rel):
    """"" when `got` (an array from run_saved, or its failure) matches `want` elementwise within
    tol_abs + tol_rel * |want| (NaN where both are NaN counts as equal); else what differs, with the worst
    element, the values and the tolerance."""
    if isinstance(got, str):
        return f"cnnx failed: {got}"
    if got.shape != want.shape:
        return f"shape {got.shape}, want {want.shape}"
    if want.size == 0:
        return ""
    got64, want64 = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(got64) & np.isnan(want64)
    excess = np.where(both_nan, -1.0, np.abs(got64 - want64) - (tol_abs + tol_rel * np.abs(want64)))
    excess = np.where(np.isnan(excess), np.inf, excess)
    worst = int(np.argmax(excess))
    if excess.flat[worst] <= 0:
        return ""
    return (f"element {worst}: got {got.flat[worst]!r}, want {want.flat[worst]!r} "
            f"(max abs diff {max_abs_diff(got, want):.3g}; tolerance abs {tol_abs}, rel {tol_rel})")


def report(label, got, want, tol_abs, tol_rel, about=""):
    """Prints `ok   LABEL: ABOUT, max abs diff D` or `FAIL LABEL: what differs` (mismatch); returns 0 or 1, the
    failures to count."""
    why = mismatch(got, want, tol_abs, tol_rel)
    if why:
        print(f"FAIL {label}: {why}")
        return 1
    print(f"ok   {label}: {about + ', ' if about else ''}max abs diff {max_abs_diff(got, want):.2g}")
    return 0


def max_abs_diff(got, want):
    """The largest |got - want| in float64 (0 for empty arrays)."""
    return float(np.abs(got.astype(np.float64) - want.astype(np.float64)).max()) if want.size else 0.0
