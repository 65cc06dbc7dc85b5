#!/usr/bin/env python3
"""Real quantized models: a small CNN exported by PyTorch, quantized (1) to the QDQ format ONNX Runtime's quantizer
writes (S8 weights per output channel, U8 activations per tensor, int32 biases) and (2) dynamically, as ONNX
Runtime's quantize_dynamic writes Conv (DynamicQuantizeLinear, ConvInteger, Cast, Mul by the scales, Add of the
float bias: the form of the IS-Net model of issue 33), each run by cnnx on both backends and checked against a
numpy implementation of the same semantics.

    quantized_models_test.py CNNX OUTDIR

The QDQ model. onnxruntime.quantization is not installed here, so the pattern is written with onnx.helper on the
PyTorch export: every Conv and Gemm input x becomes DequantizeLinear(QuantizeLinear(x, s_x, z_x)) (uint8, scale
and zero point from the activation's min/max over a calibration batch, 0 included), its weight
DequantizeLinear(w_q, s_w, axis 0) (int8, symmetric, s_w[m] = max|W[m]| / 127), its bias DequantizeLinear(b_q,
s_x s_w, axis 0) (int32, zero point 0). Each QuantizeLinear output is also a graph output, so the quantized
activations can be compared one by one.

The rule checked, derived. The model's semantics is exact arithmetic on the dequantized values, then each
QuantizeLinear rounds r / s to the nearest integer (ties to even). numpy computes each layer in float64 from the
*same* quantized input cnnx computed (so a difference never propagates): an element's pre-rounding value
v = r / s is within 2^-40 |terms| of the exact one. cnnx computes the layer in float32 (oneDNN's order or the
reference's double sums rounded to float32), off from the exact v by at most e = 2^-15 (sum |terms|) / s: float32
accumulation in any order errs by at most K u sum |terms| (u = 2^-24, K <= 144 < 2^9 terms per output here), and the
average pooling and the final rounding add less than that again. So a quantized activation may differ from
numpy's only where v lies within e of a rounding tie (k + 1/2), and then by exactly one step; everywhere else
the two must be equal. The test asserts: |cnnx - numpy| <= 1 for every element, equality wherever numpy's v is
farther than e from a tie, and prints the share of elements that are equal. The float output (the last Gemm, not
requantized) must be within 2^-18 (sum |terms|) + 1e-6 of numpy's float64 result from cnnx's own last
quantized activation.
"""
import os
import subprocess
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

torch.manual_seed(0)


class SmallCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = torch.nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.c3 = torch.nn.Conv2d(16, 16, 3, padding=1, groups=2)
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, x):
        x = torch.relu(self.c1(x))
        x = torch.relu(self.c2(x))
        x = torch.relu(self.c3(x))
        x = torch.nn.functional.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.fc(x)


def activation_qparams(a):
    lo, hi = min(0.0, float(a.min())), max(0.0, float(a.max()))
    scale = np.float32((hi - lo) / 255.0)
    zp = int(np.clip(np.rint(-lo / scale), 0, 255))
    return scale, zp


def quantize(x, scale, zp, lo, hi):
    return np.clip(np.rint(x.astype(np.float32) / np.float32(scale)) + zp, lo, hi)


def conv2d(x, w, b, stride, pad, groups):
    """float64 NCHW convolution (numpy)."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    out = np.zeros((n, m, oh, ow))
    mg = m // groups
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
                out[:, g * mg:(g + 1) * mg] += np.einsum("nchw,mc->nmhw", patch, w[g * mg:(g + 1) * mg, :, i, j])
    return out + b.reshape(1, -1, 1, 1)


def run_saved(cnnx, model, out, backend, tag, failures):
    """`cnnx run MODEL OUT/x.npy --backend BACKEND --save OUT/TAG`; a reader of the saved outputs by name, or None
    (the failure noted) when the run fails."""
    save = os.path.join(out, tag)
    r = subprocess.run([cnnx, "run", model, os.path.join(out, "x.npy"), "--backend", backend, "--save", save],
                       capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"{tag}: cnnx run failed: {r.stderr.strip()}")
        return None
    return lambda name: np.load(os.path.join(save, name + ".npy"))


def build_qdq(float_path, calib, qdq_path):
    model = onnx.load(float_path)
    g = model.graph
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    # Activation ranges: the inputs of c1, c2, c3, fc from the PyTorch module on the calibration batch.
    net = calib["net"]
    seen = []
    hooks = [mod.register_forward_hook(lambda mod, inp, out: seen.append(inp[0].detach().numpy()))
             for mod in (net.c1, net.c2, net.c3, net.fc)]
    with torch.no_grad():
        net(torch.from_numpy(calib["x"]))
    for h in hooks:
        h.remove()
    nodes, new_inits, layers, q_outputs = [], [], [], []
    k = 0
    for node in g.node:
        if node.op_type not in ("Conv", "Gemm"):
            nodes.append(node)
            continue
        x_name, w_name, b_name = node.input[0], node.input[1], node.input[2]
        s_x, z_x = activation_qparams(seen[k])
        w = inits[w_name].astype(np.float32)
        b = inits[b_name].astype(np.float32)
        s_w = (np.abs(w.reshape(w.shape[0], -1)).max(axis=1) / 127.0).astype(np.float32)
        w_q = np.clip(np.rint(w / s_w.reshape(-1, *([1] * (w.ndim - 1)))), -127, 127).astype(np.int8)
        s_b = (s_x * s_w).astype(np.float32)
        b_q = np.rint(b / s_b).astype(np.int32)
        p = f"l{k}"
        new_inits += [numpy_helper.from_array(np.array(s_x, np.float32), p + "_xs"),
                      numpy_helper.from_array(np.array(z_x, np.uint8), p + "_xz"),
                      numpy_helper.from_array(w_q, p + "_wq"), numpy_helper.from_array(s_w, p + "_ws"),
                      numpy_helper.from_array(np.zeros(w.shape[0], np.int8), p + "_wz"),
                      numpy_helper.from_array(b_q, p + "_bq"), numpy_helper.from_array(s_b, p + "_bs"),
                      numpy_helper.from_array(np.zeros(w.shape[0], np.int32), p + "_bz")]
        nodes += [helper.make_node("QuantizeLinear", [x_name, p + "_xs", p + "_xz"], [p + "_xq"], name=p + "_q"),
                  helper.make_node("DequantizeLinear", [p + "_xq", p + "_xs", p + "_xz"], [p + "_x"], name=p + "_dqx"),
                  helper.make_node("DequantizeLinear", [p + "_wq", p + "_ws", p + "_wz"], [p + "_w"], name=p + "_dqw",
                                   axis=0),
                  helper.make_node("DequantizeLinear", [p + "_bq", p + "_bs", p + "_bz"], [p + "_b"], name=p + "_dqb",
                                   axis=0)]
        node.input[0], node.input[1], node.input[2] = p + "_x", p + "_w", p + "_b"
        nodes.append(node)
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        layers.append(dict(op=node.op_type, s_x=s_x, z_x=z_x, w_q=w_q, s_w=s_w, b_q=b_q, s_b=s_b,
                           stride=attrs.get("strides", [1, 1])[0], pad=attrs.get("pads", [0] * 4)[0],
                           groups=attrs.get("group", 1)))
        q_outputs.append(p + "_xq")
        k += 1
    del g.node[:]
    g.node.extend(nodes)
    g.initializer.extend(new_inits)
    for name in q_outputs:
        g.output.append(helper.make_tensor_value_info(name, TensorProto.UINT8, None))
    onnx.save(model, qdq_path)
    return layers, q_outputs


def build_dynamic(float_path, dyn_path):
    """Each Conv becomes DynamicQuantizeLinear(x) -> ConvInteger(x_q, w_q int8 per tensor, x_zp) -> Cast ->
    Mul(x_scale * w_scale) -> Add(bias); the Gemm stays float32. The quantized activations, their scales and
    zero points are graph outputs too."""
    model = onnx.load(float_path)
    g = model.graph
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    nodes, new_inits, layers, outs = [], [], [], []
    k = 0
    for node in g.node:
        if node.op_type != "Conv":
            nodes.append(node)
            continue
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        w = inits[node.input[1]].astype(np.float32)
        s_w = np.float32(np.abs(w).max() / 127.0)
        w_q = np.clip(np.rint(w / s_w), -127, 127).astype(np.int8)
        p = f"d{k}"
        new_inits += [numpy_helper.from_array(w_q, p + "_wq"), numpy_helper.from_array(np.array(s_w, np.float32), p + "_ws"),
                      numpy_helper.from_array(np.array(0, np.int8), p + "_wz"),
                      numpy_helper.from_array(inits[node.input[2]].astype(np.float32).reshape(1, -1, 1, 1), p + "_b")]
        conv_attrs = {key: attrs[key] for key in ("strides", "pads", "group", "dilations", "kernel_shape") if key in attrs}
        nodes += [helper.make_node("DynamicQuantizeLinear", [node.input[0]], [p + "_xq", p + "_xs", p + "_xz"], name=p + "_dql"),
                  helper.make_node("ConvInteger", [p + "_xq", p + "_wq", p + "_xz", p + "_wz"], [p + "_acc"],
                                   name=p + "_conv", **conv_attrs),
                  helper.make_node("Cast", [p + "_acc"], [p + "_accf"], name=p + "_cast", to=TensorProto.FLOAT),
                  helper.make_node("Mul", [p + "_xs", p + "_ws"], [p + "_s"], name=p + "_scales"),
                  helper.make_node("Mul", [p + "_accf", p + "_s"], [p + "_y0"], name=p + "_scale"),
                  helper.make_node("Add", [p + "_y0", p + "_b"], [node.output[0]], name=p + "_bias")]
        layers.append(dict(w_q=w_q, s_w=s_w, b=inits[node.input[2]].astype(np.float32), stride=attrs.get("strides", [1, 1])[0],
                           pad=attrs.get("pads", [0] * 4)[0], groups=attrs.get("group", 1)))
        outs += [(p + "_xq", TensorProto.UINT8), (p + "_xs", TensorProto.FLOAT), (p + "_xz", TensorProto.UINT8)]
        k += 1
    del g.node[:]
    g.node.extend(nodes)
    kept = [t for t in g.initializer if not any(t.name == n.input[1] or t.name == n.input[2]
                                                for n in onnx.load(float_path).graph.node if n.op_type == "Conv")]
    del g.initializer[:]
    g.initializer.extend(kept + new_inits)
    for name, elem in outs:
        g.output.append(helper.make_tensor_value_info(name, elem, None))
    onnx.save(model, dyn_path)
    return layers


def dynamic_quantize(x):
    """ONNX's reference DynamicQuantizeLinear (onnx/backend/test/case/node/dynamicquantizelinear.py)."""
    x_min, x_max = np.minimum(0, np.min(x)), np.maximum(0, np.max(x))
    scale = np.float32((x_max - x_min) / 255)
    zp = np.clip(round((0 - x_min) / scale), 0, 255).astype(np.uint8) if scale > 0 else np.uint8(0)
    q = np.clip(np.rint(x / scale) + zp, 0, 255).astype(np.uint8) if scale > 0 else np.full(x.shape, zp, np.uint8)
    return q, scale, zp


def check_dynamic(cnnx, out, x, net, failures):
    float_path, dyn_path = os.path.join(out, "small_cnn.onnx"), os.path.join(out, "small_cnn_dynamic.onnx")
    layers = build_dynamic(float_path, dyn_path)
    for backend in ("dnnl", "ref"):
        got = run_saved(cnnx, dyn_path, out, backend, "dynamic_" + backend, failures)
        if got is None:
            continue
        act = x
        for k, l in enumerate(layers):
            if k > 0:  # layer k's input: layer k-1 on cnnx's own quantized activation, in float32 as the graph says
                prev = layers[k - 1]
                xq, xs, xz = got(f"d{k-1}_xq"), got(f"d{k-1}_xs"), got(f"d{k-1}_xz")
                acc = np.rint(conv2d(xq.astype(np.float64) - float(xz), prev["w_q"].astype(np.float64),
                                     np.zeros(prev["w_q"].shape[0]), prev["stride"], prev["pad"], prev["groups"]))
                y = acc.astype(np.float32) * (np.float32(xs) * prev["s_w"]) + prev["b"].reshape(1, -1, 1, 1)
                act = np.maximum(y, np.float32(0))
            want_q, want_s, want_z = dynamic_quantize(act)
            same = (np.array_equal(got(f"d{k}_xq"), want_q) and got(f"d{k}_xs") == want_s and got(f"d{k}_xz") == want_z)
            print(f"dynamic {backend} d{k}: scale {float(got(f'd{k}_xs')):.9g}, zero point {int(got(f'd{k}_xz'))}, "
                  f"{'bit-identical' if same else 'DIFFERENT'} to numpy")
            if not same:
                failures.append(f"dynamic {backend} d{k}: quantized activation differs from numpy's "
                                f"({np.sum(got(f'd{k}_xq') != want_q)} elements)")
        last = layers[-1]
        xq, xs, xz = got(f"d{len(layers)-1}_xq"), got(f"d{len(layers)-1}_xs"), got(f"d{len(layers)-1}_xz")
        acc = np.rint(conv2d(xq.astype(np.float64) - float(xz), last["w_q"].astype(np.float64),
                             np.zeros(last["w_q"].shape[0]), last["stride"], last["pad"], last["groups"]))
        y = acc.astype(np.float32) * (np.float32(xs) * last["s_w"]) + last["b"].reshape(1, -1, 1, 1)
        pooled = np.maximum(y, 0).astype(np.float64).mean(axis=(2, 3))
        w, b = net.fc.weight.detach().numpy().astype(np.float64), net.fc.bias.detach().numpy().astype(np.float64)
        want_y = pooled @ w.T + b
        bound = 2.0 ** -18 * (np.abs(pooled) @ np.abs(w).T + np.abs(b)) + 1e-6
        worst = np.max(np.abs(got("y").astype(np.float64) - want_y) / bound)
        print(f"dynamic {backend} y: max |cnnx - numpy| = {np.max(np.abs(got('y') - want_y)):.3g} ({worst:.3g} of the bound)")
        if worst > 1:
            failures.append(f"dynamic {backend} y: beyond the float32 bound ({worst:.3g} of it)")


def build_qoperator(float_path, net, calib, qop_path):
    """QuantizeLinear -> QLinearConv x3 (Relu folded) -> QLinearGlobalAveragePool -> Flatten -> QGemm (float)."""
    model = onnx.load(float_path)
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    seen = []
    mods = (net.c1, net.c2, net.c3)
    hooks = [m.register_forward_hook(lambda mod, inp, out: seen.append(torch.relu(out).detach().numpy())) for m in mods]
    with torch.no_grad():
        pooled = net.c3(torch.relu(net.c2(torch.relu(net.c1(torch.from_numpy(calib)))))).relu().mean(axis=(2, 3)).numpy()
    for h in hooks:
        h.remove()
    s_in, z_in = activation_qparams(calib)
    nodes = [helper.make_node("QuantizeLinear", ["x", "s_in", "z_in"], ["q0"], name="q0")]
    new_inits = [numpy_helper.from_array(np.array(s_in, np.float32), "s_in"),
                 numpy_helper.from_array(np.array(z_in, np.uint8), "z_in")]
    layers, prev = [], ("q0", "s_in", "z_in", s_in, z_in)
    for k, (node, act) in enumerate(zip(convs, seen)):
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        w, b = inits[node.input[1]].astype(np.float32), inits[node.input[2]].astype(np.float32)
        s_w = (np.abs(w.reshape(w.shape[0], -1)).max(axis=1) / 127.0).astype(np.float32)
        w_q = np.clip(np.rint(w / s_w.reshape(-1, 1, 1, 1)), -127, 127).astype(np.int8)
        b_q = np.rint(b / (prev[3] * s_w)).astype(np.int32)
        s_y = np.float32(max(float(act.max()), 1e-6) / 255.0)
        p = f"c{k}"
        new_inits += [numpy_helper.from_array(w_q, p + "_wq"), numpy_helper.from_array(s_w, p + "_ws"),
                      numpy_helper.from_array(np.zeros(w.shape[0], np.int8), p + "_wz"),
                      numpy_helper.from_array(b_q, p + "_bq"), numpy_helper.from_array(np.array(s_y, np.float32), p + "_ys"),
                      numpy_helper.from_array(np.array(0, np.uint8), p + "_yz")]
        conv_attrs = {key: attrs[key] for key in ("strides", "pads", "group", "dilations", "kernel_shape") if key in attrs}
        nodes.append(helper.make_node("QLinearConv", [prev[0], prev[1], prev[2], p + "_wq", p + "_ws", p + "_wz",
                                                      p + "_ys", p + "_yz", p + "_bq"], [p], name=p, **conv_attrs))
        layers.append(dict(x=prev, w_q=w_q, s_w=s_w, b_q=b_q, s_y=s_y, stride=attrs.get("strides", [1, 1])[0],
                           pad=attrs.get("pads", [0] * 4)[0], groups=attrs.get("group", 1)))
        prev = (p, p + "_ys", p + "_yz", s_y, 0)
    s_gap = np.float32(max(float(pooled.max()), 1e-6) / 255.0)
    w_fc = net.fc.weight.detach().numpy().astype(np.float32)
    b_fc = net.fc.bias.detach().numpy().astype(np.float32)
    s_fc = (np.abs(w_fc).max(axis=1) / 127.0).astype(np.float32)
    w_fc_q = np.clip(np.rint(w_fc / s_fc.reshape(-1, 1)), -127, 127).astype(np.int8)
    b_fc_q = np.rint(b_fc / (s_gap * s_fc)).astype(np.int32)
    new_inits += [numpy_helper.from_array(np.array(s_gap, np.float32), "gap_s"),
                  numpy_helper.from_array(np.array(0, np.uint8), "gap_z"),
                  numpy_helper.from_array(w_fc_q, "fc_wq"), numpy_helper.from_array(s_fc, "fc_ws"),
                  numpy_helper.from_array(np.zeros(w_fc.shape[0], np.int8), "fc_wz"),
                  numpy_helper.from_array(b_fc_q, "fc_bq")]
    nodes += [helper.make_node("QLinearGlobalAveragePool", [prev[0], prev[1], prev[2], "gap_s", "gap_z"], ["gap"],
                               name="gap", domain="com.microsoft"),
              helper.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
              helper.make_node("QGemm", ["flat", "gap_s", "gap_z", "fc_wq", "fc_ws", "fc_wz", "fc_bq"], ["y"],
                               name="fc", domain="com.microsoft", transB=1)]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)] + [
        helper.make_tensor_value_info(n, TensorProto.UINT8, None) for n in ("q0", "c0", "c1", "c2", "gap")]
    graph = helper.make_graph(nodes, "qoperator", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3, 12, 12])],
                              outputs, initializer=new_inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)])
    onnx.save(m, qop_path)
    return layers, dict(s=s_gap, w_q=w_fc_q, s_w=s_fc, b_q=b_fc_q), (s_in, z_in)


def check_qoperator(cnnx, out, x, net, calib, failures):
    qop_path = os.path.join(out, "small_cnn_qoperator.onnx")
    layers, fc, (s_in, z_in) = build_qoperator(os.path.join(out, "small_cnn.onnx"), net, calib, qop_path)
    for backend in ("dnnl", "ref"):
        got = run_saved(cnnx, qop_path, out, backend, "qoperator_" + backend, failures)
        if got is None:
            continue
        wants = {"q0": np.clip(np.rint(x / np.float32(s_in)) + z_in, 0, 255)}
        for k, l in enumerate(layers):
            name, _, _, s_x, z_x = l["x"]
            acc = np.rint(conv2d(got(name).astype(np.float64) - z_x, l["w_q"].astype(np.float64), l["b_q"].astype(np.float64),
                                 l["stride"], l["pad"], l["groups"]))
            mult = (np.float64(s_x) * l["s_w"].astype(np.float64) / np.float64(l["s_y"])).reshape(1, -1, 1, 1)
            wants[f"c{k}"] = np.clip(np.rint(acc * mult), 0, 255)
        c3 = got(f"c{len(layers) - 1}").astype(np.int64)
        cells = c3.shape[2] * c3.shape[3]
        wants["gap"] = np.clip(np.rint(c3.sum(axis=(2, 3)) * (np.float64(layers[-1]["s_y"]) / np.float64(fc["s"]) / cells)),
                               0, 255).reshape(c3.shape[0], c3.shape[1], 1, 1)
        for name, want in wants.items():
            same = np.array_equal(got(name).astype(np.int64), want.astype(np.int64))
            print(f"qoperator {backend} {name}: {'bit-identical' if same else 'DIFFERENT'} to numpy")
            if not same:
                failures.append(f"qoperator {backend} {name}: {np.sum(got(name) != want)} elements differ from numpy")
        flat = got("gap").reshape(c3.shape[0], -1).astype(np.int64)
        acc = flat @ fc["w_q"].astype(np.int64).T + fc["b_q"]
        want_y = (acc * (np.float64(fc["s"]) * fc["s_w"].astype(np.float64))).astype(np.float32)
        same = np.array_equal(got("y"), want_y)
        print(f"qoperator {backend} y: {'bit-identical' if same else 'DIFFERENT'} to numpy")
        if not same:
            failures.append(f"qoperator {backend} y: differs from numpy by up to {np.max(np.abs(got('y') - want_y))}")


def main():
    cnnx, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    net = SmallCNN().eval()
    x = np.random.RandomState(1).uniform(-1, 1, (2, 3, 12, 12)).astype(np.float32)
    calib = np.random.RandomState(2).uniform(-1, 1, (4, 3, 12, 12)).astype(np.float32)
    float_path, qdq_path = os.path.join(out, "small_cnn.onnx"), os.path.join(out, "small_cnn_qdq.onnx")
    torch.onnx.export(net, torch.from_numpy(x), float_path, opset_version=13, input_names=["x"], output_names=["y"])
    layers, q_outputs = build_qdq(float_path, {"net": net, "x": calib}, qdq_path)
    np.save(os.path.join(out, "x.npy"), x)

    failures = []
    for backend in ("dnnl", "ref"):
        got = run_saved(cnnx, qdq_path, out, backend, backend, failures)
        if got is None:
            continue
        got_q = [got(n).astype(np.int64) for n in q_outputs]
        got_y = got("y").astype(np.float64)
        # Layer 0's input is the model input; layer k's the result of layer k-1 on cnnx's quantized activation.
        act = x.astype(np.float64)
        for k, l in enumerate(layers):
            s, z = l["s_x"], l["z_x"]
            if k > 0:
                prev = layers[k - 1]
                xin = (got_q[k - 1].astype(np.float64) - prev["z_x"]) * np.float64(prev["s_x"])
                w = prev["w_q"].astype(np.float64) * prev["s_w"].astype(np.float64).reshape(-1, 1, 1, 1)
                b = prev["b_q"].astype(np.float64) * prev["s_b"].astype(np.float64)
                r_out = conv2d(xin, w, b, prev["stride"], prev["pad"], prev["groups"])
                terms = conv2d(np.abs(xin), np.abs(w), np.abs(b), prev["stride"], prev["pad"], prev["groups"])
                act = np.maximum(r_out, 0)  # every conv here is followed by Relu
                if k == len(layers) - 1:  # global average pooling, then flatten, before the Gemm
                    act = act.mean(axis=(2, 3))
                    terms = terms.mean(axis=(2, 3))
            else:
                terms = np.zeros_like(act)  # the model input: only QuantizeLinear's float32 division rounds
            v = act / np.float64(np.float32(s))
            want = np.clip(np.rint(v) + z, 0, 255)
            e = 2.0 ** -15 * terms / np.float64(np.float32(s)) + 2.0 ** -24 * np.abs(v)
            near_tie = np.abs(np.abs(v - np.floor(v)) - 0.5) <= e
            diff = np.abs(got_q[k] - want)
            equal = diff == 0
            share = equal.mean()
            print(f"{backend} {q_outputs[k]}: {equal.sum()}/{equal.size} equal ({100 * share:.2f}%), "
                  f"{near_tie.sum()} within float32 error of a tie, max |diff| {diff.max()}")
            if diff.max() > 1:
                failures.append(f"{backend} {q_outputs[k]}: an element differs by {diff.max()} steps")
            if np.any(~equal & ~near_tie):
                failures.append(f"{backend} {q_outputs[k]}: {np.sum(~equal & ~near_tie)} elements differ away from a tie")
        last = layers[-1]
        xin = (got_q[-1].astype(np.float64) - last["z_x"]) * np.float64(last["s_x"])
        w = last["w_q"].astype(np.float64) * last["s_w"].astype(np.float64).reshape(-1, 1)
        b = last["b_q"].astype(np.float64) * last["s_b"].astype(np.float64)
        want_y = xin @ w.T + b
        bound = 2.0 ** -18 * (np.abs(xin) @ np.abs(w).T + np.abs(b)) + 1e-6
        worst = np.max(np.abs(got_y - want_y) / bound)
        print(f"{backend} y: max |cnnx - numpy| = {np.max(np.abs(got_y - want_y)):.3g} ({worst:.3g} of the bound)")
        if worst > 1:
            failures.append(f"{backend} y: beyond the float32 bound ({worst:.3g} of it)")
    check_dynamic(cnnx, out, x, net, failures)
    check_qoperator(cnnx, out, x, net, calib, failures)
    for f in failures:
        print("FAIL " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
