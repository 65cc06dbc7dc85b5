"""torchvision's detection models (seeded random weights, models/export_detectors.py, exported at test time by this
machine's torch 1.13) against PyTorch's own boxes, scores and labels, on both backends.

Default suite: ssdlite320_mobilenet_v3_large with 3 classes (the per-class postprocessing PyTorch unrolls stays
short; ~20 s of export). With CNNX_SLOW_TESTS=1 (ctest python_detectors_slow): Faster R-CNN (MobileNetV3 320 FPN,
ResNet-50 FPN), RetinaNet, FCOS and SSD300-VGG16, which take 30-250 s each to export here.

Tolerance, derived: the detections are the backbone's float32 arithmetic carried through the heads. cnnx and PyTorch
sum each convolution in another order, so each layer's outputs differ by ~sqrt(K) u of their terms (u = 2^-24,
K <= 9 * 960 here: ~1e-5 relative at most, far less on average), and the differences add over the ~60 layers:
~1e-4 of a logit or box regression at worst. A score is a softmax or sigmoid of logits (slope <= 1/4 per logit
unit), so within 1e-4; a box is an anchor or proposal moved by regressions (a centre shift times the box's size,
a size scaled by exp of one), so within 1e-4 of the image's size in pixels (0.032 px at 320). Measured: 1.2e-5 and
9e-5 px (SSDlite). A transposed box, a wrong anchor or class, or a missed NMS suppression is off by pixels or by a
whole detection.

Order and NMS ties: detections come sorted by score, and two whose scores are closer than the tolerance may swap,
so each PyTorch detection is matched to a cnnx one of the same label within the tolerances whose rank is within
the run of scores tied with it. The random weights are set up (export_detectors.py) so that scores spread: a tie
in TopK or an IoU within rounding of the NMS threshold, which could change which boxes survive, has not been seen
at these seeds; if one appears, the counts differ and the test says where."""
import os
import subprocess
import sys

import numpy as np
import pytest

import cnnx

SOURCE = os.environ.get("CNNX_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
EXPORT = os.path.join(SOURCE, "models", "export_detectors.py")
SLOW = os.environ.get("CNNX_SLOW_TESTS", "") not in ("", "0", "OFF")

SCORE_TOL = 1e-4
BOX_TOL_PER_PIXEL = 1e-4

FAST = [("ssdlite320_mobilenet_v3_large", 320, 3)]
SLOW_MODELS = [("fasterrcnn_mobilenet_v3_large_320_fpn", 320, 4), ("retinanet_resnet50_fpn", 256, 4),
               ("fcos_resnet50_fpn", 256, 4), ("ssd300_vgg16", 300, 4), ("fasterrcnn_resnet50_fpn", 256, 4)]


def export(tmp_path, name, size, classes):
    path, ref = str(tmp_path / f"{name}.onnx"), str(tmp_path / f"{name}.npz")
    subprocess.run([sys.executable, EXPORT, name, path, "--size", str(size), "--classes", str(classes), "--ref", ref],
                   check=True, stderr=subprocess.DEVNULL)
    return path, dict(np.load(ref))


def match(got, want, size):
    """Every detection of `want` matched to one of `got`: same label, box and score within the tolerances, rank
    within the run of scores tied with it. Returns the problems found (empty: all matched)."""
    box_tol = BOX_TOL_PER_PIXEL * size
    problems = []
    if len(got["boxes"]) != len(want["boxes"]):
        problems.append(f"{len(got['boxes'])} detections, PyTorch has {len(want['boxes'])}")
    used = np.zeros(len(got["boxes"]), bool)
    for i in range(len(want["boxes"])):
        tied = np.abs(want["scores"] - want["scores"][i]) <= SCORE_TOL
        lo, hi = np.argmax(tied), len(tied) - np.argmax(tied[::-1])  # the run of ranks tied with i
        ok = [j for j in range(lo, min(hi, len(got["boxes"])))
              if not used[j] and got["labels"][j] == want["labels"][i]
              and abs(got["scores"][j] - want["scores"][i]) <= SCORE_TOL
              and np.abs(got["boxes"][j] - want["boxes"][i]).max() <= box_tol]
        if not ok:
            j = min(i, len(got["boxes"]) - 1)
            problems.append(f"detection {i} (label {want['labels'][i]}, score {want['scores'][i]:.6f}, box "
                            f"{want['boxes'][i]}) unmatched; cnnx's rank {j}: label {got['labels'][j]}, score "
                            f"{got['scores'][j]:.6f}, box {got['boxes'][j]}")
            continue
        used[ok[0]] = True
    return problems


def check(tmp_path, name, size, classes):
    path, want = export(tmp_path, name, size, classes)
    assert len(want["boxes"]) > 10, f"{name}: only {len(want['boxes'])} boxes survive; the test would prove little"
    for backend in ("ref", "dnnl"):
        model = cnnx.Model(path, backend=backend)
        for run in range(2):  # the second run meets the plans the first made for its data's shapes
            got = model.run({"image": want["image"]})
            problems = match(got, want, size)
            assert not problems, (f"{name} backend={backend} run={run} size={size} classes={classes} score_tol="
                                  f"{SCORE_TOL} box_tol={BOX_TOL_PER_PIXEL * size}:\n" + "\n".join(problems[:10]))


@pytest.mark.parametrize("name,size,classes", FAST)
def test_detector(tmp_path, name, size, classes):
    check(tmp_path, name, size, classes)


@pytest.mark.skipif(not SLOW, reason="slow exports: set CNNX_SLOW_TESTS=1")
@pytest.mark.parametrize("name,size,classes", SLOW_MODELS)
def test_detector_slow(tmp_path, name, size, classes):
    check(tmp_path, name, size, classes)
