"""--precision bf16 from Python: cnnx.Model(precision=...), the session config entry "cnnx.precision", the
float32 fallback (with one RuntimeWarning) where bfloat16 cannot run natively, and the bfloat16 plan's accuracy
against float32 on torchvision classifiers (random seeded weights, opset 13), run emulated
(CNNX_BFLOAT16=emulate: float32 kernels on the values a bfloat16 computation stores, passes/bfloat16_plan.h) and,
where the CPU has AVX512_BF16 or AMX, on oneDNN's bf16 kernels.

Tolerance, derived from bfloat16's 8-bit significand, not tuned: rounding to bfloat16 moves a value by at most
u = 2^-8 of it. Along the longest path, every op that rounds its output (test_float16's count L: not Relu,
MaxPool, Flatten, ... whose outputs are exact) adds at most u of the value, and a convolution or matmul adds at
most u more from its rounded weights (relative to sum |x||w|); the graph input is rounded once. With these nets'
layers carrying magnitudes at gain about 1 (as test_float16 argues), max |err| <= (2 L + 1) u max |output|."""
import os
import re
import subprocess
import warnings

import numpy as np
import pytest

import cnnx
from test_float16 import export, relu_add_model, roundings_on_longest_path, save
from onnx import TensorProto

U = 2.0 ** -8  # bfloat16's unit roundoff (half an ulp relative, round to nearest)


@pytest.fixture
def emulate(monkeypatch):
    monkeypatch.setenv("CNNX_BFLOAT16", "emulate")


def native_bfloat16_cpu():
    """The CPU has AVX512_BF16 or AMX, and oneDNN is not held below it (ONEDNN_MAX_CPU_ISA)."""
    with open("/proc/cpuinfo") as f:
        flags = set(next((line for line in f if line.startswith("flags")), "").split())
    held = os.environ.get("ONEDNN_MAX_CPU_ISA", "ALL").upper()
    return bool(flags & {"avx512_bf16", "amx_bf16"}) and held in ("ALL", "AVX512_CORE_BF16", "AVX512_CORE_AMX")


def test_precision_option_and_its_fallback(tmp_path):
    path = save(relu_add_model(TensorProto.FLOAT), tmp_path / "m.onnx")
    assert cnnx.Model(path).precision == "fp32"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = cnnx.Model(path, precision="bf16")
    fallbacks = [w for w in caught if issubclass(w.category, RuntimeWarning) and "runs float32" in str(w.message)]
    if native_bfloat16_cpu():  # oneDNN's bf16 kernels, no warning
        assert (m.precision, m.precision_used, len(fallbacks)) == ("bf16", "bf16", 0)
        assert m.precision_note.startswith("native bfloat16")
    else:  # float32, with one warning saying why
        assert (m.precision, m.precision_used, len(fallbacks)) == ("bf16", "fp32", 1)
        assert "no native bfloat16" in m.precision_note
    with pytest.raises(cnnx.Error, match=r"unknown precision 'half' \(expected fp32 or bf16\)"):
        cnnx.Model(path, precision="half")
    assert cnnx.Model(path, precision="bf16", backend="ref").precision_used == "bf16"


def test_session_config_entry(tmp_path, emulate):
    path = save(relu_add_model(TensorProto.FLOAT), tmp_path / "m.onnx")
    o = cnnx.SessionOptions()
    o.add_session_config_entry("cnnx.precision", "bf16")
    s = cnnx.InferenceSession(path, o, providers=["CPUExecutionProvider"])
    assert (s.model.precision, s.model.precision_used) == ("bf16", "bf16")
    x = np.array([[1.0 + 2.0 ** -10, -1.0, 3.0], [0.5, 2.0, 1.0 / 3.0]], np.float32)
    # Elementwise ops reading no value a bf16 op wrote stay float32 (nothing between convolutions or matmuls).
    np.testing.assert_array_equal(s.run(None, {"x": x})[0], np.maximum(x, 0) + x)
    o.add_session_config_entry("cnnx.precision", "fp8")
    with pytest.raises(ValueError, match="session config entry 'cnnx.precision': unknown precision 'fp8'"):
        cnnx.InferenceSession(path, o)


@pytest.fixture(scope="module", params=["resnet18", "mobilenet_v2"])
def classifier(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(request.param)
    return request.param, export(request.param, d / "float32.onnx"), str(d / "float32.onnx")


@pytest.fixture(params=["emulated", "native"])
def bfloat16_kernels(request, monkeypatch):
    """The bfloat16 plan on float32 kernels (CNNX_BFLOAT16=emulate), or on oneDNN's bf16 ones where the CPU has them."""
    if request.param == "emulated":
        monkeypatch.setenv("CNNX_BFLOAT16", "emulate")
    elif not native_bfloat16_cpu():
        pytest.skip("this CPU has no native bfloat16 (AVX512_BF16 or AMX)")
    else:
        monkeypatch.delenv("CNNX_BFLOAT16", raising=False)
    return request.param


def test_bfloat16_plan_accuracy(classifier, bfloat16_kernels):
    # Native kernels sum in another order than the emulation: float32 reassociation, far below the bound.
    name, model, path = classifier
    x = np.random.default_rng(1).standard_normal((1, 3, 64, 64)).astype(np.float32)
    want = cnnx.Model(path).run({"x": x})["y"]
    bf16 = cnnx.Model(path, precision="bf16")
    assert bf16.precision_used == "bf16"
    assert bf16.precision_note.startswith("native" if bfloat16_kernels == "native" else "bfloat16 emulated")
    got = bf16.run({"x": x})["y"]
    L = roundings_on_longest_path(model)
    err = float(np.abs(got - want).max())
    bound = (2 * L + 1) * U * float(np.abs(want).max())
    print(f"{name} ({bfloat16_kernels}): max |err| {err:.3g}, bound {bound:.3g} (L = {L}), {err / bound:.3f} of it")
    assert err <= bound
    assert err > 0  # bfloat16 did round


def test_check_reports_bfloat16_accuracy(shapes_model, shapes_samples, cnnx_tool, tmp_path):
    # A folder of images: top-1 agreement and top-5 overlap over them, per output errors, the nodes adding most.
    folder = tmp_path / "images"
    folder.mkdir()
    for p in shapes_samples:
        os.symlink(p, folder / os.path.basename(p))
    r = subprocess.run([cnnx_tool, "check", shapes_model, str(folder), "--precision", "bf16"], capture_output=True,
                       text=True, check=True)
    how = "native bfloat16" if native_bfloat16_cpu() else "bfloat16 emulated"
    assert f"bfloat16 against float32: {how}" in r.stdout
    m = re.search(r"top-1 agreement: (\d+)/(\d+) \(([\d.]+)\), top-5 overlap: ([\d.]+)", r.stdout)
    assert m, r.stdout
    assert int(m.group(2)) == len(shapes_samples)
    assert 0 <= float(m.group(4)) <= 1
    assert "nodes where the error grows most" in r.stdout
    assert re.search(r"^  \S+\s+(Conv|FusedConv|Gemm|MatMul|FusedMatMul)\s+bf16 ", r.stdout, re.M), r.stdout
