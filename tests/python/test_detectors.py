"""torchvision's detection models (seeded random weights, models/export_detectors.py, exported at test time by this
machine's torch 1.13) against PyTorch's own boxes, scores and labels, on both backends.

Default suite: ssdlite320_mobilenet_v3_large with 3 classes (the per-class postprocessing PyTorch unrolls stays
short; ~20 s of export). With CNNX_SLOW_TESTS=1 (ctest python_detectors_slow): Faster R-CNN (MobileNetV3 320 FPN,
ResNet-50 FPN), RetinaNet, FCOS, SSD300-VGG16, Mask R-CNN (v1, v2) and Keypoint R-CNN, which take 30-250 s each
to export here. Every torchvision 0.14 detection model exports with torch 1.13; these 11 (and ssdlite) run and
match. Mask R-CNN pastes its masks and Keypoint R-CNN decodes its keypoints in a Loop whose carried value grows by
a Concat per detection (ops/control/loop.h: run in the plan's tail).

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
# Masks: a pixel is a sigmoid (slope <= 1/4) of mask logits (within ~1e-4, as scores) resampled (RoiAlign, then
# bilinear Resize to the box) at positions that follow the box; a box off by up to the box tolerance (0.0256 px at
# 256) moves them by as much, times a logit gradient of up to a few units per pixel: 1e-2. Measured 1.9e-3.
# Where PyTorch and cnnx paste a mask into different whole-pixel boxes (torchvision truncates the expanded box to
# integers: a corner within rounding of an integer lands on either side), the masks differ by whole pixels of
# the box's edge; such detections are not compared (at most 2 of 100 here; measured 1).
MASK_TOL = 1e-2
MAX_MASKS_ON_EDGE = 2
# Keypoints: a keypoint is the argmax of a heatmap resized to its box, mapped into the box: as exact as the box
# (BOX_TOL_PER_PIXEL); its score is the heatmap's logit there: within 1e-4 of the heatmaps' magnitude as the
# heads' outputs are, and as much again for the resampling position, which follows the box. Measured 1.9e-3 px and
# 4.1e-4 (logits up to 7.6: tolerance 1.5e-3).
KEYPOINT_SCORE_REL = 2e-4

FAST = [("ssdlite320_mobilenet_v3_large", 320, 3)]
SLOW_MODELS = [("fasterrcnn_mobilenet_v3_large_320_fpn", 320, 4), ("retinanet_resnet50_fpn", 256, 4),
               ("fcos_resnet50_fpn", 256, 4), ("ssd300_vgg16", 300, 4), ("fasterrcnn_resnet50_fpn", 256, 4),
               ("maskrcnn_resnet50_fpn", 256, 4), ("maskrcnn_resnet50_fpn_v2", 256, 4),
               ("keypointrcnn_resnet50_fpn", 256, 4)]


def export(tmp_path, name, size, classes):
    path, ref = str(tmp_path / f"{name}.onnx"), str(tmp_path / f"{name}.npz")
    subprocess.run([sys.executable, EXPORT, name, path, "--size", str(size), "--classes", str(classes), "--ref", ref],
                   check=True, stderr=subprocess.DEVNULL)
    return path, dict(np.load(ref))


def match(got, want, size, pairs=None):
    """Every detection of `want` matched to one of `got`: same label, box and score within the tolerances, rank
    within the run of scores tied with it. Returns the problems found (empty: all matched); `pairs` (a list), when
    given, gets (PyTorch's index, cnnx's) for every match."""
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
        if pairs is not None:
            pairs.append((i, ok[0]))
    return problems


def pasted_box(box):
    """torchvision's paste_masks_in_image: the box expanded by (28 + 2) / 28 about its centre, truncated to
    integers (the pixels the mask lands on)."""
    scale = 30 / 28
    c, half = (box[:2] + box[2:]) / 2, (box[2:] - box[:2]) / 2 * scale
    return np.concatenate([c - half, c + half]).astype(np.int64)


def match_parts(got, want, pairs, size):
    """Masks and keypoints of matched detections (pairs from match) within their tolerances; the problems."""
    problems = []
    if "masks" in want:
        edge = [i for i, j in pairs if (pasted_box(want["boxes"][i]) != pasted_box(got["boxes"][j])).any()]
        if len(edge) > MAX_MASKS_ON_EDGE:
            problems.append(f"{len(edge)} masks pasted into other whole-pixel boxes than PyTorch's (at most "
                            f"{MAX_MASKS_ON_EDGE} expected): detections {edge[:10]}")
        for i, j in pairs:
            d = np.abs(got["masks"][j] - want["masks"][i]).max()
            if i not in edge and d > MASK_TOL:
                problems.append(f"mask of detection {i} (cnnx's {j}, box {want['boxes'][i]}) off by {d:.3g} > {MASK_TOL}")
    if "keypoints" in want:
        box_tol = BOX_TOL_PER_PIXEL * size
        score_tol = KEYPOINT_SCORE_REL * max(1.0, np.abs(want["keypoints_scores"]).max())
        for i, j in pairs:
            dk = np.abs(got["keypoints"][j] - want["keypoints"][i]).max()
            ds = np.abs(got["keypoints_scores"][j] - want["keypoints_scores"][i]).max()
            if dk > box_tol or ds > score_tol:
                problems.append(f"keypoints of detection {i} (cnnx's {j}): positions off by {dk:.3g} px (tol "
                                f"{box_tol}), scores by {ds:.3g} (tol {score_tol:.3g})")
    return problems


def check(tmp_path, name, size, classes):
    path, want = export(tmp_path, name, size, classes)
    assert len(want["boxes"]) > 10, f"{name}: only {len(want['boxes'])} boxes survive; the test would prove little"
    for backend in ("ref", "dnnl"):
        model = cnnx.Model(path, backend=backend)
        for run in range(2):  # the second run meets the plans the first made for its data's shapes
            got = model.run({"image": want["image"]})
            pairs = []
            problems = match(got, want, size, pairs)
            problems += match_parts(got, want, pairs, size)
            assert not problems, (f"{name} backend={backend} run={run} size={size} classes={classes} score_tol="
                                  f"{SCORE_TOL} box_tol={BOX_TOL_PER_PIXEL * size} mask_tol={MASK_TOL}:\n" + "\n".join(problems[:10]))


@pytest.mark.parametrize("name,size,classes", FAST)
def test_detector(tmp_path, name, size, classes):
    check(tmp_path, name, size, classes)


@pytest.mark.skipif(not SLOW, reason="slow exports: set CNNX_SLOW_TESTS=1")
@pytest.mark.parametrize("name,size,classes", SLOW_MODELS)
def test_detector_slow(tmp_path, name, size, classes):
    check(tmp_path, name, size, classes)
