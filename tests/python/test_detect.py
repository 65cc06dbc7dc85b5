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
