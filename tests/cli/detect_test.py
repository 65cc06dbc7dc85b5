#!/usr/bin/env python3
"""`cnnx run` on detectors (README, "Detection"): hand-built models (tests/cli/detection_models.py) whose boxes are
constants and whose scores are the channel means of a plain-colour image, in every output layout cnnx
recognises. For each: the single-image --json record, folder mode's lines (a bad file among the images) and the
text lines give the detections expected, boxes scaled to the image file's pixels; models that are not detectors
keep the classification behaviour, or get a clear error with --task detect. Usage: detect_test.py CNNX"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import detection_models as dm  # noqa: E402

# Two plain images of other sizes than the model's 64 x 48 (x and y scaled differently), and one at its size.
IMAGES = [("a.png", (128, 144), (255, 128, 0)), ("b.png", (64, 48), (30, 200, 140)), ("c.bmp", (96, 40), (0, 0, 250))]
# A score is the float32 mean of H x W equal values v/255 (each resized by a filter whose float32 weights sum to 1
# within a few ulps): summed one by one in float32, the rounding of each partial sum adds up to (H*W - 1) * 2^-24
# of the mean, the resize's few ulps aside.
SCORE_TOL = dm.H * dm.W * 2.0 ** -24 + 8 * 2.0 ** -24


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def cases():
    """(name, build(path), box layout, model size or None for the image's own, extra args, labels)"""
    return [
        ("torchvision: boxes [N,4], scores [N], labels int64 [N], input [3,H,W], cnnx.labels",
         lambda p: dm.triple(p, metadata={"cnnx.labels": "\n".join(dm.LABELS)}), "pixels", (64, 48), [], dm.LABELS),
        ("[1,N,4] + [1,N] + int32 [1,N] + num_detections, input [1,3,H,W]",
         lambda p: dm.triple(p, batched=True, labels_dtype=TensorProto.INT32, extra_output=True,
                             names=("det_boxes", "det_scores", "det_classes")), "pixels", (64, 48), [], None),
        ("float labels named 'classes'",
         lambda p: dm.triple(p, labels_dtype=TensorProto.FLOAT, names=("boxes", "scores", "classes")), "pixels",
         (64, 48), [], None),
        ("input [3,H,W] with unknown H, W: the image at its own size",
         lambda p: dm.triple(p, dynamic=True), "pixels", None, [], None),
        ("rows [1,N,6]", lambda p: dm.rows(p, 6, 3), "pixels", (64, 48), [], None),
        ("rows [N,6] with --task detect", lambda p: dm.rows(p, 6, 2), "pixels", (64, 48), ["--task", "detect"], None),
        ("rows [1,1,N,7], normalized, a padding row", lambda p: dm.rows(p, 7, 4), "normalized", (64, 48), [], None),
        ("rows [1,N,7], normalized", lambda p: dm.rows(p, 7, 3), "normalized", (64, 48), [], None),
        ("cnnx.box_coordinates=normalized on three outputs",
         lambda p: dm.triple(p, boxes=dm.NORMALIZED, metadata={"cnnx.box_coordinates": "normalized"}), "normalized",
         (64, 48), [], None),
        ("cnnx.box_coordinates=pixels on rows [1,1,N,7]",
         lambda p: dm.rows(p, 7, 4, metadata={"cnnx.box_coordinates": "pixels"}), "pixels7", (64, 48), [], None),
    ]


def expected_for(layout, size, image, threshold, labels):
    _, (w, h), colour = image
    mw, mh = size or (w, h)
    if layout == "pixels7":  # the 7-column rows' boxes (NORMALIZED) taken as pixels
        return dm.expected(colour, w, h, threshold, "pixels", mw, mh, boxes=dm.NORMALIZED, labels=labels)
    return dm.expected(colour, w, h, threshold, layout, mw, mh, labels=labels)


def same(got, want):
    """Detections equal: classes, labels and float32 boxes exactly, scores within SCORE_TOL."""
    if len(got) != len(want):
        return False
    for g, e in zip(got, want):
        if (g["class"] != e["class"] or g.get("label") != e.get("label") or
                list(np.float32(g["box"])) != list(np.float32(e["box"]))):
            return False
        if not math.isclose(g["score"], e["score"], rel_tol=SCORE_TOL, abs_tol=SCORE_TOL):
            return False
    return True


def check_case(cnnx, tmp, images, name, build, layout, size, args, labels):
    failures = []
    path = os.path.join(tmp, "model.onnx")
    build(path)
    for threshold in (0.5, 0.3):
        t = ["--threshold", str(threshold)]
        single = {}
        for image in IMAGES:
            file = images[image[0]]
            r = run([cnnx, "run", path, file, "--json", *t, *args])
            want = expected_for(layout, size, image, threshold, labels)
            if r.returncode != 0:
                failures.append(f"{name}, {file}, threshold {threshold}: exit {r.returncode}: {r.stderr}")
                continue
            report = json.loads(r.stdout)
            rec = report["images"][0]
            single[file] = rec
            if (report.get("task") != "detect" or len(report["images"]) != 1 or rec["file"] != file or
                    (rec["width"], rec["height"]) != image[1] or not same(rec["detections"], want)):
                failures.append(f"{name}, {file}, threshold {threshold}: got {rec}, expected {want}")
            text = run([cnnx, "run", path, file, *t, *args])
            head = f"{file} ({image[1][0]}x{image[1][1]}): {len(want)} detection{'' if len(want) == 1 else 's'} " \
                   f"with score >= {threshold:g}"
            lines = text.stdout.splitlines()
            if text.returncode != 0 or lines[:1] != [head] or len(lines) != 1 + len(want) or any(
                    f"class {d['class']:4d}" not in line for d, line in zip(want, lines[1:])):
                failures.append(f"{name}, {file}, threshold {threshold}: text output {text.stdout!r} {text.stderr}, "
                                f"expected {head!r} and {len(want)} lines")
        # Folder mode: one line per file, the good ones as the single runs give them, the bad one an error.
        r = run([cnnx, "run", path, os.path.dirname(images["a.png"]), *t, *args])
        lines = [json.loads(line) for line in r.stdout.splitlines()]
        files = sorted(os.listdir(os.path.dirname(images["a.png"])))
        ok = (r.returncode == 0 and [x["file"] for x in lines] == [os.path.join(os.path.dirname(images["a.png"]), f)
                                                                  for f in files])
        for x in lines if ok else []:
            if x["file"].endswith("notes.txt"):
                ok = ok and "not an image file" in x.get("error", "")
            else:
                ok = ok and x == single.get(x["file"])
        if not ok or "cnnx: 4 files, 3 run, 1 error" not in r.stderr:
            failures.append(f"{name}: folder mode, threshold {threshold}: exit {r.returncode}, {r.stdout} {r.stderr}")
    return failures


def check_guards(cnnx, tmp, images):
    """Models that are not detectors, broken detectors and misuse: classification behaviour or a clear error."""
    a, b = images["a.png"], images["b.png"]
    p = lambda n: os.path.join(tmp, n)  # noqa: E731
    dm.classifier(p("classifier.onnx"))
    dm.rows(p("rows2.onnx"), 6, 2)
    dm.rows(p("rows3.onnx"), 6, 3)
    dm.triple(p("badcoords.onnx"), metadata={"cnnx.box_coordinates": "inches"})
    dm.triple(p("short_scores.onnx"), short_scores=True)
    dm.triple(p("batch2.onnx"), batch=2)
    dm.triple(p("det.onnx"))
    grey = onnx.load(p("det.onnx"))  # one channel: not an image cnnx makes
    grey.graph.input[0].type.tensor_type.shape.dim[0].dim_value = 1
    onnx.save(grey, p("grey.onnx"))
    not_det = "cnnx: error: the model's outputs are not detections: 'logits' float32 [1,4]"
    # (what, args, exit code, text expected in stdout, text expected in stderr, text not expected in stdout)
    checks = [
        ("a classifier is classified", ["classifier.onnx", a], 0, "logits: float32 [1,4]\n  0.", "",
         "detection"),
        ("a classifier with --task detect", ["classifier.onnx", a, "--task", "detect"], 1, "", not_det, None),
        ("a classifier with --task detect, folder mode", ["classifier.onnx", os.path.dirname(a), "--task", "detect"],
         1, "", not_det, None),
        ("rows [N,6] without --task: a classifier of 6 classes", ["rows2.onnx", a], 0,
         "detections: float32 [3,6]\n [0] " + a + "\n  1.0000  class    3  (score 40)", "", "with score"),
        ("a detector with --task classify: its outputs summarized", ["rows3.onnx", b, "--task", "classify"], 0,
         "detections: float32 [1,3,6]\n  min ", "", "with score"),
        ("cnnx.box_coordinates of another value", ["badcoords.onnx", a], 1, "",
         "cnnx: error: cnnx.box_coordinates must be 'pixels' or 'normalized', got 'inches'", None),
        ("scores shorter than the boxes", ["short_scores.onnx", a, "--task", "detect"], 1, "",
         "cnnx: error: the model's outputs are not detections: 'boxes' float32 [3,4], 'scores' float32 [2], "
         "'labels' int64 [3] (cnnx takes", None),
        ("a one-channel input", ["grey.onnx", a, "--task", "detect"], 1, "",
         "cnnx: error: input 'images' is float32 [1,48,64]: detection feeds float32 images, [3, H, W] or "
         "[N, 3, H, W]", None),
        ("a fixed batch of 2", ["batch2.onnx", a, "--task", "detect"], 1, "",
         "cnnx: error: input 'images' has a fixed batch of 2: detection runs one image per run", None),
        ("--save with two images", ["det.onnx", a, b, "--save", p("saved")], 1, "",
         "cnnx: error: --save writes one run's outputs: give one image with it", None),
        ("--task of another name", ["det.onnx", a, "--task", "segment"], 2, "", "--task", None),
        ("--threshold nan", ["det.onnx", a, "--threshold", "nan"], 1, "",
         "cnnx: error: the score threshold must be a finite number", None),
        ("a corrupt image, single mode", ["det.onnx", p("corrupt.png")], 1, "",
         "cnnx: error: '" + p("corrupt.png") + "' is not a readable PNG, JPEG or BMP image", None),
    ]
    with open(p("corrupt.png"), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    failures = []
    for what, args, code, out, err, not_out in checks:
        r = run([cnnx, "run", *[p(x) if x.endswith(".onnx") else x for x in args]])
        if (r.returncode != code or out not in r.stdout or err not in r.stderr or
                (not_out is not None and not_out in r.stdout)):
            failures.append(f"{what}: exit {r.returncode} (expected {code}), stdout {r.stdout!r} (expected "
                            f"{out!r}{'' if not_out is None else ', without ' + repr(not_out)}), stderr {r.stderr!r} "
                            f"(expected {err!r})")
    # A tensor file runs as it is: its outputs summarized, then its detections in its own pixels (no scaling).
    np.save(p("x.npy"), np.full((3, dm.H, dm.W), 0.75, np.float32))
    r = run([cnnx, "run", p("det.onnx"), p("x.npy"), "--json"])
    report = json.loads(r.stdout) if r.returncode == 0 else {}
    recs = report.get("images", [{}])
    want = [{"box": [float(v) for v in box], "class": int(c), "score": 0.75} for box, c in zip(dm.BOXES, dm.CLASSES)]
    if (r.returncode != 0 or [o["name"] for o in report.get("outputs", [])] != ["boxes", "scores", "labels"] or
            len(recs) != 1 or (recs[0].get("file"), recs[0].get("width"), recs[0].get("height")) !=
            (p("x.npy"), dm.W, dm.H) or not same(recs[0].get("detections", []), want)):
        failures.append(f"a .npy input: exit {r.returncode}, {r.stdout} {r.stderr}, expected {want}")
    # Several images, text: one block each, every header with the threshold as given.
    r = run([cnnx, "run", p("det.onnx"), a, b, "--threshold", "0.25"])
    heads = [line for line in r.stdout.splitlines() if not line.startswith("  ")]
    if r.returncode != 0 or heads != [f"{a} (128x144): 2 detections with score >= 0.25",
                                      f"{b} (64x48): 2 detections with score >= 0.25"]:
        failures.append(f"two images, text: exit {r.returncode}, {r.stdout!r} {r.stderr}")
    # --save with one image writes every output as the model gave it.
    r = run([cnnx, "run", p("det.onnx"), a, "--save", p("saved")])
    saved = sorted(os.listdir(p("saved"))) if os.path.isdir(p("saved")) else []
    if r.returncode != 0 or saved != ["boxes.npy", "labels.npy", "scores.npy"]:
        failures.append(f"--save with one image: exit {r.returncode}, wrote {saved}, {r.stderr}")
    return failures


def main():
    cnnx = sys.argv[1]
    tmp = tempfile.mkdtemp()
    folder = os.path.join(tmp, "images")
    os.makedirs(folder)
    images = {}
    for name, size, colour in IMAGES:
        images[name] = os.path.join(folder, name)
        Image.new("RGB", size, colour).save(images[name])
    with open(os.path.join(folder, "notes.txt"), "w") as f:
        f.write("not an image")
    failures, count = [], 0
    for case in cases():
        count += 1
        failures += check_case(cnnx, tmp, images, *case)
    guard_failures = check_guards(cnnx, tmp, images)
    failures += guard_failures
    for f in failures:
        print("FAILED:", f)
    print(f"{count} layouts and the guards: {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
