"""cnnx.Model, the Pythonic face: inputs and outputs, runs against the cnnx program, array conversion, errors
named like the C++ API's, output lifetime, threads, check() against `cnnx check`."""
import gc
import os
import subprocess
import threading

import numpy as np
import onnx
import onnx.helper as oh
import pytest

import cnnx


def shapes_batch(n=2, seed=0):
    return np.random.default_rng(seed).standard_normal((n, 3, 64, 64), dtype=np.float32)


def cli_logits(cnnx_tool, model, x, tmp_path, *args):
    np.save(tmp_path / "x.npy", x)
    subprocess.run([cnnx_tool, "run", model, str(tmp_path / "x.npy"), "--save", str(tmp_path / "out"), *args],
                   check=True, capture_output=True)
    return np.load(tmp_path / "out/logits.npy")


def cli_error(cnnx_tool, *args):
    r = subprocess.run([cnnx_tool, *args], capture_output=True, text=True)
    assert r.returncode == 1, r
    prefix = "cnnx: error: "
    assert r.stderr.startswith(prefix), r.stderr
    return r.stderr[len(prefix):].strip()


def test_inputs_outputs_metadata(shapes_model):
    model = cnnx.Model(shapes_model)
    (x,), (y,) = model.inputs, model.outputs
    assert (x.name, x.shape, x.type, x.dtype) == ("image", ["batch", 3, 64, 64], "tensor(float)", np.float32)
    assert (y.name, y.shape, y.type) == ("logits", ["batch", 5], "tensor(float)")
    assert model.metadata["cnnx.labels"].split("\n") == ["circle", "square", "triangle", "star", "cross"]
    assert (model.threads, model.backend, model.verify) == (0, "dnnl", False)
    assert "image" in repr(x)


@pytest.mark.parametrize("backend", ["dnnl", "ref"])
def test_run_matches_the_cli(shapes_model, cnnx_tool, tmp_path, backend):
    x = shapes_batch(3)
    model = cnnx.Model(shapes_model, threads=1, backend=backend)
    out = model.run({"image": x})
    assert list(out) == ["logits"]
    y = out["logits"]
    assert (y.dtype, y.shape) == (np.float32, (3, 5))
    expected = cli_logits(cnnx_tool, shapes_model, x, tmp_path, "--threads", "1", "--backend", backend)
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(model(x), y)
    np.testing.assert_array_equal(model.run_list({"image": x})[0], y)


def test_disabled_passes_and_kernels_plan_as_the_cli_does(shapes_model, cnnx_tool, tmp_path):
    x = shapes_batch(2)
    off = {"disable_passes": ["fuse-conv"], "disable_kernels": ["Conv:dnnl"]}
    model = cnnx.Model(shapes_model, threads=1, **off)
    assert (model.disable_passes, model.disable_kernels) == (["fuse-conv"], ["Conv:dnnl"])
    expected = cli_logits(cnnx_tool, shapes_model, x, tmp_path, "--threads", "1", "--disable-pass", "fuse-conv",
                          "--disable-kernel", "Conv:dnnl")
    np.testing.assert_array_equal(model(x), expected)
    # check() lists the nodes that ran a kernel other than their reference one
    assert {c.kernel for c in cnnx.Model(shapes_model, disable_passes=["fuse-conv"]).check(x) if c.op_type == "Conv"} == {"dnnl"}
    assert "Conv" not in {c.op_type for c in model.check(x)}
    with pytest.raises(cnnx.Error) as e:
        cnnx.Model(shapes_model, disable_kernels=["nope"])
    assert str(e.value) == cli_error(cnnx_tool, "run", shapes_model, "--disable-kernel", "nope")


def test_load_from_bytes_and_pathlike(shapes_model):
    import pathlib
    x = shapes_batch(1)
    a = cnnx.Model(shapes_model, threads=1)(x)
    b = cnnx.Model(pathlib.Path(shapes_model), threads=1)(x)
    with open(shapes_model, "rb") as f:
        c = cnnx.Model(f.read(), threads=1)(x)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, c)


# Arrays that are not C-contiguous float32 are converted once; each must give exactly the result of its
# contiguous float32 copy (a strided or byte-swapped array read as if it were contiguous would not).
def converted_inputs():
    base = shapes_batch(4, seed=1)
    wide = np.zeros((4, 3, 64, 128), np.float32)
    wide[..., ::2] = base
    return {
        "reversed": base[::-1],
        "every other row": shapes_batch(8, seed=2)[::2],
        "strided columns": wide[..., ::2],
        "fortran order": np.asfortranarray(base),
        "transposed": np.ascontiguousarray(base.transpose(0, 1, 3, 2)).transpose(0, 1, 3, 2),
        "float64": base.astype(np.float64),
        "big-endian": base.astype(">f4"),
        "float16": base.astype(np.float16),
        "int32": (base * 10).astype(np.int32),
        "read-only": np.frombuffer(base.tobytes(), np.float32).reshape(base.shape),
        "nested list": base[:1].tolist(),
        "unaligned": np.frombuffer(b"\0" + base.tobytes(), np.float32, offset=1).reshape(base.shape),
    }


@pytest.mark.parametrize("kind", list(converted_inputs()))
def test_converted_inputs(shapes_model, kind):
    x = converted_inputs()[kind]
    model = cnnx.Model(shapes_model, threads=1)
    expected = model(np.ascontiguousarray(x, dtype=np.float32))
    before = np.array(x, copy=True)
    np.testing.assert_array_equal(model(x), expected, err_msg=kind)
    np.testing.assert_array_equal(np.asarray(x), before, err_msg=f"{kind}: the input was changed")


@pytest.mark.parametrize("feeds, message", [
    ({"image": np.zeros((1, 3, 64), np.float32)}, "input 'image' must have shape [?,3,64,64], got [1,3,64]"),
    ({"image": np.zeros((1, 3, 32, 64), np.float32)}, "input 'image' must have shape [?,3,64,64], got [1,3,32,64]"),
    ({"image": np.zeros((1, 3, 64, 64), np.complex64)}, "input 'image' must be float32, got complex64"),
    ({"image": np.array([["a"]])}, "input 'image' must be float32, got <U1"),
    ({"image": [[1.0], [2.0, 3.0]]}, "input 'image' is not an array"),
    ({}, "input 'image' is not given"),
    ({"image": np.zeros((1, 3, 64, 64), np.float32), "extra": np.zeros(1)}, "the model has no input named 'extra'"),
])
def test_bad_inputs_name_the_input(shapes_model, feeds, message):
    model = cnnx.Model(shapes_model)
    with pytest.raises(cnnx.Error) as e:
        model.run(feeds)
    assert message in str(e.value)
    assert isinstance(e.value, RuntimeError)


def test_errors_carry_the_cli_message(cnnx_tool, tmp_path):
    missing = str(tmp_path / "missing.onnx")
    with pytest.raises(cnnx.Error) as e:
        cnnx.Model(missing)
    assert str(e.value) == cli_error(cnnx_tool, "inspect", missing)
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(b"\x08\x07\x12\xff\xff\xff\xff\x0f")
    with pytest.raises(cnnx.Error) as e:
        cnnx.Model(str(garbage))
    assert str(e.value) == cli_error(cnnx_tool, "inspect", str(garbage))
    with pytest.raises(cnnx.Error, match="unknown backend 'gpu'"):
        cnnx.Model(str(garbage), backend="gpu")


def test_outputs_outlive_the_model(shapes_model):
    x = shapes_batch(2)
    model = cnnx.Model(shapes_model, threads=1)
    y = model(x)
    expected = y.copy()
    del model
    gc.collect()
    for _ in range(3):  # runs of another model reuse freed memory
        cnnx.Model(shapes_model, threads=1)(shapes_batch(2, seed=5))
    np.testing.assert_array_equal(y, expected)
    assert y.flags.writeable and y.flags.c_contiguous
    y[:] = 0  # the caller's own array


def test_one_model_many_threads(shapes_model):
    model = cnnx.Model(shapes_model, threads=1)
    inputs = [shapes_batch(1 + i % 3, seed=i) for i in range(8)]
    expected = [model(x) for x in inputs]
    failures = []

    def worker(t):
        for r in range(25):
            i = (t + r) % len(inputs)
            if not np.array_equal(model(inputs[i]), expected[i]):
                failures.append((t, r, i))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_run_info_tells_the_team_a_run_used(shapes_model):
    x = {"image": shapes_batch(1)}
    info = cnnx.RunInfo()
    assert info.threads == 0  # no run yet
    cnnx.Model(shapes_model, threads=1).run(x, run_info=info)
    assert info.threads == 1
    cnnx.Model(shapes_model, threads=2).run_list(x, run_info=info)
    assert info.threads == 2
    assert repr(info) == "RunInfo(threads=2)"
    cnnx.Model(shapes_model).run(x, info)  # the default team: the whole one or the calling thread alone
    assert 1 <= info.threads <= len(os.sched_getaffinity(0))
    with pytest.raises(TypeError):
        cnnx.Model(shapes_model).run(x, run_info=2)


def test_check_lists_the_nodes_cnnx_check_prints(shapes_model, cnnx_tool, tmp_path):
    x = shapes_batch(1)
    np.save(tmp_path / "x.npy", x)
    checks = cnnx.Model(shapes_model).check(x)
    assert checks and all(isinstance(c, cnnx.NodeCheck) for c in checks)
    assert all(c.within for c in checks), checks
    printed = subprocess.run([cnnx_tool, "check", shapes_model, str(tmp_path / "x.npy")], check=True,
                             capture_output=True, text=True).stdout.splitlines()
    rows = [line.split() for line in printed[1:-1]]
    assert [(c.node, c.op_type, c.kernel) for c in checks] == [tuple(r[:3]) for r in rows]
    assert printed[-1].startswith(f"{len(checks)} nodes checked")
    assert cnnx.Model(shapes_model).check({"image": x})[0].node == checks[0].node


def test_verify_and_reference_backend(shapes_model):
    x = shapes_batch(2)
    verified = cnnx.Model(shapes_model, verify=True)(x)
    reference = cnnx.Model(shapes_model, backend="ref")(x)
    np.testing.assert_allclose(verified, reference, rtol=1e-4, atol=1e-4)


def tiny_model(path, elem_type, dims):
    """y = x + x with x of `elem_type` and shape `dims` (ints, dim_param names, or None for an unnamed dim)."""
    x = oh.make_tensor_value_info("x", elem_type, dims)
    y = oh.make_tensor_value_info("y", elem_type, dims)
    graph = oh.make_graph([oh.make_node("Add", ["x", "x"], ["y"])], "tiny", [x], [y], doc_string="doubles x")
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 13)], producer_name="tests", domain="org.test",
                          model_version=7, doc_string="a tiny model")
    oh.set_model_props(model, {"author": "cnnx", "cnnx.labels": ""})
    onnx.save(model, path)
    return path


def test_symbolic_and_unnamed_dims(tmp_path):
    model = cnnx.Model(tiny_model(str(tmp_path / "m.onnx"), onnx.TensorProto.FLOAT, ["N", None, 4]))
    assert model.inputs[0].shape == ["N", None, 4]
    assert model.outputs[0].shape == ["N", None, 4]
    meta = model.modelmeta
    assert (meta.producer_name, meta.graph_name, meta.domain, meta.description, meta.graph_description,
            meta.version) == ("tests", "tiny", "org.test", "a tiny model", "doubles x", 7)
    assert meta.custom_metadata_map == model.metadata == {"author": "cnnx", "cnnx.labels": ""}
    np.testing.assert_array_equal(model(np.ones((2, 3, 4), np.float32)), np.full((2, 3, 4), 2, np.float32))


def test_integer_inputs(tmp_path):
    model = cnnx.Model(tiny_model(str(tmp_path / "m.onnx"), onnx.TensorProto.INT64, [3]))
    assert (model.inputs[0].type, model.inputs[0].dtype) == ("tensor(int64)", np.int64)
    y = model(np.array([1, 2, 3], np.int32))  # int32 -> int64: same kind, converted
    assert (y.dtype, y.tolist()) == (np.int64, [2, 4, 6])
    with pytest.raises(cnnx.Error, match="input 'x' must be int64, got float32"):
        model(np.array([1, 2, 3], np.float32))
