"""cnnx.InferenceSession, onnxruntime's API: torchvision exports (random weights, models/export_torchvision.py)
against PyTorch's outputs, symbolic dims, metadata, output selection, providers, and an onnxruntime script
run with only its import changed."""
import threading

import numpy as np
import onnx
import pytest

import cnnx

# As tests/models/compare_outputs.py: max|cnnx - PyTorch| / max|PyTorch| (derived there).
TOLERANCE = 1e-4


def assert_matches_pytorch(actual, expected):
    assert actual.shape == expected.shape and actual.dtype == np.float32
    peak = float(np.max(np.abs(expected)))
    error = float(np.max(np.abs(actual.astype(np.float64) - expected))) / peak
    assert error <= TOLERANCE, f"max error / max|expected| {error:.3e} > {TOLERANCE}"
    np.testing.assert_array_equal(actual.argmax(axis=1), expected.argmax(axis=1))


@pytest.fixture(scope="module")
def mobilenet(model_data):
    return model_data / "mobilenet_v2"


@pytest.fixture(scope="module")
def dynamic(model_data):
    return model_data / "mobilenet_v3_small_batch2_dynamic_opset17" / "mobilenet_v3_small"


ORT_SCRIPT = '''
options = ort.SessionOptions()
options.intra_op_num_threads = 1
options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
session = ort.InferenceSession(model_path, sess_options=options, providers=ort.get_available_providers())
input_name = session.get_inputs()[0].name
output_name = session.get_outputs()[0].name
scores = session.run([output_name], {input_name: image})[0]
top5 = np.argsort(-scores[0])[:5]
'''


def test_an_onnxruntime_script_runs_with_its_import_changed(mobilenet):
    scope = {"ort": cnnx, "np": np, "model_path": str(mobilenet / "model.onnx"),
             "image": np.load(mobilenet / "input.npy")}
    exec(ORT_SCRIPT, scope)
    expected = np.load(mobilenet / "expected.npy")
    assert_matches_pytorch(scope["scores"], expected)
    assert list(scope["top5"]) == list(np.argsort(-expected[0], kind="stable")[:5])


def test_fixed_shape_model(mobilenet):
    session = cnnx.InferenceSession(str(mobilenet / "model.onnx"), providers=["CPUExecutionProvider"])
    (x,), (y,) = session.get_inputs(), session.get_outputs()
    assert (x.name, x.shape, x.type) == ("input", [1, 3, 224, 224], "tensor(float)")
    assert (y.name, y.shape, y.type) == ("logits", [1, 1000], "tensor(float)")
    outputs = session.run(None, {"input": np.load(mobilenet / "input.npy")})
    assert len(outputs) == 1
    assert_matches_pytorch(outputs[0], np.load(mobilenet / "expected.npy"))


def test_symbolic_batch(dynamic):
    session = cnnx.InferenceSession(str(dynamic / "model.onnx"))
    assert session.get_inputs()[0].shape == ["batch", 3, 224, 224]
    assert session.get_outputs()[0].shape == ["batch", 1000]
    x, expected = np.load(dynamic / "input.npy"), np.load(dynamic / "expected.npy")
    assert x.shape[0] == 2
    assert_matches_pytorch(session.run(None, {"input": x})[0], expected)
    assert_matches_pytorch(session.run(["logits"], {"input": x[1:]})[0], expected[1:])


def test_modelmeta_is_the_files(mobilenet):
    path = str(mobilenet / "model.onnx")
    proto = onnx.load(path, load_external_data=False)
    meta = cnnx.InferenceSession(path).get_modelmeta()
    assert meta.custom_metadata_map == {p.key: p.value for p in proto.metadata_props}
    assert meta.custom_metadata_map["cnnx.input_size"] == "224,224"
    assert (meta.producer_name, meta.graph_name, meta.domain, meta.description, meta.version) == (
        proto.producer_name, proto.graph.name, proto.domain, proto.doc_string, proto.model_version)
    assert meta.producer_name == "pytorch"


def test_session_from_bytes_and_threads(mobilenet):
    with open(mobilenet / "model.onnx", "rb") as f:
        options = cnnx.SessionOptions()
        options.intra_op_num_threads = 1
        session = cnnx.InferenceSession(f.read(), options)
    assert session.model.threads == 1 and session.get_session_options() is options
    x, expected = np.load(mobilenet / "input.npy"), np.load(mobilenet / "expected.npy")
    first = session.run(None, {"input": x})[0]
    results = [None] * 3

    def worker(i):
        results[i] = [session.run(None, {"input": x})[0] for _ in range(2)]

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for outputs in results:
        for y in outputs:
            np.testing.assert_array_equal(y, first)
    assert_matches_pytorch(first, expected)


def test_providers_and_errors(shapes_model):
    assert cnnx.get_available_providers() == ["CPUExecutionProvider"] and cnnx.get_device() == "CPU"
    session = cnnx.InferenceSession(shapes_model, providers=[("CPUExecutionProvider", {})])
    assert session.get_providers() == ["CPUExecutionProvider"]
    with pytest.raises(ValueError, match="provider 'CUDAExecutionProvider' is not available"):
        cnnx.InferenceSession(shapes_model, providers=["CUDAExecutionProvider", "CPUExecutionProvider"])
    x = np.zeros((1, 3, 64, 64), np.float32)
    with pytest.raises(cnnx.Error, match="the model has no output named 'probabilities'"):
        session.run(["probabilities"], {"image": x})
    with pytest.raises(cnnx.Error, match="input 'image' is not given"):
        session.run(None, {"input": x})
    with pytest.raises(cnnx.Error, match="input 'image' must have shape"):
        session.run(None, {"image": x[0]})


def test_disable_all_runs_the_graph_as_written(mobilenet):
    """ORT_DISABLE_ALL turns every cnnx graph pass off, as the CLI's --disable-pass for each does (same bits
    with a pinned team); other levels run them all. Both stay within PyTorch's tolerance."""
    passes = cnnx.graph_passes()
    assert "fuse-conv" in passes and "fold-batchnorm" in passes and len(set(passes)) == len(passes)
    path = str(mobilenet / "model.onnx")
    x, expected = np.load(mobilenet / "input.npy"), np.load(mobilenet / "expected.npy")
    by_level = {}
    for level in (cnnx.GraphOptimizationLevel.ORT_DISABLE_ALL, cnnx.GraphOptimizationLevel.ORT_ENABLE_BASIC):
        options = cnnx.SessionOptions()
        options.intra_op_num_threads = 1
        options.graph_optimization_level = level
        session = cnnx.InferenceSession(path, options)
        by_level[level] = session
        assert_matches_pytorch(session.run(None, {"input": x})[0], expected)
    off = by_level[cnnx.GraphOptimizationLevel.ORT_DISABLE_ALL]
    assert off.model.disable_passes == passes
    assert by_level[cnnx.GraphOptimizationLevel.ORT_ENABLE_BASIC].model.disable_passes == []
    unfused = cnnx.Model(path, threads=1, disable_passes=passes)
    np.testing.assert_array_equal(off.run(None, {"input": x})[0], unfused.run_list({"input": x})[0])
