#!/usr/bin/python3
"""Compares a cnnx output with PyTorch's for the same model and input; exit 1 when they differ.

    compare_outputs.py ACTUAL.npy EXPECTED.npy [--expected-f64 F64.npy] [--tolerance T] [--name NAME]

ACTUAL is what `cnnx run --save` wrote, EXPECTED is PyTorch's float32 output (models/export_torchvision.py),
EXPECTED_F64 optionally the same network in float64: printed only, to tell which engine is nearer the exact
result when they disagree. Prints max abs error, max error relative to max|expected|, and the top-5 classes of
both for every batch item; fails when the relative error exceeds the tolerance or the top-1 classes differ.
"""
import argparse
import sys

import numpy as np

# Tolerance, as max|actual - expected| / max|expected| over the whole output.
#
# Both sides compute the same float32 function and differ only in rounding (unit roundoff u = 2^-24 ~ 6e-8).
# A K-term dot product accumulated in float32 (PyTorch/oneDNN, in its own blocked order) is off by ~sqrt(K)*u
# of sum|terms| for random rounding (K*u at worst); the cnnx reference kernels accumulate in double and round
# once (~u). Each layer's error reaches the logits with gain ~1 in a normalized network, and errors from the D
# layers of a path add like a random walk: ~u*sqrt(sum of K over the layers). Summed over every Conv/Gemm of
# the model (an upper bound for any path), that sum is 6e3..1.0e5 here (densenet121 1.0e5, inception_v3 9.6e4,
# resnet50 5.5e4, vgg11 5.3e4 with K = 25088 in its first FC), so ~u*sqrt(1e5) ~ 2e-5 at most. Measured on
# these models (seed 0): PyTorch float32 vs float64 is 1.4e-7..2.7e-5 of max|logits| (inception_v3 2.7e-5,
# resnet50 1.7e-5), cnnx --backend ref vs float64 at most 1.1e-5 (inception_v3); the transformer families
# (vit_b_16, swin_t, maxvit_t, convnext_tiny: MatMul, LayerNorm, Softmax, Erf) stay below 2.3e-6 on both backends. 1e-4 is ~4x the largest of these, while a wrong
# op (a padding cell, a window divisor, a BatchNorm eps, a transposed weight) moves the logits by 1e-3 of max
# or, usually, far more.
# The error is measured against max|expected|, not elementwise: logits near zero come out of sums with
# cancellation and have no relative accuracy of their own in either engine.
TOLERANCE = 1e-4


def top(row, k=5):
    order = np.argsort(-row, kind="stable")[:k]
    return [(int(i), float(row[i])) for i in order]


def fmt(pairs):
    return "  ".join(f"{c:4d}:{s:+.6g}" for c, s in pairs)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("actual")
    p.add_argument("expected")
    p.add_argument("--expected-f64", help="the same network run in float64 (printed only)")
    p.add_argument("--tolerance", type=float, default=TOLERANCE, help=f"max error / max|expected| ({TOLERANCE})")
    p.add_argument("--name", default="", help="a label for the printout")
    args = p.parse_args()
    label = f"{args.name}: " if args.name else ""

    actual = np.load(args.actual)
    expected = np.load(args.expected)
    if actual.shape != expected.shape:
        print(f"{label}FAIL: shape {actual.shape} != expected {expected.shape}")
        return 1
    if actual.dtype != np.float32:
        print(f"{label}FAIL: dtype {actual.dtype}, expected float32")
        return 1
    if not np.all(np.isfinite(actual)):
        print(f"{label}FAIL: {int(np.sum(~np.isfinite(actual)))} non-finite values in {args.actual}")
        return 1

    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    peak = float(np.max(np.abs(e)))
    diff = np.abs(a - e)
    abs_err = float(np.max(diff))
    rel_err = abs_err / peak if peak > 0 else float("inf")
    worst = np.unravel_index(int(np.argmax(diff)), diff.shape)
    print(f"{label}max|expected| {peak:.6g}")
    print(f"{label}max abs error {abs_err:.3e} at {tuple(int(i) for i in worst)} "
          f"(actual {a[worst]:.8g}, expected {e[worst]:.8g})")
    print(f"{label}max error / max|expected| {rel_err:.3e} (tolerance {args.tolerance:.0e})")
    if args.expected_f64:
        exact = np.load(args.expected_f64).astype(np.float64)
        if exact.shape == e.shape:
            print(f"{label}vs float64 PyTorch: cnnx {np.max(np.abs(a - exact)) / peak:.3e}, "
                  f"PyTorch float32 {np.max(np.abs(e - exact)) / peak:.3e} (of max|expected|)")

    ok = rel_err <= args.tolerance
    rows_a = a.reshape(a.shape[0], -1) if a.ndim > 1 else a.reshape(1, -1)
    rows_e = e.reshape(rows_a.shape)
    for n, (ra, re) in enumerate(zip(rows_a, rows_e)):
        item = f"[{n}] " if rows_a.shape[0] > 1 else ""
        print(f"{label}{item}top-5 cnnx    {fmt(top(ra))}")
        print(f"{label}{item}top-5 pytorch {fmt(top(re))}")
        # Within tolerance and with a top-1 margin above twice the tolerance, top-1 must agree; a closer
        # margin is a near-tie that rounding may legitimately flip, so it is reported but not failed.
        (c1, s1), (_, s2) = top(re, 2)
        if int(np.argmax(ra)) != c1:
            if s1 - s2 > 2 * args.tolerance * peak:
                print(f"{label}{item}FAIL: top-1 class {int(np.argmax(ra))} != PyTorch's {c1}")
                ok = False
            else:
                print(f"{label}{item}note: top-1 differs but PyTorch's top-2 margin {s1 - s2:.3e} is a near-tie")
    print(f"{label}{'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
