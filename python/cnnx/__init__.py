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
serve many Python threads. cnnx.dask classifies many images on a Dask cluster.
"""
from ._cnnx import Error, Model, ModelMetadata, NodeCheck, TensorInfo, __version__
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
    "Error", "Model", "ModelMetadata", "NodeCheck", "TensorInfo", "__version__",
    "ExecutionMode", "GraphOptimizationLevel", "InferenceSession", "NodeArg", "RunOptions", "SessionOptions",
    "get_all_providers", "get_available_providers", "get_device",
]
