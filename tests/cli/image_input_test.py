#!/usr/bin/env python3
"""Bad image inputs and options of `cnnx run` get a clear error (exit 1, 'cnnx: error: ...'), never a crash;
good ones classify. Usage: image_input_test.py CNNX MODEL SAMPLE_PNG"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, rows=None):
    """A valid RGB PNG header for width x height; pixel data only when rows is given."""
    out = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    raw = rows if rows is not None else b""
    out += png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b"")
    return out


def main():
    cnnx, model, sample = sys.argv[1:4]
    tmp = tempfile.mkdtemp()

    def write(name, data):
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    good = open(sample, "rb").read()
    labels_short = write("short_labels.txt", b"only-one\n")
    cases = [
        # (what, args, expected substring in stderr or None for success)
        ("a good image", [sample], None),
        ("two images as a batch", [sample, sample], None),
        ("a missing file", [os.path.join(tmp, "missing.png")], "missing.png"),
        ("text named .png", [write("text.png", b"hello, not an image")], "not a readable PNG, JPEG or BMP"),
        ("empty file", [write("empty.jpg", b"")], "not a readable PNG, JPEG or BMP"),
        ("truncated PNG", [write("truncated.png", good[: len(good) // 2])], "truncated.png"),
        ("100k x 100k PNG header (decompression bomb)", [write("bomb.png", png(100000, 100000))],
         "declares 100000x100000 pixels, over the limit of 64 megapixels"),
        ("9000 x 9000 PNG header (81 megapixels)", [write("big.png", png(9000, 9000))],
         "over the limit of 64 megapixels"),
        ("0-pixel PNG", [write("zero.png", png(0, 10))], "zero.png"),
        ("labels file shorter than the classes", [sample, "--labels", labels_short], "labels list has 1 entries"),
        ("mean of the wrong length", [sample, "--mean", "0.5,0.5"], "mean needs 3 values"),
        ("std of the wrong length", [sample, "--std", "0.5"], "std needs 3 values"),
        ("std of zero", [sample, "--std", "0,1,1"], "std values must not be 0"),
    ]
    passed = failed = 0
    for what, args, expect in cases:
        cmd = [cnnx, "run", model] + args
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if expect is None:
            ok = r.returncode == 0 and "class" in r.stdout
        else:
            ok = (r.returncode == 1 and r.stderr.startswith("cnnx: error: ") and expect in r.stderr)
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}: {' '.join(cmd)}\n  exit {r.returncode}, expected "
                  f"{'0' if expect is None else '1 with ' + repr(expect)}\n  stdout: {r.stdout.strip()[:300]}\n"
                  f"  stderr: {r.stderr.strip()[:300]}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
