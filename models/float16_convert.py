"""Float32 ONNX models converted to float16 the ways float16 models are shipped (what onnxconverter-common's
float16 converter and `.half()` exports make), for the float16 tests (tests/python/test_float16.py) and the
float16 benchmark (bench/float16.sh):

  weights   every float initializer stored as float16, read through Cast(to float32) (IS-Net's export);
  graph     the whole graph in float16, float16 input and output;
  graph_io  the whole graph in float16 with float32 input and output, through Casts.

Usage: python3 models/float16_convert.py weights|graph|graph_io IN.onnx OUT.onnx"""
import sys

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as onh
from onnx import TensorProto

H, F = TensorProto.FLOAT16, TensorProto.FLOAT


def float_constants(model):
    """Every float32 tensor the graph holds: initializers and Constant nodes' values."""
    for t in model.graph.initializer:
        if t.data_type == F:
            yield t
    for node in model.graph.node:
        if node.op_type == "Constant":
            for a in node.attribute:
                if a.name == "value" and a.t.data_type == F:
                    yield a.t


def rounded_to_float16(model):
    """The float32 model holding the float16 values of its constants (the reference)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for t in float_constants(m):
        t.CopyFrom(onh.from_array(onh.to_array(t).astype(np.float16).astype(np.float32), t.name))
    return m


def weights_as_float16(model):
    """Initializers stored as float16 and read through Cast(to float32) nodes."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    casts = []
    for t in list(m.graph.initializer):
        if t.data_type != F:
            continue
        half = onh.from_array(onh.to_array(t).astype(np.float16), t.name + "_fp16")
        casts.append(oh.make_node("Cast", [half.name], [t.name], to=F, name=t.name + "_cast"))
        m.graph.initializer.remove(t)
        m.graph.initializer.append(half)
    nodes = casts + list(m.graph.node)
    del m.graph.node[:]
    m.graph.node.extend(nodes)
    return m


def graph_as_float16(model, keep_io_float32):
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for t in float_constants(m):
        t.CopyFrom(onh.from_array(onh.to_array(t).astype(np.float16), t.name))
    for node in m.graph.node:
        if node.op_type == "Cast":
            for a in node.attribute:
                if a.name == "to" and a.i == F:
                    a.i = H
    del m.graph.value_info[:]
    if not keep_io_float32:
        for v in list(m.graph.input) + list(m.graph.output):
            v.type.tensor_type.elem_type = H
        return m
    (x,), (y,) = m.graph.input, m.graph.output
    for node in m.graph.node:
        node.input[:] = ["x_fp16" if i == x.name else i for i in node.input]
        node.output[:] = ["y_fp16" if o == y.name else o for o in node.output]
    nodes = [oh.make_node("Cast", [x.name], ["x_fp16"], to=H, name="cast_in")] + list(m.graph.node) + \
            [oh.make_node("Cast", ["y_fp16"], [y.name], to=F, name="cast_out")]
    del m.graph.node[:]
    m.graph.node.extend(nodes)
    return m


def convert(kind, model):
    if kind == "weights":
        return weights_as_float16(model)
    if kind in ("graph", "graph_io"):
        return graph_as_float16(model, keep_io_float32=kind == "graph_io")
    raise SystemExit(f"float16_convert.py: unknown conversion '{kind}' (weights, graph or graph_io)")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__.split("Usage: ")[1])
    onnx.save(convert(sys.argv[1], onnx.load(sys.argv[2])), sys.argv[3])
