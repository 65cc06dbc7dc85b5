"""cnnx.quantize and `python3 -m cnnx quantize` on the bundled shapes classifier: a standard QDQ model (opset >= 13,
onnx's checker passes, every Conv reads DequantizeLinears of uint8 activations, int8 weights and int32 biases at
x_scale * w_scale), which cnnx runs with every Conv folded into an int8 convolution (`cnnx inspect`: fold-qdq,
no near miss), keeping the float model's top-1 class on every bundled sample; `cnnx quantize --reduce-range`
(the program, which runs the same Python) keeps |w| <= 63."""
import json
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

import cnnx


def _quantized_convs(path):
    m = onnx.load(path)
    onnx.checker.check_model(m)
    assert max(o.version for o in m.opset_import if o.domain in ("", "ai.onnx")) >= 13
    producers = {o: n for n in m.graph.node for o in n.output}
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    convs = [n for n in m.graph.node if n.op_type == "Conv"]
    for c in convs:
        dq = [producers.get(i) for i in c.input]
        assert all(d is not None and d.op_type == "DequantizeLinear" for d in dq), c.name
        assert inits[dq[1].input[0]].dtype == np.int8 and inits[dq[2].input[0]].dtype == np.int32, c.name
        bias_scale, x_scale, w_scale = (inits[dq[k].input[1]] for k in (2, 0, 1))
        np.testing.assert_allclose(bias_scale, np.float32(x_scale) * w_scale, rtol=1e-7)
    return m, inits, producers, convs


def _fold_qdq_line(cnnx_tool, path):
    """The fold-qdq line of `cnnx inspect PATH`, and the whole report."""
    inspect = subprocess.run([cnnx_tool, "inspect", path], capture_output=True, text=True, check=True).stdout
    return next(l for l in inspect.splitlines() if l.strip().startswith("fold-qdq")), inspect


def _quantize_built(tmp_path, name, build, samples):
    """Writes the model `build(path)` makes as NAME.onnx, quantizes it per channel to NAME.int8.onnx; both paths."""
    f, out = str(tmp_path / f"{name}.onnx"), str(tmp_path / f"{name}.int8.onnx")
    build(f)
    cnnx.quantize(f, samples, out, per_channel=True)
    return f, out


def test_quantize_keeps_top1_and_folds_every_conv(tmp_path, shapes_model, shapes_samples, cnnx_tool):
    out = str(tmp_path / "shapes.int8.onnx")
    report = cnnx.quantize(shapes_model, shapes_samples, out, per_channel=True)
    print(json.dumps(report, indent=1))
    _, _, _, convs = _quantized_convs(out)
    assert len(convs) == 4 and len(report["layers"]) == 4
    assert report["top1_agreement"] == 1.0
    assert all(np.isfinite(r["sqnr_db"]) for r in report["layers"])
    f, q = cnnx.Model(shapes_model), cnnx.Model(out)
    for path in shapes_samples:
        x = cnnx.preprocess(f, [path])
        assert np.argmax(f(x)) == np.argmax(q(x)), path
    line, inspect = _fold_qdq_line(cnnx_tool, out)
    assert "4 " in line and "QLinearConv" in line, line
    assert "left alone" not in inspect.split("fold-qdq", 1)[1].split("\n", 2)[1], inspect


def test_quantize_command_reduce_range(tmp_path, shapes_model, source_dir, cnnx_tool):
    out = str(tmp_path / "shapes.int8.onnx")
    r = subprocess.run([cnnx_tool, "quantize", shapes_model, "--calibrate",
                        str(source_dir / "models/shapes/samples"), "--out", out, "--reduce-range", "--json"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["top1_agreement"] == 1.0
    _, inits, producers, convs = _quantized_convs(out)
    for c in convs:
        assert np.abs(inits[producers[c.input[1]].input[0]].astype(np.int32)).max() <= 63, c.name


def test_quantize_errors(tmp_path, shapes_model):
    r = subprocess.run([sys.executable, "-m", "cnnx", "quantize", shapes_model, "--calibrate", str(tmp_path),
                        "--out", str(tmp_path / "x.onnx")], capture_output=True, text=True)
    assert r.returncode == 1 and r.stderr.startswith("cnnx: error: ") and "calibration" in r.stderr, r.stderr


def _relu6_model(path):
    """Conv -> Clip(0, 6) twice, the bounds Constant nodes as torch.onnx writes ReLU6, then a pooled head."""
    from onnx import TensorProto, helper
    rng = np.random.default_rng(3)
    inits = [numpy_helper.from_array(rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32), "w1"),
             numpy_helper.from_array(rng.normal(0, 0.1, (8,)).astype(np.float32), "b1"),
             numpy_helper.from_array(rng.normal(0, 0.2, (4, 8, 3, 3)).astype(np.float32), "w2"),
             numpy_helper.from_array(rng.normal(0, 0.1, (4,)).astype(np.float32), "b2")]
    nodes = [helper.make_node("Constant", [], ["lo"], value=numpy_helper.from_array(np.array(0, np.float32))),
             helper.make_node("Constant", [], ["hi"], value=numpy_helper.from_array(np.array(6, np.float32)))]
    x = "input"
    for k in (1, 2):
        nodes += [helper.make_node("Conv", [x, f"w{k}", f"b{k}"], [f"c{k}"], name=f"conv{k}", pads=[1, 1, 1, 1]),
                  helper.make_node("Clip", [f"c{k}", "lo", "hi"], [f"r{k}"], name=f"clip{k}")]
        x = f"r{k}"
    nodes += [helper.make_node("GlobalAveragePool", [x], ["p"]), helper.make_node("Flatten", ["p"], ["logits"])]
    g = helper.make_graph(nodes, "relu6", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 32, 32])],
                          [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 4])], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)


def test_quantize_relu6_with_constant_bounds(tmp_path, shapes_samples, cnnx_tool):
    # A Clip whose bounds are Constant nodes (not initializers) is quantized after, not before: no
    # DQ -> Clip -> Q left in float, each Conv + Clip folded into one FusedQLinearConv.
    _, out = _quantize_built(tmp_path, "relu6", _relu6_model, shapes_samples)
    m = onnx.load(out)
    producers = {o: n for n in m.graph.node for o in n.output}
    clips = [n for n in m.graph.node if n.op_type == "Clip"]
    assert len(clips) == 2 and all(producers[c.input[0]].op_type == "Conv" for c in clips), \
        [producers[c.input[0]].op_type for c in clips]
    line, _ = _fold_qdq_line(cnnx_tool, out)
    assert "2 FusedQLinearConv" in line, line


def _dense_model(path):
    """A DenseNet in miniature: Conv -> Relu -> MaxPool, then two dense layers (Concat of what came before ->
    BatchNormalization -> Relu -> Conv, whose bias is an Identity of one shared initializer, as torch.onnx
    writes shared biases), then Concat -> AveragePool -> GlobalAveragePool -> Flatten."""
    from onnx import TensorProto, helper
    rng = np.random.default_rng(5)
    arr = lambda shape, s=0.3: rng.normal(0, s, shape).astype(np.float32)
    inits = [numpy_helper.from_array(arr((8, 3, 3, 3)), "w0"), numpy_helper.from_array(arr((8,), 0.1), "b0"),
             numpy_helper.from_array(arr((4,), 0.1), "b_shared")]
    nodes = [helper.make_node("Conv", ["input", "w0", "b0"], ["c0"], name="conv0", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c0"], ["r0"], name="relu0"),
             helper.make_node("MaxPool", ["r0"], ["p0"], name="pool0", kernel_shape=[2, 2], strides=[2, 2])]
    features = ["p0"]
    for k, channels in ((1, 8), (2, 12)):
        inits += [numpy_helper.from_array(np.abs(arr((channels,))) + 0.5, f"gamma{k}"),
                  numpy_helper.from_array(arr((channels,), 0.1), f"beta{k}"),
                  numpy_helper.from_array(arr((channels,), 0.1), f"mean{k}"),
                  numpy_helper.from_array(np.abs(arr((channels,))) + 0.5, f"var{k}"),
                  numpy_helper.from_array(arr((4, channels, 1, 1)), f"w{k}")]
        nodes += [helper.make_node("Concat", list(features), [f"cat{k}"], name=f"concat{k}", axis=1),
                  helper.make_node("BatchNormalization", [f"cat{k}", f"gamma{k}", f"beta{k}", f"mean{k}", f"var{k}"],
                                   [f"n{k}"], name=f"norm{k}"),
                  helper.make_node("Relu", [f"n{k}"], [f"a{k}"], name=f"relu{k}"),
                  helper.make_node("Identity", ["b_shared"], [f"b{k}"], name=f"bias{k}"),
                  helper.make_node("Conv", [f"a{k}", f"w{k}", f"b{k}"], [f"c{k}"], name=f"conv{k}")]
        features.append(f"c{k}")
    nodes += [helper.make_node("Concat", features, ["cat"], name="concat", axis=1),
              helper.make_node("AveragePool", ["cat"], ["ap"], kernel_shape=[2, 2], strides=[2, 2]),
              helper.make_node("GlobalAveragePool", ["ap"], ["gp"]), helper.make_node("Flatten", ["gp"], ["logits"])]
    g = helper.make_graph(nodes, "dense", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 32, 32])],
                          [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 16])], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)


def test_quantize_dense_layers(tmp_path, shapes_samples, cnnx_tool):
    # The Identity biases are read through (both dense convolutions quantized), the MaxPool's output quantized
    # at its input's scale (so the Concats read DequantizeLinears), and cnnx folds each Concat ->
    # BatchNormalization -> Relu -> Q into a QLinearChannelLookup.
    f, out = _quantize_built(tmp_path, "dense", _dense_model, shapes_samples)
    m, inits, producers, convs = _quantized_convs(out)
    assert len(convs) == 3 and not any(n.op_type == "Identity" for n in m.graph.node)
    q = next(n for n in m.graph.node if n.op_type == "QuantizeLinear" and n.input[0] == "p0")
    dq = producers[producers["p0"].input[0]]  # the MaxPool reads r0's DequantizeLinear
    assert dq.op_type == "DequantizeLinear"
    assert inits[q.input[1]] == inits[dq.input[1]] and inits[q.input[2]] == inits[dq.input[2]]
    line, _ = _fold_qdq_line(cnnx_tool, out)
    assert "2 QLinearChannelLookup" in line, line
    # Each node against its reference kernel beside it (--verify raises naming the first beyond its tolerance).
    x = cnnx.preprocess(cnnx.Model(f), [shapes_samples[0]])
    assert np.all(np.isfinite(cnnx.Model(out, verify=True)(x)))
