#!/usr/bin/env python3
"""torchvision detection models with seeded random weights (nothing is downloaded), exported to ONNX by this
machine's PyTorch, with PyTorch's own outputs on a seeded random image.

Usage: export_detectors.py NAME OUT.onnx [--size S] [--classes K] [--opset N] [--ref OUT.npz]

The detectors take one image (3 x S x S, values in [0, 1]) and give boxes [D, 4] (x1, y1, x2, y2 in input
pixels), scores [D] and labels [D] (int64). Random weights would leave few boxes above a detector's score
threshold, so the threshold is 0.05 (PyTorch's default for the R-CNNs and RetinaNet, 0.001 for SSD) and the
BatchNorm statistics are measured on images (so that the backbone's features depend on the image and the
scores spread instead of tying) and the sigmoid heads' biases set so that every class scores about 1/K: boxes
survive, and the exported postprocessing (per-class NonZero, TopK, GatherND, NMS) has
work to do. K (--classes, background included) is small so that the per-class loops PyTorch unrolls stay short.

Opset 13 by default: torchvision 0.14 writes RoiAlign without coordinate_transformation_mode, which from opset
16 means half_pixel (aligned=True), while torchvision's boxes are computed with aligned=False
(output_half_pixel, RoiAlign-10's only behaviour): an opset-16 export of an R-CNN does not compute what
PyTorch does, in any ONNX engine.

Export status on torch 1.13 / torchvision 0.14 (bench/detectors.md): every detection model exports."""
import argparse
import math
import sys

import numpy as np
import torch
import torchvision
from torchvision.models import detection

SIGMOID_HEADS = ("retinanet", "fcos")
def build(name, classes, size, seed=0):
    torch.manual_seed(seed)
    kw = dict(weights=None, weights_backbone=None, num_classes=classes)
    if name.startswith("ssd"):
        kw.update(score_thresh=0.001)
    else:
        kw.update(min_size=size, max_size=size)
    if name.startswith(SIGMOID_HEADS):
        kw.update(score_thresh=0.05)
    if name.startswith("keypointrcnn"):
        kw.update(num_keypoints=5)
    model = getattr(detection, name)(**kw).eval()
    with torch.no_grad():
        if name.startswith(SIGMOID_HEADS):  # every class at ~1/K before the image moves it
            model.head.classification_head.cls_logits.bias.fill_(-math.log(classes - 1))
    calibrate_batchnorm(model, size)
    return model


def calibrate_batchnorm(model, size):
    """BatchNorm statistics measured on a batch of images, as training leaves them: with the initial ones (mean 0,
    variance 1) a random backbone's signal fades layer by layer until its features no longer depend on the
    image (every location scores the same)."""
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    if not norms:
        return
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # a plain average over the batches seen
        m.train()
    with torch.no_grad():
        images, _ = model.transform([image(size, seed) for seed in range(100, 104)])
        model.backbone(images.tensors)
    model.eval()


def image(size, seed=1):
    """Blobs of colour (an 8 x 8 random image upsampled) with a little noise: uniform noise alone leaves a
    random-weight backbone's deep features nearly the same at every location, and so many scores tied."""
    g = torch.Generator().manual_seed(seed)
    blobs = torch.nn.functional.interpolate(torch.rand(1, 3, 8, 8, generator=g), size=(size, size), mode="bilinear",
                                            align_corners=False)[0]
    return (0.9 * blobs + 0.1 * torch.rand(3, size, size, generator=g)).clamp(0, 1)


def export(model, x, path, opset):
    """Returns PyTorch's outputs for x, by name. The graph's outputs are named as the model's result dict orders
    them (the R-CNNs give boxes, labels, scores; SSD, RetinaNet and FCOS boxes, scores, labels)."""
    with torch.no_grad():
        out = model([x])[0]
    torch.onnx.export(model, ([x],), path, opset_version=opset, input_names=["image"], output_names=list(out.keys()))
    return {k: v.numpy() for k, v in out.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("out")
    ap.add_argument("--size", type=int, default=320)
    ap.add_argument("--classes", type=int, default=4)
    ap.add_argument("--opset", type=int, default=13)
    ap.add_argument("--ref", help="write the input and PyTorch's outputs here (.npz)")
    a = ap.parse_args()
    model = build(a.name, a.classes, a.size)
    x = image(a.size)
    out = export(model, x, a.out, a.opset)
    if a.ref:
        np.savez(a.ref, image=x.numpy(), **out)
        print(f"{a.name}: {len(out['boxes'])} detections", file=sys.stderr)


if __name__ == "__main__":
    main()
