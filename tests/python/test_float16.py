"""float16 and bfloat16 models: numpy float16 in and out of cnnx.Model, bfloat16 refused clearly, and torchvision
classifiers (random seeded weights, exported by PyTorch at opset 13) converted to float16 the ways float16 models
are shipped, run against a float32 computation of the same float16 values.

The conversions (what onnxconverter-common's float16 converter and `.half()` exports make):
  weights   every float initializer stored as float16, read through Cast(to float32) (IS-Net's export): the
            Casts fold at load, so the model computes in float32 on the float16 values.
  graph     the whole graph in float16, float16 input and output.
  graph_io  the whole graph in float16 with float32 input and output, through Casts.

The reference is the float32 model whose initializers are the same float16 values (as float32) run on the same
float16-rounded input, computed by cnnx in float32 (cnnx's float32 path is checked against PyTorch by the model
parity tests). Tolerances, derived from float16 rounding, not tuned:
  weights   identical bits: after folding, both graphs hold the same float32 weights and compute the same way.
  graph*    every op that rounds its float32 result to float16 (Conv, Gemm, Add, GlobalAveragePool, ...; not
            Relu, Clip, MaxPool, Flatten, Identity, whose float16 output is exact) adds at most half an ulp,
            2^-11 relative to the value it rounds (u). Along the longest path of L such ops, with the layers of
            these nets carrying magnitudes through at gain about 1 (BatchNorm folded into the convolutions,
            Kaiming-initialized), the output is off by at most L * u * max|output| (plus L * 2^-25 absolute
            for the smallest values, float16's subnormal half-ulp)."""
import os
import re
import sys

import numpy as np
import onnx
import onnx.helper as oh
import pytest
from onnx import TensorProto

import cnnx

sys.path.insert(0, os.path.join(os.environ.get("CNNX_SOURCE_DIR", ""), "models"))
from float16_convert import graph_as_float16, rounded_to_float16, weights_as_float16  # noqa: E402

H, F, B = TensorProto.FLOAT16, TensorProto.FLOAT, TensorProto.BFLOAT16
U = 2.0 ** -11  # float16's unit roundoff (half an ulp relative, round to nearest)


def save(model, path):
    onnx.save(model, str(path))
    return str(path)


def relu_add_model(elem):
    n = oh.make_node
    return oh.make_model(oh.make_graph([n("Relu", ["x"], ["r"]), n("Add", ["r", "x"], ["y"])], "g",
                                       [oh.make_tensor_value_info("x", elem, [2, 3])],
                                       [oh.make_tensor_value_info("y", elem, [2, 3])]),
                         opset_imports=[oh.make_opsetid("", 13)])


def test_float16_arrays_in_and_out(tmp_path):
    model = cnnx.Model(save(relu_add_model(H), tmp_path / "m.onnx"))
    (x,), (y,) = model.inputs, model.outputs
    assert (x.type, x.dtype, y.type) == ("tensor(float16)", np.float16, "tensor(float16)")
    a = np.array([[-1.5, 0.1, 40000.0], [np.nan, -np.inf, 6e-8]], np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        want = np.maximum(a, np.float16(0)) + a  # numpy's float16 arithmetic rounds each op's result to float16
    got = model.run({"x": a})["y"]
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, want)  # 40000 + 40000 overflows to inf, as in float16
    # float32 arrays are converted to the float16 input (numpy's same_kind rule), as other types are.
    np.testing.assert_array_equal(model.run({"x": a.astype(np.float32)})["y"], want)
    # float16-compute is a lowering, not an optimization: disabling every pass (onnxruntime's ORT_DISABLE_ALL)
    # leaves it on, and naming it is an error.
    plain = cnnx.Model(save(relu_add_model(H), tmp_path / "m.onnx"), disable_passes=cnnx.graph_passes())
    np.testing.assert_array_equal(plain.run({"x": a})["y"], want)
    with pytest.raises(cnnx.Error, match="unknown graph pass 'float16-compute'"):
        cnnx.Model(save(relu_add_model(H), tmp_path / "m.onnx"), disable_passes=["float16-compute"])


def test_bfloat16_has_no_numpy_type(tmp_path):
    model = cnnx.Model(save(relu_add_model(B), tmp_path / "m.onnx"))
    (x,) = model.inputs
    assert (x.type, x.dtype) == ("tensor(bfloat16)", None)
    with pytest.raises(cnnx.Error, match="bfloat16"):
        model.run({"x": np.zeros((2, 3), np.float32)})


# ---- torchvision classifiers in float16 ----

def export(name, path):
    import torch
    import torchvision
    torch.manual_seed(0)
    net = getattr(torchvision.models, name)(num_classes=10).eval()
    with torch.no_grad():  # BatchNorm statistics that do something (the export folds them into the Convs)
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
    torch.onnx.export(net, torch.randn(1, 3, 64, 64), str(path), opset_version=13, input_names=["x"],
                      output_names=["y"])
    return onnx.load(str(path))


# Ops whose float16 output is exact (they select, clamp or move float16 values) add no rounding.
EXACT_IN_FLOAT16 = {"Relu", "Clip", "MaxPool", "Flatten", "Reshape", "Identity", "Cast", "Constant", "Shape",
                    "Gather", "Unsqueeze", "Concat", "Squeeze", "Transpose"}


def roundings_on_longest_path(model):
    depth = {}
    for node in model.graph.node:  # torch.onnx writes nodes in topological order
        d = max([depth.get(i, 0) for i in node.input] + [0]) + (node.op_type not in EXACT_IN_FLOAT16)
        for o in node.output:
            depth[o] = d
    return max(depth[o.name] for o in model.graph.output)


@pytest.fixture(scope="module", params=["resnet18", "mobilenet_v2", "squeezenet1_1"])
def classifier(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(request.param)
    return request.param, d, export(request.param, d / "float32.onnx")


def run(path, x, backend):
    return cnnx.Model(path, backend=backend).run({"x": x})["y"]


@pytest.mark.parametrize("backend", ["dnnl", "ref"])
def test_float16_weights_through_casts(classifier, backend):
    name, d, model = classifier
    x = np.random.default_rng(1).standard_normal((1, 3, 64, 64)).astype(np.float32)
    want = run(save(rounded_to_float16(model), d / "reference.onnx"), x, backend)
    path = save(weights_as_float16(model), d / "weights_fp16.onnx")
    assert os.path.getsize(path) < 0.6 * os.path.getsize(d / "float32.onnx")
    got = run(path, x, backend)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", ["dnnl", "ref"])
@pytest.mark.parametrize("keep_io_float32", [False, True], ids=["graph", "graph_io"])
def test_whole_graph_float16(classifier, backend, keep_io_float32):
    name, d, model = classifier
    x16 = np.random.default_rng(1).standard_normal((1, 3, 64, 64)).astype(np.float16)
    want = run(save(rounded_to_float16(model), d / "reference.onnx"), x16.astype(np.float32), backend)
    half = graph_as_float16(model, keep_io_float32)
    path = save(half, d / f"graph_fp16_{keep_io_float32}.onnx")
    got = run(path, x16.astype(np.float32) if keep_io_float32 else x16, backend)
    assert got.dtype == (np.float32 if keep_io_float32 else np.float16)
    L = roundings_on_longest_path(model)
    err = float(np.max(np.abs(got.astype(np.float64) - want)))
    bound = L * U * float(np.max(np.abs(want))) + L * 2.0 ** -25
    print(f"{name} {backend} io32={keep_io_float32}: max |err| {err:.3g}, bound {bound:.3g} (L = {L}), "
          f"{err / bound:.2f} of it")
    assert err <= bound
    assert np.argmax(got) == np.argmax(want)
    # The float16 values between ops are exact float16: the graph's output is float16 values either way.
    np.testing.assert_array_equal(got.astype(np.float16).astype(np.float32), got.astype(np.float32))


def every_value_an_output(model):
    """`model` (a float16 graph) with each float16 value an op writes also a graph output. The lowering then
    keeps every Cast pair as written (a rounding to float16 where each op writes), with nothing dropped,
    moved or fused across: the float16 semantics computed op by op, the oracle for the optimized graph."""
    m = onnx.shape_inference.infer_shapes(model)
    halves = {v.name for v in m.graph.value_info if v.type.tensor_type.elem_type == H}
    listed = {o.name for o in m.graph.output}
    for node in m.graph.node:
        for o in node.output:
            if o in halves and o not in listed:
                m.graph.output.append(oh.make_tensor_value_info(o, H, None))
                listed.add(o)
    return m


@pytest.mark.parametrize("backend", ["dnnl", "ref"])
def test_whole_graph_float16_optimized_as_op_by_op(classifier, backend):
    """The rewrites of float16 graphs (no rounding after Relu/Clip/MaxPool/Concat of float16 values, Concat on
    float32, the rounding before a Relu or Clip moved after it so Conv + Clip fuse) give the op-by-op float16
    semantics exactly. split-conv (squeezenet1_1: a Conv over a Concat as a sum of Convs over its parts) sums in
    another order, as it does in float32 models: a float32 rounding difference, which the rounding to float16
    after the Conv may turn into one float16 ulp (test_whole_graph_float16 bounds it); off here."""
    name, d, model = classifier
    half = graph_as_float16(model, keep_io_float32=True)
    x = np.random.default_rng(2).standard_normal((1, 3, 64, 64)).astype(np.float32)
    got = cnnx.Model(save(half, d / "graph_io_optimized.onnx"), backend=backend,
                     disable_passes=["split-conv"]).run({"x": x})["y"]
    want = run(save(every_value_an_output(half), d / "graph_io_op_by_op.onnx"), x, backend)
    np.testing.assert_array_equal(got, want)


def test_float16_graph_fuses_as_float32(classifier, cnnx_tool):
    import subprocess
    name, d, model = classifier
    path = save(graph_as_float16(model, keep_io_float32=True), d / "graph_io_fused.onnx")
    out = subprocess.run([cnnx_tool, "inspect", path], check=True, capture_output=True, text=True).stdout
    fused = re.search(r"^\s*fuse-conv\s+(\d+) FusedConv", out, re.M)
    conv_outputs = {n.output[0] for n in model.graph.node if n.op_type == "Conv"}
    # Every Conv -> Relu/Clip of the float32 model (a Relu after a residual Add reads a rounded sum: it stays).
    pairs = sum(n.op_type in ("Relu", "Clip") and n.input[0] in conv_outputs for n in model.graph.node)
    assert pairs > 0 and fused and int(fused.group(1)) == pairs, out


def test_inspect_reports_float16_compute(classifier, cnnx_tool):
    import subprocess
    name, d, model = classifier
    half = save(graph_as_float16(model, keep_io_float32=False), d / "graph_fp16_inspect.onnx")
    out = subprocess.run([cnnx_tool, "inspect", half], check=True, capture_output=True, text=True).stdout
    line = next(l for l in out.splitlines() if l.strip().startswith("float16-compute"))
    assert "Cast" in line, line  # one Cast per op input and output computed in float32
    weights = save(weights_as_float16(model), d / "weights_fp16_inspect.onnx")
    out = subprocess.run([cnnx_tool, "inspect", weights], check=True, capture_output=True, text=True).stdout
    assert re.search(r"^\s*float16-compute\s+no match", out, re.M)  # float16 weights' Casts folded at load
    assert "Cast" not in out.split("plan (")[1]     # and no Cast runs
