"""cnnx.preprocess and cnnx.classify against the cnnx program on the same files: the model's output on the
preprocessed batch equals `cnnx run --save` bit for bit, and the records equal folder mode's JSON lines, bad
files included."""
import json
import subprocess

import numpy as np
import pytest
from PIL import Image

import cnnx


def run_cli(cnnx_tool, *args):
    return subprocess.run([cnnx_tool, *map(str, args)], check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def folder(tmp_path_factory, shapes_samples):
    """The samples in two folders, with files cnnx cannot classify among them."""
    root = tmp_path_factory.mktemp("images")
    for i, sample in enumerate(shapes_samples):
        sub = root / ("a" if i % 2 else "b")
        sub.mkdir(exist_ok=True)
        (sub / f"{i:02d}.png").write_bytes(open(sample, "rb").read())
    (root / "notes.txt").write_text("not an image")
    (root / "a" / "corrupt.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    (root / "b" / "broken.jpg").symlink_to(root / "missing.jpg")
    Image.fromarray(np.random.default_rng(0).integers(0, 255, (90, 120, 3), np.uint8)).save(root / "b" / "wide.bmp")
    return root


def test_collect_files(folder):
    files = cnnx.collect_files([str(folder)])
    assert len(files) == 14 and files == sorted(files)
    assert cnnx.collect_files([str(folder / "a" / "01.png"), str(folder / "nowhere")]) == [
        str(folder / "a" / "01.png"), str(folder / "nowhere")]


@pytest.mark.parametrize("backend", ["dnnl", "ref"])
def test_preprocess_feeds_what_the_cli_feeds(shapes_model, shapes_samples, cnnx_tool, tmp_path, backend):
    model = cnnx.Model(shapes_model, threads=1, backend=backend)
    batch = cnnx.preprocess(model, shapes_samples)
    assert (batch.dtype, batch.shape) == (np.float32, (len(shapes_samples), 3, 64, 64))
    run_cli(cnnx_tool, "run", shapes_model, *shapes_samples, "--threads", "1", "--backend", backend,
            "--save", tmp_path)
    np.testing.assert_array_equal(model(batch), np.load(tmp_path / "logits.npy"))


def test_preprocess_normalizes_as_the_metadata_says(shapes_model, tmp_path):
    """A plain-colour image (which any resize filter keeps as it is): (p / 255 - mean) / std per channel, RGB."""
    model = cnnx.Model(shapes_model)
    mean = np.array([float(v) for v in model.metadata["cnnx.mean"].split(",")], np.float32)
    std = np.array([float(v) for v in model.metadata["cnnx.std"].split(",")], np.float32)
    rgb = np.array([200, 100, 30], np.float32)
    Image.new("RGB", (80, 64), tuple(int(v) for v in rgb)).save(tmp_path / "plain.png")
    batch = cnnx.preprocess(model, [tmp_path / "plain.png"])
    expected = (rgb / 255 - mean) / std
    assert batch.shape == (1, 3, 64, 64)
    np.testing.assert_allclose(batch[0], np.broadcast_to(expected[:, None, None], (3, 64, 64)), rtol=1e-5)


def test_preprocess_keeps_an_image_of_the_input_size(shapes_model, tmp_path):
    """A noise image already 64x64 is not resized (a filter at scale 1 would blur it): each pixel is
    (p * scale - mean) / std, as models/shapes/README.md promises."""
    model = cnnx.Model(shapes_model)
    mean = np.array([float(v) for v in model.metadata["cnnx.mean"].split(",")], np.float32)
    std = np.array([float(v) for v in model.metadata["cnnx.std"].split(",")], np.float32)
    pixels = np.random.default_rng(1).integers(0, 256, (64, 64, 3), np.uint8)
    Image.fromarray(pixels).save(tmp_path / "noise.png")
    batch = cnnx.preprocess(model, [tmp_path / "noise.png"])
    expected = (pixels.astype(np.float32) * np.float32(1 / 255) - mean) / std
    np.testing.assert_allclose(batch[0], expected.transpose(2, 0, 1), rtol=1e-6, atol=1e-6)


def test_preprocess_names_the_bad_file(shapes_model, folder):
    with pytest.raises(cnnx.Error, match="corrupt.png"):
        cnnx.preprocess(shapes_model, [folder / "a" / "01.png", folder / "a" / "corrupt.png"])


@pytest.mark.parametrize("batch", [1, 3, 8])
def test_classify_gives_the_cli_records(shapes_model, folder, cnnx_tool, tmp_path, batch):
    out = tmp_path / "cli.jsonl"
    run_cli(cnnx_tool, "run", shapes_model, folder, "--batch", batch, "--jsonl", out)
    lines = out.read_text().splitlines()
    model = cnnx.Model(shapes_model)
    assert cnnx.classify_json(model, cnnx.collect_files([str(folder)]), 5, batch) == lines
    records = cnnx.classify(model, [folder], batch=batch)
    assert records == [json.loads(line) for line in lines]
    errors = {r["file"].rsplit("/", 1)[1] for r in records if "error" in r}
    assert errors == {"notes.txt", "corrupt.png", "broken.jpg"}
    assert all(len(r["top"]) == 5 and r["top"][0]["label"] for r in records if "top" in r)


def test_classify_takes_a_session_or_a_path(shapes_model, shapes_samples):
    expected = cnnx.classify(cnnx.Model(shapes_model), shapes_samples, top=2)
    assert cnnx.classify(cnnx.InferenceSession(shapes_model), shapes_samples, top=2) == expected
    assert cnnx.classify(shapes_model, shapes_samples, top=2) == expected
    assert [len(r["top"]) for r in expected] == [2] * len(shapes_samples)
    with pytest.raises(cnnx.Error, match="top must be at least 1"):
        cnnx.classify(shapes_model, shapes_samples, top=0)
