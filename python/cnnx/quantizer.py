"""cnnx.quantize (this module: cnnx.quantizer): a float32 ONNX classifier -> a standard QDQ model (QuantizeLinear/DequantizeLinear around the
convolutions, opset >= 13), calibrated on images read through `cnnx run`'s preprocessing, and its accuracy cost.

    report = cnnx.quantize("resnet18.onnx", "calib_images/", "resnet18_int8.onnx", per_channel=True)
    print(report["top1_agreement"], report["layers"][0])

What is written (the format ONNX Runtime's quantizer writes, so ONNX Runtime runs it unchanged, and cnnx's
fold-qdq pass turns each convolution into one int8 oneDNN convolution):
  - every Conv's weights: int8, symmetric (zero point 0), scale max|w| / 127 per output channel (per_channel)
    or per tensor; reduce_range: / 63, so |w| <= 63 and CPUs without VNNI (AVX2, AVX-512 before Cascade
    Lake) add u8 x s8 pairs in 16 bits without saturating, which keeps cnnx on its single-pass int8 kernel
    (ops/quant/qlinear_conv_dnnl.cc) and ONNX Runtime exact there;
  - every Conv's bias: int32 at scale x_scale * w_scale[m], zero point 0;
  - every activation a Conv reads, and every Conv's output (after the Relu or Clip that alone reads it, its
    bounds initializers or Constant nodes, as torch.onnx writes ReLU6):
    uint8, asymmetric, scale and zero point from the calibration range (method "minmax": the smallest and
    largest value seen over the calibration images, widened to include 0);
  - the output of a MaxPool or AveragePool reading such a tensor (through Pads), with that tensor's scale and
    zero point (DenseNet's pools, read by Concats).
Other ops stay float32 between the QuantizeLinear/DequantizeLinear pairs (`exclude` leaves Convs float too).

The report: top-1 agreement and mean top-5 overlap with the float32 model over the held-back images (every
fifth image when there are at least 5, else the calibration images themselves), and per quantized Conv the
SQNR in dB of its output (10 log10(sum f^2 / sum (f - q)^2) over those images), lowest first, so a user sees
which layers to leave in float (exclude=[node names]).
"""
import os
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from ._cnnx import Error


def _activation_range(values):
    lo = min(0.0, float(min(v.min() for v in values)))
    hi = max(0.0, float(max(v.max() for v in values)))
    return lo, hi


def _uint8_params(lo, hi):
    """Scale and zero point of uint8 covering [lo, hi] (lo <= 0 <= hi)."""
    scale = (hi - lo) / 255.0 if hi > lo else 1.0
    scale = np.float32(max(scale, 1e-12))
    zp = int(np.clip(np.round(-lo / float(scale)), 0, 255))
    return scale, np.uint8(zp)


def _model_with_outputs(model, names):
    m = onnx.ModelProto()
    m.CopyFrom(model)
    known = {o.name for o in m.graph.output}
    for n in names:
        if n not in known:
            m.graph.output.append(helper.make_tensor_value_info(n, TensorProto.FLOAT, None))
    return m


def _run_all(model_proto, batches, names, threads):
    """Runs `model_proto` (written to a temporary file) on each batch; per name a list of arrays."""
    import cnnx
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.onnx")
        onnx.save(model_proto, path)
        options = cnnx.SessionOptions()
        options.intra_op_num_threads = threads
        session = cnnx.InferenceSession(path, options)
        input_name = session.get_inputs()[0].name
        out = {n: [] for n in names}
        for b in batches:
            for n, v in zip(names, session.run(names, {input_name: b})):
                out[n].append(np.asarray(v))
        return out


def _fold_batch_norms(model):
    """Conv (constant weights and bias) -> BatchNormalization (constant statistics, the Conv's only reader), as
    exported in training-free form by some tools, folded into the Conv: W * s, (B - mean) * s + beta with
    s = scale / sqrt(var + epsilon), so that the quantized weights carry it."""
    g = model.graph
    inits = {i.name: i for i in g.initializer}
    readers = {}
    for n in g.node:
        for i in n.input:
            readers[i] = readers.get(i, 0) + 1
    outputs = {o.name for o in g.output}
    producers = {o: n for n in g.node for o in n.output}
    drop = []
    for index, bn in enumerate(g.node):
        if bn.op_type != "BatchNormalization" or any(bn.output[1:]):
            continue
        conv = producers.get(bn.input[0])
        if conv is None or conv.op_type != "Conv" or readers.get(conv.output[0]) != 1 or conv.output[0] in outputs:
            continue
        if conv.input[1] not in inits or any(i not in inits for i in bn.input[1:5]):
            continue
        if len(conv.input) > 2 and conv.input[2] and conv.input[2] not in inits:
            continue
        eps = next((a.f for a in bn.attribute if a.name == "epsilon"), 1e-5)
        scale, beta, mean, var = (numpy_helper.to_array(inits[i]).astype(np.float64) for i in bn.input[1:5])
        s = scale / np.sqrt(var + eps)
        w = numpy_helper.to_array(inits[conv.input[1]]).astype(np.float64)
        b = numpy_helper.to_array(inits[conv.input[2]]).astype(np.float64) if len(conv.input) > 2 and conv.input[2] \
            else np.zeros(w.shape[0])
        wname, bname = conv.output[0] + "_folded_W", conv.output[0] + "_folded_B"
        g.initializer.extend([
            numpy_helper.from_array((w * s.reshape((-1,) + (1,) * (w.ndim - 1))).astype(np.float32), wname),
            numpy_helper.from_array(((b - mean) * s + beta).astype(np.float32), bname)])
        inits[wname], inits[bname] = g.initializer[-2], g.initializer[-1]
        del conv.input[1:]
        conv.input.extend([wname, bname])
        conv.output[0] = bn.output[0]
        drop.append(index)
    for index in reversed(drop):
        del g.node[index]


def _unique(name, taken):
    """`name`, or `name_2`, `name_3`, ... the first not in `taken`; added to it."""
    k, chosen = 1, name
    while chosen in taken:
        k += 1
        chosen = f"{name}_{k}"
    taken.add(chosen)
    return chosen


def _inline_identities(model):
    """Identity nodes of initializers (torch.onnx writes one per reader of a shared bias: SqueezeNet's expand
    convolutions) dropped, their readers reading the initializer, so those Convs' weights and biases are
    constants to quantize."""
    g = model.graph
    inits = {i.name for i in g.initializer}
    outputs = {o.name for o in g.output}
    alias = {n.output[0]: n.input[0] for n in g.node
             if n.op_type == "Identity" and n.input[0] in inits and n.output[0] not in outputs}
    if not alias:
        return
    kept = []
    for n in g.node:
        if n.op_type == "Identity" and n.output[0] in alias:
            continue
        c = onnx.NodeProto()
        c.CopyFrom(n)
        c.input[:] = [alias.get(name, name) for name in c.input]
        kept.append(c)
    del g.node[:]
    g.node.extend(kept)


def _conv_plan(model, exclude):
    """The Convs to quantize: (index in the graph, node, the tensor holding its quantized output: its own, or
    that of the Relu or Clip reading it alone)."""
    g = model.graph
    inits = {i.name for i in g.initializer}
    # Clip's bounds may be initializers or Constant nodes' outputs (torch.onnx writes Constants).
    constants = inits | {o for n in g.node if n.op_type == "Constant" for o in n.output}
    readers = {}
    for n in g.node:
        for i in n.input:
            readers.setdefault(i, []).append(n)
    graph_outputs = {o.name for o in g.output}
    convs = []
    for index, n in enumerate(g.node):
        if n.op_type != "Conv" or n.domain not in ("", "ai.onnx") or n.name in exclude:
            continue
        if len(n.input) < 2 or n.input[1] not in inits or n.input[0] in inits:
            continue
        if len(n.input) > 2 and n.input[2] and n.input[2] not in inits:
            continue
        out = n.output[0]
        r = readers.get(out, [])
        if len(r) == 1 and out not in graph_outputs and r[0].op_type in ("Relu", "Clip"):
            clip_ok = r[0].op_type == "Relu" or all(i == "" or i in constants for i in r[0].input[1:])
            if clip_ok:
                out = r[0].output[0]
        convs.append((index, n, out))
    return convs


def _pool_plan(model, quantized):
    """MaxPool and AveragePool outputs to quantize with their input's scale and zero point: (output, the
    quantized tensor the pool reads, through Pads), for pools reading one whose output is not quantized yet
    (DenseNet's stem MaxPool and transition AveragePools, read by Concats). A max or mean of values (and a Pad's
    zeros) stays in the input's range, and the MaxPool's quantization is exact; so what reads the pool reads a
    DequantizeLinear, and cnnx's fold-qdq pass keeps the pool and its readers int8."""
    producers = {o: n for n in model.graph.node for o in n.output}
    plan = []
    for n in model.graph.node:
        if n.op_type not in ("MaxPool", "AveragePool") or len(n.output) != 1 or n.output[0] in quantized:
            continue
        x = n.input[0]
        while x not in quantized and x in producers and producers[x].op_type == "Pad":
            x = producers[x].input[0]
        if x in quantized:
            plan.append((n.output[0], x))
    return plan


def quantize(model, calibrate, out, per_channel=True, method="minmax", reduce_range=False, exclude=(),
             threads=0):
    """Writes the QDQ model to `out` and returns the accuracy report (a dict; see the module's doc).
    `calibrate`: a folder of images (searched recursively) or a list of image files."""
    import cnnx
    if method != "minmax":
        raise Error(f"quantize: method '{method}' is not supported yet (minmax)")
    proto = onnx.load(os.fspath(model))
    opset = next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), 0)
    if opset < 13:
        raise Error(f"quantize: the model imports opset {opset}; per-channel QDQ needs opset 13 or later "
                    "(export it at opset 13+)")
    paths = [calibrate] if isinstance(calibrate, (str, os.PathLike)) else list(calibrate)
    files = cnnx.collect_files(paths)
    if not files:
        raise Error("quantize: no calibration images")
    held = files[4::5] if len(files) >= 5 else files
    calib = [f for f in files if f not in held] if len(files) >= 5 else files
    float_model = cnnx.Model(os.fspath(model))
    batches = [cnnx.preprocess(float_model, [f]) for f in calib]
    held_batches = [cnnx.preprocess(float_model, [f]) for f in held]

    _inline_identities(proto)
    _fold_batch_norms(proto)
    convs = _conv_plan(proto, set(exclude))
    if not convs:
        raise Error("quantize: the model has no Conv with constant weights to quantize")
    acts = []  # tensors to quantize, in graph order, once each
    for _, n, y in convs:
        for t in (n.input[0], y):
            if t not in acts:
                acts.append(t)
    ranges = _run_all(_model_with_outputs(proto, acts), batches, acts, threads)
    qparams = {t: _uint8_params(*_activation_range(ranges[t])) for t in acts}
    for y, x in _pool_plan(proto, acts):
        qparams[y] = qparams[x]
        acts.append(y)

    g = proto.graph
    inits = {i.name: i for i in g.initializer}
    new_inits = []
    taken = {i.name for i in g.initializer} | {o for n in g.node for o in n.output} | {i.name for i in g.input}
    pairs = {}  # tensor -> its QuantizeLinear and DequantizeLinear
    before = {}  # Conv's index -> the DequantizeLinears of its weights and bias
    renamed = {}  # tensor -> its DequantizeLinear output
    for t in acts:
        s, z = qparams[t]
        base = t.replace("/", "_").strip("_") or "t"
        new_inits += [numpy_helper.from_array(np.array(s, np.float32), base + "_scale"),
                      numpy_helper.from_array(np.array(z, np.uint8), base + "_zero_point")]
        pairs[t] = ([helper.make_node("QuantizeLinear", [t, base + "_scale", base + "_zero_point"],
                                               [base + "_quantized"], name=base + "_QuantizeLinear"),
                              helper.make_node("DequantizeLinear", [base + "_quantized", base + "_scale",
                                                                    base + "_zero_point"],
                                               [base + "_dequantized"], name=base + "_DequantizeLinear")])
        renamed[t] = base + "_dequantized"
    qmax = 63 if reduce_range else 127
    for index, n, _ in convs:
        w = numpy_helper.to_array(inits[n.input[1]]).astype(np.float32)
        axes = tuple(range(1, w.ndim))
        amax = np.abs(w).max(axis=axes) if per_channel else np.array([np.abs(w).max()])
        w_scale = (np.maximum(amax, 1e-12) / qmax).astype(np.float32)
        shaped = w_scale.reshape((-1,) + (1,) * (w.ndim - 1))
        wq = np.clip(np.round(w / shaped), -qmax, qmax).astype(np.int8)
        # Named per Conv: Convs sharing a weight or bias initializer (torch.onnx's shared biases) each get
        # their own quantized copy, at their own scales.
        wname = _unique(n.input[1] + "_quantized", taken)
        new_inits += [numpy_helper.from_array(wq, wname),
                      numpy_helper.from_array(w_scale if per_channel else w_scale.reshape(()), wname + "_scale"),
                      numpy_helper.from_array(np.zeros(w_scale.shape if per_channel else (), np.int8),
                                              wname + "_zero_point")]
        dq_w = helper.make_node("DequantizeLinear", [wname, wname + "_scale", wname + "_zero_point"],
                                [wname + "_dequantized"], name=n.name + "_weights_DequantizeLinear", axis=0)
        extra = [dq_w]
        x_scale = qparams[n.input[0]][0]
        inputs = [renamed[n.input[0]], wname + "_dequantized"]
        if len(n.input) > 2 and n.input[2]:
            b = numpy_helper.to_array(inits[n.input[2]]).astype(np.float64)
            b_scale = (np.float32(x_scale) * w_scale).astype(np.float32)
            if not per_channel:
                b_scale = np.full(b.shape, b_scale[0], np.float32)
            bq = np.clip(np.round(b / b_scale.astype(np.float64)), -2**31, 2**31 - 1).astype(np.int32)
            bname = _unique(n.input[2] + "_quantized", taken)
            new_inits += [numpy_helper.from_array(bq, bname), numpy_helper.from_array(b_scale, bname + "_scale"),
                          numpy_helper.from_array(np.zeros(b.shape, np.int32), bname + "_zero_point")]
            extra.append(helper.make_node("DequantizeLinear", [bname, bname + "_scale", bname + "_zero_point"],
                                          [bname + "_dequantized"], name=n.name + "_bias_DequantizeLinear", axis=0))
            inputs.append(bname + "_dequantized")
        del n.input[:]
        n.input.extend(inputs)
        before[index] = extra
    # The graph rebuilt in order: each quantized tensor's pair right after its producer (graph inputs first);
    # readers of a quantized tensor read its DequantizeLinear (but the pair's own QuantizeLinear).
    ordered = [n for i in g.input if i.name in pairs for n in pairs[i.name]]
    for index, node in enumerate(g.node):
        for k, name in enumerate(node.input):
            if name in renamed:
                node.input[k] = renamed[name]
        ordered += before.get(index, [])
        ordered.append(node)
        for o in node.output:
            ordered += pairs.get(o, [])
    copies = []
    for node in ordered:
        c = onnx.NodeProto()
        c.CopyFrom(node)
        copies.append(c)
    del g.node[:]
    g.node.extend(copies)
    used = {i for n in g.node for i in n.input}
    kept = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(kept + [i for i in new_inits if i.name in used])
    onnx.save(proto, os.fspath(out))
    return _report(model, out, held_batches, [(n.name, y) for _, n, y in convs], renamed, threads, len(calib), len(held))


def _report(float_path, quant_path, batches, layers, renamed, threads, n_calib, n_held):
    f_model = onnx.load(os.fspath(float_path))
    q_model = onnx.load(os.fspath(quant_path))
    out_name = f_model.graph.output[0].name
    f_names = [out_name] + [y for _, y in layers]
    q_names = [out_name] + [renamed[y] for _, y in layers]
    f = _run_all(_model_with_outputs(f_model, f_names), batches, f_names, threads)
    q = _run_all(_model_with_outputs(q_model, q_names), batches, q_names, threads)
    agree, overlap = 0, 0.0
    for a, b in zip(f[out_name], q[out_name]):
        a, b = a.reshape(-1), b.reshape(-1)
        agree += int(np.argmax(a) == np.argmax(b))
        overlap += len(set(np.argsort(-a)[:5]) & set(np.argsort(-b)[:5])) / 5.0
    rows = []
    for (name, y), qy in zip(layers, q_names[1:]):
        sig = sum(float(np.sum(np.square(v.astype(np.float64)))) for v in f[y])
        err = sum(float(np.sum(np.square(v.astype(np.float64) - w.astype(np.float64)))) for v, w in zip(f[y], q[qy]))
        rows.append({"node": name, "tensor": y, "sqnr_db": 10 * np.log10(sig / err) if err > 0 else float("inf")})
    rows.sort(key=lambda r: r["sqnr_db"])
    n = max(1, len(batches))
    return {"images_calibration": n_calib, "images_held_back": n_held, "top1_agreement": agree / n,
            "top5_overlap": overlap / n, "layers": rows}
