#!/usr/bin/env python3
"""`cnnx run MODEL DIR_OR_FILES...` (folder mode) on a folder of good and bad files: every file appears exactly
once, in a deterministic order; good images get the same record as a single-image `cnnx run --json`; each bad
file (corrupt, truncated, not an image, broken link, unreadable, empty, oversized, a FIFO, a link to a folder)
gets an error naming it while the rest of its batch runs; the exit code is 0.
Usage: folder_test.py CNNX SHAPES_MODEL SAMPLES_DIR"""
import io
import json
import os
import pty
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import onnx
from onnx import helper
from PIL import Image


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_header_only(width, height):
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            png_chunk(b"IDAT", zlib.compress(b"")) + png_chunk(b"IEND", b""))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def walk(root):
    """The order cnnx promises: each folder's entries sorted by name, folders entered in place (links not)."""
    out = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if os.path.isdir(path) and not os.path.islink(path):
            out += walk(path)
        else:
            out.append(path)
    return out


def make_folder(tmp, samples):
    """Returns (root, {path: expected error substring or None for a good image})."""
    root = os.path.join(tmp, "photos")
    names = sorted(os.listdir(samples))
    expect = {}

    def good(rel, data):
        write(os.path.join(root, rel), data)
        expect[os.path.join(root, rel)] = None

    def bad(rel, data, why):
        write(os.path.join(root, rel), data)
        expect[os.path.join(root, rel)] = why

    pngs = {n: open(os.path.join(samples, n), "rb").read() for n in names}
    for n in names[:4]:
        good(n, pngs[n])
    for n in names[4:6]:
        good(os.path.join("nested", "deeper", n), pngs[n])
    for n, ext in zip(names[6:10], ["JPG", "jpeg", "bmp", "png"]):
        buf = io.BytesIO()
        Image.open(io.BytesIO(pngs[n])).convert("RGB").save(buf, {"JPG": "JPEG", "jpeg": "JPEG", "bmp": "BMP",
                                                                   "png": "PNG"}[ext])
        good(os.path.join("nested", os.path.splitext(n)[0] + "." + ext), buf.getvalue())
    jpeg = io.BytesIO()
    Image.open(io.BytesIO(pngs[names[0]])).convert("RGB").save(jpeg, "JPEG")
    bad("corrupt.png", b"\x89PNG\r\n\x1a\n" + os.urandom(200), "corrupt.png")
    bad("nested/text.png", b"hello, not an image", "not a readable PNG, JPEG or BMP")
    bad("truncated.jpg", jpeg.getvalue()[: len(jpeg.getvalue()) // 3], "truncated.jpg")
    bad("notes.txt", b"a shopping list", "not an image file")
    bad("nested/deeper/README", b"no extension", "not an image file")
    bad("empty.png", b"", "not a readable PNG, JPEG or BMP")
    bad("zero.png", png_header_only(0, 10), "has no pixels")
    bad("bomb.png", png_header_only(100000, 100000), "over the limit of 64 megapixels")
    os.makedirs(os.path.join(root, "empty_folder"))
    os.symlink(os.path.join(root, "missing.png"), os.path.join(root, "broken_link.png"))
    expect[os.path.join(root, "broken_link.png")] = "broken symbolic link"
    os.symlink("..", os.path.join(root, "nested", "loop"))
    expect[os.path.join(root, "nested", "loop")] = "link to a folder (not followed)"
    os.mkfifo(os.path.join(root, "fifo.png"))
    expect[os.path.join(root, "fifo.png")] = "not a regular file"
    locked = os.path.join(root, "nested", "locked.png")
    write(locked, pngs[names[0]])
    os.chmod(locked, 0)
    try:  # as root, chmod does not stop reading: then it is a good image
        open(locked, "rb").close()
        expect[locked] = None
    except PermissionError:
        expect[locked] = "Permission denied"
    return root, expect


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


def records_of(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


def main():
    cnnx, model, samples = sys.argv[1:4]
    tmp = tempfile.mkdtemp()
    root, expect = make_folder(tmp, samples)
    problems = []
    checks = 0

    def check(ok, message):
        nonlocal checks
        checks += 1
        if not ok:
            problems.append(message)

    cmd = [cnnx, "run", model, root, "--top", "3"]
    r = run(cmd)
    check(r.returncode == 0, f"{' '.join(cmd)}: exit {r.returncode}, stderr {r.stderr.strip()}")
    records = records_of(r.stdout)
    files = [rec["file"] for rec in records]
    check(files == walk(root), f"files in order {files}, expected {walk(root)}")
    check(sorted(files) == sorted(expect), f"files {sorted(files)}, expected each of {sorted(expect)} once")
    check("\r" not in r.stderr, f"a progress bar was drawn on a stderr that is not a terminal: {r.stderr!r}")
    n_bad = sum(1 for v in expect.values() if v is not None)
    check(f"{len(expect)} files, {len(expect) - n_bad} classified, {n_bad} error" in r.stderr,
          f"summary line: {r.stderr.strip()}")
    single = {}
    for rec in records:
        why = expect.get(rec["file"], "<not expected>")
        if why is None:
            s = run([cnnx, "run", model, rec["file"], "--json", "--top", "3"])
            single[rec["file"]] = json.loads(s.stdout)["outputs"][0]["top"][0] if s.returncode == 0 else s.stderr
            check(rec.get("top") == single[rec["file"]],
                  f"{rec['file']}: folder record {rec}\n  differs from cnnx run --json: {single[rec['file']]}")
        else:
            check("error" in rec and why in rec["error"] and rec["file"] in rec["error"] and "top" not in rec,
                  f"{rec['file']}: expected an error with {why!r} naming the file, got {rec}")

    # Batch sizes, --jsonl FILE and explicit files give the same records.
    for batch in ["1", "3", "16"]:
        out = os.path.join(tmp, f"b{batch}.jsonl")
        r = run([cnnx, "run", model, root, "--top", "3", "--batch", batch, "--jsonl", out])
        check(r.returncode == 0 and r.stdout == "", f"--batch {batch} --jsonl: exit {r.returncode}, {r.stderr}")
        check(records_of(open(out).read()) == records, f"--batch {batch}: records differ from --batch 8")
    good = [f for f in files if expect[f] is None][:3]
    r = run([cnnx, "run", model, *good, os.path.join(tmp, "nowhere.png"), "--batch", "2", "--top", "3"])
    recs = records_of(r.stdout)
    check(r.returncode == 0 and [x["file"] for x in recs] == good + [os.path.join(tmp, "nowhere.png")],
          f"explicit files: {r.stdout} {r.stderr}")
    check("No such file" in recs[-1].get("error", ""), f"a missing file: {recs[-1]}")
    check(all(x.get("top") == single[x["file"]] for x in recs[:3]), "explicit files' records differ")

    # A model that ends in Softmax: the records show its probabilities as they are.
    m = onnx.load(model)
    logits = m.graph.output[0].name
    m.graph.node.append(helper.make_node("Softmax", [logits], ["probs"], axis=1))
    m.graph.output[0].name = "probs"
    softmax_model = os.path.join(tmp, "softmax.onnx")
    onnx.save(m, softmax_model)
    r = run([cnnx, "run", softmax_model, root, "--top", "3"])
    for rec, plain in zip(records_of(r.stdout), records):
        if "top" in rec:
            check(all(t["probability"] == t["score"] for t in rec["top"]), f"softmax model: {rec}")
            check([t["class"] for t in rec["top"]] == [t["class"] for t in plain["top"]] and
                  all(abs(t["probability"] - p["probability"]) < 1e-6 for t, p in zip(rec["top"], plain["top"])),
                  f"softmax model's probabilities {rec} differ from the logits model's {plain}")

    # A fixed batch of 4: the default, the only one accepted, the last partial batch padded.
    m = onnx.load(model)
    m.graph.input[0].type.tensor_type.shape.dim[0].dim_value = 4
    m.graph.output[0].type.tensor_type.shape.dim[0].dim_value = 4
    fixed_model = os.path.join(tmp, "fixed4.onnx")
    onnx.save(m, fixed_model)
    r = run([cnnx, "run", fixed_model, root, "--top", "3"])
    check(r.returncode == 0 and records_of(r.stdout) == records and "(batch 4)" in r.stderr,
          f"fixed batch 4: exit {r.returncode} {r.stderr}")
    r = run([cnnx, "run", fixed_model, root, "--batch", "3"])
    check(r.returncode == 1 and "fixed batch of 4" in r.stderr, f"fixed batch 4, --batch 3: {r.returncode} {r.stderr}")

    # Usage errors: options of the single-run mode.
    for extra in (["--json"], ["--save", tmp]):
        r = run([cnnx, "run", model, root, *extra])
        check(r.returncode == 2 and "folder mode" in r.stderr, f"{extra} in folder mode: {r.returncode} {r.stderr}")

    # On a terminal, a progress bar with the rate and the time left.
    master, slave = pty.openpty()
    p = subprocess.run([cnnx, "run", model, root, "--batch", "2"], stdout=subprocess.DEVNULL, stderr=slave,
                       timeout=300)
    os.close(slave)
    shown = b""
    try:
        while True:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            shown += chunk
    except OSError:
        pass
    os.close(master)
    text = shown.decode(errors="replace")
    check(p.returncode == 0 and "\r[" in text and "img/s" in text and "ETA" in text and
          f"{len(expect)}/{len(expect)}" in text, f"progress bar on a terminal: {text!r}")

    os.chmod(os.path.join(root, "nested", "locked.png"), 0o600)
    shutil.rmtree(tmp)
    for p in problems:
        print("FAIL", p)
    print(f"{checks - len(problems)} passed, {len(problems)} failed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
