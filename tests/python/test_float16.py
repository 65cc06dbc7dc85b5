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
    """The exact rewrites of float16 graphs (no rounding after Relu/Clip/MaxPool/Concat of float16 values,
    Concat on float32, the rounding before a Relu or Clip moved after it so Conv + Clip fuse) give the op-by-op
    float16 semantics exactly. Off here: split-conv (squeezenet1_1: a Conv over a Concat as a sum of Convs over
    its parts) sums in another order, as it does in float32 models: a float32 rounding difference, which the
    rounding to float16 after the Conv may turn into one float16 ulp; float16-round-once rounds a Conv group
    once (its bound: test_conv_group_rounds_once_within_derived_bound). test_whole_graph_float16 bounds both."""
    name, d, model = classifier
    half = graph_as_float16(model, keep_io_float32=True)
    x = np.random.default_rng(2).standard_normal((1, 3, 64, 64)).astype(np.float32)
    got = cnnx.Model(save(half, d / "graph_io_optimized.onnx"), backend=backend,
                     disable_passes=["split-conv", "float16-round-once"]).run({"x": x})["y"]
    want = run(save(every_value_an_output(half), d / "graph_io_op_by_op.onnx"), x, backend)
    np.testing.assert_array_equal(got, want)


def test_float16_graph_fuses_as_float32(classifier, cnnx_tool):
    """Every residual Add and activation the float32 model fuses into a Conv, its float16 graph fuses too (the
    exact moves of float16-compute, then float16-round-once), and each fused Conv takes the rounding after it
    (FusedConvFloat16)."""
    import subprocess
    name, d, model = classifier

    def fuse_conv(path):  # "fuse-conv  45 FusedConv from 90 nodes (Add x10, Conv x45, Relu x35)"
        out = subprocess.run([cnnx_tool, "inspect", path], check=True, capture_output=True, text=True).stdout
        line = re.search(r"^\s*fuse-conv\s+(.*) from \d+ nodes \((.*)\)$", out, re.M)
        assert line, out
        made = {op: int(k) for k, op in re.findall(r"(\d+) (\w+)", line.group(1))}
        absorbed = {op: int(k) for op, k in re.findall(r"(\w+) x(\d+)", line.group(2))}
        absorbed.pop("Conv")
        return made, absorbed

    _, want = fuse_conv(str(d / "float32.onnx"))
    made, got = fuse_conv(save(graph_as_float16(model, keep_io_float32=True), d / "graph_io_fused.onnx"))
    assert made == {"FusedConvFloat16": got.pop("RoundToFloat16")}, (made, got)
    assert got == want and want, (got, want)


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


# ---- float16-round-once: a Conv and what fuse-conv fuses after it round once (passes/float16_round_once.cc) ----

SWISH_SLOPE = 1.0998  # sup |d/dx x * sigmoid(x)| (ops/common/activation.cc, fused_slope)

# pattern -> roundings the pass drops, and per dropped rounding (the value it rounded, the slope of the rest of
# the group in that value). Swish's Sigmoid rounding changes x * r(sigmoid(x)) by at most u |y| (slope 1 in y).
ROUND_ONCE = {
    "Add": (1, [("c", 1.0)]),
    "Add+Relu": (1, [("c", 1.0)]),  # Add -> Relu -> R already (the rounding moved after the Relu): one drop
    "Sigmoid": (1, [("c", 0.25)]),
    "Swish": (2, [("c", SWISH_SLOPE), ("y", 1.0)]),
    "Add+Swish": (3, [("c", SWISH_SLOPE), ("s", SWISH_SLOPE), ("y", 1.0)]),
}


def conv_group_model(pattern):
    """float16 x [, r] -> Conv 3x3 8 -> 8 (float16 weights, bias) [-> Add r] [-> activation] -> float16 y."""
    rng = np.random.default_rng(3)
    n = oh.make_node
    w = onnx.numpy_helper.from_array((rng.standard_normal((8, 8, 3, 3)) * 0.4).astype(np.float16), "w")
    b = onnx.numpy_helper.from_array(rng.standard_normal(8).astype(np.float16), "b")
    nodes, last = [n("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1])], "c"
    inputs = [oh.make_tensor_value_info("x", H, [1, 8, 12, 12])]
    if pattern.startswith("Add"):
        inputs.append(oh.make_tensor_value_info("r", H, [1, 8, 12, 12]))
        nodes.append(n("Add", ["c", "r"], ["s"]))
        last = "s"
    act = pattern.split("+")[-1] if pattern != "Add" else None
    if act == "Swish":
        nodes += [n("Sigmoid", [last], ["g"]), n("Mul", [last, "g"], ["y"])]
    elif act:
        nodes.append(n(act, [last], ["y"]))
    else:
        nodes[-1].output[0] = "y"
    graph = oh.make_graph(nodes, "g", inputs, [oh.make_tensor_value_info("y", H, [1, 8, 12, 12])], [w, b])
    return oh.make_model(graph, opset_imports=[oh.make_opsetid("", 13)])


@pytest.mark.parametrize("backend", ["dnnl", "ref"])
@pytest.mark.parametrize("pattern", list(ROUND_ONCE))
def test_conv_group_rounds_once_within_derived_bound(pattern, backend, tmp_path, cnnx_tool):
    """Against the op-by-op float16 semantics (every value a graph output: each op rounds), per element
    |y' - y| <= u (sum over dropped roundings of slope * |v| + |y| + |y'|), the bound the pass derives, with
    |v| <= |r(v)| / (1 - u) for the rounded values the op-by-op run shows, 2^-25 (float16's subnormal
    half-ulp) per rounding, and the kernels' float32 errors: Conv's tolerance (1e-5 + 2e-5 |c|, Conv and
    FusedConv may accumulate in another order) and Swish's 3e-7 relative (ops/conv/swish.h)."""
    import subprocess
    model = conv_group_model(pattern)
    rng = np.random.default_rng(4)
    feeds = {i.name: rng.standard_normal((1, 8, 12, 12)).astype(np.float16) for i in model.graph.input}
    path = save(model, tmp_path / "group.onnx")
    got = cnnx.Model(path, backend=backend).run(feeds)["y"].astype(np.float64)
    op_by_op = cnnx.Model(save(every_value_an_output(model), tmp_path / "op_by_op.onnx"), backend=backend).run(feeds)
    want = op_by_op["y"].astype(np.float64)
    drops, terms = ROUND_ONCE[pattern]
    v = {k: np.abs(op_by_op[k].astype(np.float64)) / (1 - U) for k, _ in terms}
    c = np.abs(op_by_op["c"].astype(np.float64)) / (1 - U)
    bound = U * (sum(s * v[k] for k, s in terms) + np.abs(want) + np.abs(got)) + (drops + 1) * 2.0 ** -25 + \
        1e-5 + 2e-5 * c + 3e-7 * np.abs(got)
    err = np.abs(got - want)
    worst = int(np.argmax(err / bound))
    print(f"{pattern} {backend}: max |err| {err.max():.3g}, worst at {worst}: err {err.flat[worst]:.3g} "
          f"bound {bound.flat[worst]:.3g}, {int((err > 0).sum())} of {err.size} differ")
    assert np.all(err <= bound)
    assert np.array_equal(got.astype(np.float16).astype(np.float64), got)  # still float16 values
    out = subprocess.run([cnnx_tool, "inspect", path], check=True, capture_output=True, text=True).stdout
    assert re.search(rf"^\s*float16-round-once\s+removed {drops} nodes \(RoundToFloat16 x{drops}\)", out, re.M), out
    # One FusedConv; FusedConvFloat16 where a RoundToFloat16 follows the group (the graph output's Cast does
    # not: test_float16_graph_fuses_as_float32 counts those).
    assert re.search(r"^\s*fuse-conv\s+1 FusedConv(Float16)? from", out, re.M), out
    # Disabled, the op-by-op semantics exactly.
    plain = cnnx.Model(path, backend=backend, disable_passes=["float16-round-once"]).run(feeds)["y"]
    np.testing.assert_array_equal(plain, op_by_op["y"])
