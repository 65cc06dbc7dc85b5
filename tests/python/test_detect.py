"""cnnx.detect against the cnnx program on the same files: the records equal folder mode's JSON lines (bad files
included) and hold the detections the hand-built models of tests/cli/detection_models.py must give; a model whose
outputs are not detections raises cnnx.Error naming them."""
import json
import math
import subprocess
import sys

import numpy as np
import pytest
from onnx import TensorProto
from PIL import Image

import cnnx


@pytest.fixture(scope="module")
def dm(source_dir):
    sys.path.insert(0, str(source_dir / "tests" / "cli"))
    import detection_models
    return detection_models


IMAGES = [("a.png", (128, 144), (255, 128, 0)), ("sub/b.bmp", (64, 48), (30, 200, 140))]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("photos")
    (root / "sub").mkdir()
    for name, size, colour in IMAGES:
        Image.new("RGB", size, colour).save(root / name)
    (root / "sub" / "corrupt.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    return root


def layouts(dm):
    """(name, build(path), box layout)"""
    return [
        ("boxes, scores, labels", lambda p: dm.triple(p, metadata={"cnnx.labels": "\n".join(dm.LABELS)}), "pixels"),
        ("[1,N,4] + [1,N] + int32 [1,N]", lambda p: dm.triple(p, batched=True, labels_dtype=TensorProto.INT32),
         "pixels"),
        ("rows [1,N,6]", lambda p: dm.rows(p, 6, 3), "pixels"),
        ("rows [1,1,N,7]", lambda p: dm.rows(p, 7, 4), "normalized"),
    ]


@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize("threshold", [0.5, 0.3])
def test_detect_gives_the_cli_records(dm, folder, cnnx_tool, tmp_path, index, threshold):
    name, build, layout = layouts(dm)[index]
    path = str(tmp_path / "det.onnx")
    build(path)
    records = cnnx.detect(path, [folder], threshold=threshold)
    cli = subprocess.run([cnnx_tool, "run", path, str(folder), "--threshold", str(threshold)], check=True,
                         capture_output=True, text=True)
    assert records == [json.loads(line) for line in cli.stdout.splitlines()], name
    assert [r["file"] for r in records] == cnnx.collect_files([folder])
    labels = dm.LABELS if index == 0 else None
    for rel, size, colour in IMAGES:
        record = next(r for r in records if r["file"] == str(folder / rel))
        want = dm.expected(colour, *size, threshold, layout, labels=labels)
        got = record["detections"]
        assert (record["width"], record["height"]) == size, (name, rel)
        assert [(d["class"], d.get("label")) for d in got] == [(d["class"], d.get("label")) for d in want], (name, rel)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.float32(g["box"]), np.float32(w["box"]), err_msg=f"{name} {rel}")
            # the float32 mean of H*W equal values (tests/cli/detect_test.py, SCORE_TOL)
            assert math.isclose(g["score"], w["score"], rel_tol=dm.H * dm.W * 2.0 ** -24 + 2.0 ** -21), (name, rel, g, w)
    bad = next(r for r in records if r["file"].endswith("corrupt.png"))
    assert "not a readable PNG, JPEG or BMP" in bad["error"]


def test_detect_takes_a_model_object_and_recognition_is_said(dm, folder, tmp_path):
    dm.triple(str(tmp_path / "det.onnx"))
    dm.rows(str(tmp_path / "rows2.onnx"), 6, 2)
    dm.classifier(str(tmp_path / "cls.onnx"))
    model = cnnx.Model(str(tmp_path / "det.onnx"), threads=1, backend="ref")
    assert cnnx.looks_like_detector(model)
    # [N, 6] is also a classifier of 6 classes: detected only when asked (cnnx.detect asks)
    rows2 = cnnx.Model(str(tmp_path / "rows2.onnx"))
    assert not cnnx.looks_like_detector(rows2)
    assert [len(r["detections"]) for r in cnnx.detect(rows2, [folder / "a.png"])] == [2]
    assert not cnnx.looks_like_detector(cnnx.Model(str(tmp_path / "cls.onnx")))
    assert cnnx.detect(model, [folder / "a.png"], threshold=2) == [
        {"file": str(folder / "a.png"), "width": 128, "height": 144, "detections": []}]


def test_detect_refuses_what_is_not_a_detector(dm, folder, tmp_path):
    dm.classifier(str(tmp_path / "cls.onnx"))
    with pytest.raises(cnnx.Error, match=r"the model's outputs are not detections: 'logits' float32 \[1,4\]"):
        cnnx.detect(str(tmp_path / "cls.onnx"), [folder / "a.png"])
    dm.triple(str(tmp_path / "batch2.onnx"), batch=2)
    with pytest.raises(cnnx.Error, match="fixed batch of 2: detection runs one image per run"):
        cnnx.detect(str(tmp_path / "batch2.onnx"), [folder])
    dm.triple(str(tmp_path / "det.onnx"))
    with pytest.raises(cnnx.Error, match="threshold must be a finite number, got nan"):
        cnnx.detect(str(tmp_path / "det.onnx"), [folder / "a.png"], threshold=float("nan"))


class _NmsDetector:
    """A PyTorch module written like torchvision's detectors: [3, H, W] in [0, 1] -> boxes [K, 4] (input pixels),
    scores [K], labels int64 [K], kept by torchvision.ops.nms (exported as NonMaxSuppression, Gather and Slice)."""

    @staticmethod
    def make():
        import torch
        import torchvision

        class Det(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = torch.nn.Conv2d(3, 6, 8, stride=8)

            def forward(self, x):
                f = self.conv(x[None])[0]  # [6, H/8, W/8]
                h, w = f.shape[1], f.shape[2]
                ys, xs = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32),
                                        indexing="ij")
                cx, cy = xs.reshape(-1) * 8 + 4, ys.reshape(-1) * 8 + 4
                size = 8 + 16 * torch.sigmoid(f[0].reshape(-1))
                boxes = torch.stack([cx - size, cy - size, cx + size, cy + size], 1)
                scores, labels = torch.sigmoid(f[1:].reshape(5, -1).t()).max(1)
                keep = torchvision.ops.nms(boxes, scores, 0.3)[:20]
                return boxes[keep], scores[keep], labels[keep] + 1

        torch.manual_seed(0)
        return Det().eval()


@pytest.mark.parametrize("backend", ["dnnl", "ref"])
def test_a_pytorch_export_with_nms_gives_pytorchs_detections(tmp_path, backend):
    """The image at the model's size (no resize: the input is exactly pixels / 255), so PyTorch sees what cnnx feeds."""
    import torch
    net = _NmsDetector.make()
    torch.onnx.export(net, (torch.rand(3, 96, 128),), str(tmp_path / "nms.onnx"), opset_version=13,
                      input_names=["images"], output_names=["boxes", "scores", "labels"])
    pixels = np.random.default_rng(2).integers(0, 256, (96, 128, 3), np.uint8)
    Image.fromarray(pixels).save(tmp_path / "exact.png")
    with torch.no_grad():
        boxes, scores, labels = net(torch.from_numpy(pixels.astype(np.float32) * np.float32(1 / 255)).permute(2, 0, 1))
    model = cnnx.Model(str(tmp_path / "nms.onnx"), threads=1, backend=backend)
    assert cnnx.looks_like_detector(model)
    (record,) = cnnx.detect(model, [tmp_path / "exact.png"], threshold=0)
    order = np.argsort(-scores.numpy(), kind="stable")
    got = record["detections"]
    assert [d["class"] for d in got] == labels.numpy()[order].tolist()
    # Each box is c +- (8 + 16 sigmoid(conv)), the conv a sum of 192 products of |w| <= 1/sqrt(192) and x in [0, 1]:
    # float32 sums err by at most 192 * 2^-24 * 192 / sqrt(192) ~ 1.6e-4, times 16 * sigmoid' <= 4 in a box, plus
    # the coordinate's own rounding (< 2^-16 at 200); the scores by sigmoid' <= 1/4 of the conv's error.
    np.testing.assert_allclose(np.float32([d["box"] for d in got]), boxes.numpy()[order], rtol=0, atol=7e-4)
    np.testing.assert_allclose([d["score"] for d in got], scores.numpy()[order], rtol=0, atol=5e-5)
