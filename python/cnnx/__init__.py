"""cnnx: a minimal CNN inference engine, from Python.

    import cnnx
    model = cnnx.Model("classifier.onnx", threads=1)       # load and validate once
    y = model(x)                                           # one-input model: numpy in, numpy out
    outputs = model.run({"input": x})                      # {output name: array}

    session = cnnx.InferenceSession("classifier.onnx")     # onnxruntime's API (see cnnx.session)
    logits = session.run(None, {session.get_inputs()[0].name: x})[0]

Errors about the model or the inputs are cnnx.Error (a RuntimeError) with the message the cnnx program
prints. Inputs are read without a copy when they are C-contiguous arrays of the input's dtype, converted once
otherwise; outputs own their buffers. The GIL is released while a model runs, so one Model or session can
serve many Python threads. cnnx.classify and cnnx.detect give the records of `cnnx run` on image files;
cnnx.dask classifies many images on a Dask cluster.
"""
import json as _json
import os as _os

from . import _cnnx
from ._cnnx import (
    Error, Model, ModelMetadata, NodeCheck, RunInfo, TensorInfo, __version__, classify_json, detect_json,
    graph_passes, looks_like_detector,
)
from .session import (
    ExecutionMode,
    GraphOptimizationLevel,
    InferenceSession,
    NodeArg,
    RunOptions,
    SessionOptions,
    get_all_providers,
    get_available_providers,
    get_device,
)

__all__ = [
    "Error", "Model", "ModelMetadata", "NodeCheck", "RunInfo", "TensorInfo", "__version__",
    "classify", "classify_json", "collect_files", "detect", "detect_json", "graph_passes", "looks_like_detector",
    "preprocess",
    "ExecutionMode", "GraphOptimizationLevel", "InferenceSession", "NodeArg", "RunOptions", "SessionOptions",
    "get_all_providers", "get_available_providers", "get_device", "quantize",
]


def quantize(model, calibrate, out, per_channel=True, method="minmax", reduce_range=False, exclude=(), threads=0):
    """Writes a QDQ int8 model of `model` calibrated on the images `calibrate` (a folder or files) to `out` and
    returns its accuracy report: top-1 agreement, top-5 overlap and per-Conv SQNR (cnnx.quantizer)."""
    from .quantizer import quantize as _quantize
    return _quantize(model, calibrate, out, per_channel, method, reduce_range, exclude, threads)


def _as_model(model):
    """A cnnx.Model from a Model, an InferenceSession or a model path."""
    if isinstance(model, Model):
        return model
    if isinstance(model, InferenceSession):
        return model.model
    return Model(model)


def collect_files(paths):
    """The files `cnnx run MODEL DIR_OR_FILES...` classifies, in its order: each folder replaced by every file
    below it (sorted by name, recursively), other paths kept as given."""
    return _cnnx.collect_files([_os.fspath(p) for p in paths])


def preprocess(model, paths):
    """The float32 [N, 3, H, W] batch the cnnx program feeds `model` for these image files: resized, cropped
    and normalized as the model's metadata says (bit-identical to `cnnx run MODEL IMAGES...`)."""
    return _cnnx.preprocess(_as_model(model), [_os.fspath(p) for p in paths])


def classify(model, paths, top=5, batch=0):
    """The records `cnnx run MODEL DIR_OR_FILES... --jsonl` writes, one dict per file in order: folders are
    searched recursively; {"file": F, "top": [{"class": I, "label": L, "probability": P, "score": S}, ...]}, or
    {"file": F, "error": MESSAGE} for a file that could not be classified. batch 0: the model's fixed batch,
    else 8."""
    files = collect_files(paths)
    return [_json.loads(line) for line in classify_json(_as_model(model), files, top, batch)]


def detect(model, paths, threshold=0.5):
    """The records `cnnx run MODEL DIR_OR_FILES... --task detect --jsonl` writes for a detector, one dict per file in
    order: folders are searched recursively; {"file": F, "width": W, "height": H, "detections": [{"box": [x1, y1,
    x2, y2], "class": I, "label": L, "score": S}, ...]} with the detections whose score is at least `threshold`,
    best first, their boxes in the pixels of the image file (the image is resized whole to the model's input, its
    values in [0, 1] unless the model's metadata says otherwise, and each box scaled back); "label" only when the
    model's "cnnx.labels" metadata names the class. {"file": F, "error": MESSAGE} for a file that could not be
    read. Each image runs alone. The outputs cnnx takes for detections (boxes [N, 4] + scores [N] + labels [N] as
    torchvision's detectors give them, or one tensor of rows [1, N, 6] or [1, 1, N, 7]) are listed in the README,
    "Detection"; a model whose outputs are not detections raises cnnx.Error naming them.

        for record in cnnx.detect("ssdlite.onnx", ["photos/"], threshold=0.3):
            for d in record.get("detections", []):
                print(record["file"], d["label"] if "label" in d else d["class"], d["score"], d["box"])
    """
    files = collect_files(paths)
    return [_json.loads(line) for line in detect_json(_as_model(model), files, float(threshold))]
