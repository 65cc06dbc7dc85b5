#!/usr/bin/env python3
"""`cnnx run MODEL DIR_OR_FILES...` (folder mode) on a folder of good and bad files: every file appears exactly
once, in a deterministic order; good images get the record a single-image `cnnx run --json` gives (the same
classes; on the ref backend the same bits, on oneDNN's the same scores up to the float32 rounding of the last
layer, which may sum a batch in another order: README, folder mode); each bad file (corrupt, truncated, not an
image, broken link, unreadable, empty, oversized, a FIFO, a link to a folder) gets an error naming it while the
rest of its batch runs; the exit code is 0.
With --unreadable, only a file the user may not read (skipped as root).
Usage: folder_test.py CNNX SHAPES_MODEL SAMPLES_DIR [--unreadable]"""
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

import numpy as np
import onnx
from onnx import helper, numpy_helper
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
    return root, expect


SKIPPED = 77  # ctest's SKIP_RETURN_CODE for the --unreadable run (tests/CMakeLists.txt)


def unreadable(cnnx, model, samples):
    """A file the user may not read gets an error naming it, and the good file beside it its record. As root
    permissions do not stop reading: exits SKIPPED."""
    tmp = tempfile.mkdtemp()
    good, locked = os.path.join(tmp, "a_good.png"), os.path.join(tmp, "locked.png")
    image = os.path.join(samples, sorted(os.listdir(samples))[0])
    shutil.copy(image, good)
    shutil.copy(image, locked)
    os.chmod(locked, 0)
    try:
        open(locked, "rb").close()
        print("skipped: permissions do not stop this user from reading (root)")
        sys.exit(SKIPPED)
    except PermissionError:
        pass
    r = run([cnnx, "run", model, tmp, "--top", "1"])
    recs = records_of(r.stdout)
    ok = (r.returncode == 0 and [x["file"] for x in recs] == [good, locked] and "top" in recs[0] and
          "Permission denied" in recs[1].get("error", "") and locked in recs[1]["error"])
    os.chmod(locked, 0o600)
    shutil.rmtree(tmp)
    print(f"{int(ok)} passed, {int(not ok)} failed" + ("" if ok else f": exit {r.returncode}, {r.stdout} {r.stderr}"))
    sys.exit(0 if ok else 1)


def on_terminal(cmd, lines_too):
    """Runs cmd with stderr (and stdout when lines_too) on a pseudo-terminal; returns (exit code, what it showed)."""
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=slave if lines_too else subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    shown = b""
    while True:  # read while it runs: a full terminal buffer would block it
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other side closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return p.wait(timeout=300), shown.decode(errors="replace")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


def records_of(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


def score_bounds(cnnx, model, images, tmp):
    """{image: per class, how far two float32 computations of its score may be apart}. The model ends in a
    Gemm y = f B' + C over K features: twice its tolerance (ops/gemm/matrix_product.h: 1e-5 + 4e-5 |y| +
    7 * 2^-24 * sqrt(K + 2) M, M = sum_k |f_k B'_kn| + |C_n|), with f the features the reference backend computes (every layer
    before it gives a batch the bits it gives one image: only the Gemm's summation order may differ)."""
    m = onnx.load(model)
    gemm = [n for n in m.graph.node if n.op_type == "Gemm"][-1]
    init = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in m.graph.initializer}
    trans_b = any(a.name == "transB" and a.i for a in gemm.attribute)
    b = init[gemm.input[1]].T if trans_b else init[gemm.input[1]]  # [K, N]
    c = np.abs(init[gemm.input[2]]) if len(gemm.input) > 2 else 0.0
    m.graph.node.append(helper.make_node("Identity", [gemm.input[0]], ["features"]))
    del m.graph.output[:]
    kept = [p for p in m.metadata_props if p.key != "cnnx.labels"]  # the class names, not the features'
    del m.metadata_props[:]
    m.metadata_props.extend(kept)
    m.graph.output.append(helper.make_tensor_value_info("features", onnx.TensorProto.FLOAT, None))
    features_model, saved = os.path.join(tmp, "features.onnx"), os.path.join(tmp, "features")
    onnx.save(m, features_model)
    r = run([cnnx, "run", features_model, *images, "--backend", "ref", "--save", saved])
    if r.returncode != 0:
        sys.exit(f"features: {r.stderr}")
    f = np.load(os.path.join(saved, "features.npy")).astype(np.float64)
    y = f @ b + (init[gemm.input[2]] if len(gemm.input) > 2 else 0.0)
    terms_rel = 7 * 2.0 ** -24 * np.sqrt(b.shape[0] + 2)  # ops/common/sum_of_products.h, K = b.shape[0]
    tol = 1e-5 + 4e-5 * np.abs(y) + terms_rel * (np.abs(f) @ np.abs(b) + c)
    return {image: 2 * tol[i] for i, image in enumerate(images)}


def same_top(a, b, bound):
    """Two records' classes agree, in order, and their scores within `bound` (per class). Each probability is a
    softmax over every score, whose derivative sums to at most 1/2 in absolute value: within the largest bound.
    (Classes whose scores were within the bound of each other could swap places; the bundled model's top
    scores are far apart.) A record that is not a list (an error text) agrees only with an equal one."""
    if not isinstance(a, list) or not isinstance(b, list) or [t["class"] for t in a] != [t["class"] for t in b]:
        return a == b
    return all(abs(s["score"] - t["score"]) <= bound[s["class"]] and
               abs(s["probability"] - t["probability"]) <= bound.max() for s, t in zip(a, b))


def same_records(got, want, bounds):
    return [r["file"] for r in got] == [r["file"] for r in want] and all(
        ("top" in r) == ("top" in w) and r.get("error") == w.get("error") and
        ("top" not in r or same_top(r["top"], w["top"], bounds[r["file"]])) for r, w in zip(got, want))


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
    bounds = score_bounds(cnnx, model, [f for f in files if expect.get(f, "") is None], tmp)
    single = {}
    for rec in records:
        why = expect.get(rec["file"], "<not expected>")
        if why is None:
            s = run([cnnx, "run", model, rec["file"], "--json", "--top", "3"])
            single[rec["file"]] = json.loads(s.stdout)["outputs"][0]["top"][0] if s.returncode == 0 else s.stderr
            check(same_top(rec.get("top"), single[rec["file"]], bounds[rec["file"]]),
                  f"{rec['file']}: folder record {rec}\n  differs from cnnx run --json: {single[rec['file']]}\n"
                  f"  beyond the bounds {bounds[rec['file']].tolist()}")
        else:
            check("error" in rec and why in rec["error"] and rec["file"] in rec["error"] and "top" not in rec,
                  f"{rec['file']}: expected an error with {why!r} naming the file, got {rec}")

    # Batch sizes, --jsonl FILE and explicit files give the same records.
    for batch in ["1", "3", "16"]:
        out = os.path.join(tmp, f"b{batch}.jsonl")
        r = run([cnnx, "run", model, root, "--top", "3", "--batch", batch, "--jsonl", out])
        check(r.returncode == 0 and r.stdout == "", f"--batch {batch} --jsonl: exit {r.returncode}, {r.stderr}")
        check(same_records(records_of(open(out).read()), records, bounds), f"--batch {batch}: records differ from --batch 8")
    # On the reference backend, whose sums do not depend on the batch, the bits are the same.
    ref = {}
    for batch in ["1", "3", "8"]:
        r = run([cnnx, "run", model, root, "--top", "3", "--batch", batch, "--backend", "ref"])
        ref[batch] = records_of(r.stdout)
        check(r.returncode == 0 and same_records(ref[batch], records, bounds),
              f"--backend ref --batch {batch}: exit {r.returncode}, records differ from dnnl's beyond the bounds")
    check(ref["1"] == ref["3"] == ref["8"], "--backend ref: records differ between --batch 1, 3 and 8")
    some = next(f for f in files if expect.get(f, "") is None)
    r = run([cnnx, "run", model, some, "--json", "--top", "3", "--backend", "ref"])
    check(r.returncode == 0 and json.loads(r.stdout)["outputs"][0]["top"][0] == ref["8"][files.index(some)]["top"],
          f"--backend ref: {some}'s folder record differs from cnnx run --json's")
    good = [f for f in files if expect[f] is None][:3]
    r = run([cnnx, "run", model, *good, os.path.join(tmp, "nowhere.png"), "--batch", "2", "--top", "3"])
    recs = records_of(r.stdout)
    check(r.returncode == 0 and [x["file"] for x in recs] == good + [os.path.join(tmp, "nowhere.png")],
          f"explicit files: {r.stdout} {r.stderr}")
    check("No such file" in recs[-1].get("error", ""), f"a missing file: {recs[-1]}")
    check(all(same_top(x.get("top"), single[x["file"]], bounds[x["file"]]) for x in recs[:3]),
          "explicit files' records differ")

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
    check(r.returncode == 0 and same_records(records_of(r.stdout), records, bounds) and "(batch 4)" in r.stderr,
          f"fixed batch 4: exit {r.returncode} {r.stderr}")
    r = run([cnnx, "run", fixed_model, root, "--batch", "3"])
    check(r.returncode == 1 and "fixed batch of 4" in r.stderr, f"fixed batch 4, --batch 3: {r.returncode} {r.stderr}")

    # Usage errors: options of the single-run mode.
    for extra in (["--json"], ["--save", tmp]):
        r = run([cnnx, "run", model, root, *extra])
        check(r.returncode == 2 and "folder mode" in r.stderr, f"{extra} in folder mode: {r.returncode} {r.stderr}")

    # On a terminal, a progress bar with the rate and the time left; with the lines on the same terminal, the
    # bar is erased before each line, so every line is whole.
    for lines_too in (False, True):
        code, text = on_terminal([cnnx, "run", model, root, "--batch", "2", "--top", "3"], lines_too)
        check(code == 0 and "\r[" in text and "img/s" in text and "ETA" in text and
              f"{len(expect)}/{len(expect)}" in text, f"progress bar on a terminal: {text!r}")
        if lines_too:
            lines = [line.split("\r")[-1] for line in text.splitlines() if '{"file"' in line]
            check(same_records([json.loads(line[line.index("{"):]) for line in lines], records, bounds),
                  f"lines shared a terminal with the bar: {text!r}")

    shutil.rmtree(tmp)
    for p in problems:
        print("FAIL", p)
    print(f"{checks - len(problems)} passed, {len(problems)} failed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    unreadable(*sys.argv[1:4]) if sys.argv[4:] == ["--unreadable"] else main()
