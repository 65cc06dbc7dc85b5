#!/usr/bin/python3
"""Writes the bad-input corpus: malformed models and inputs cnnx must refuse cleanly, and valid edge cases it
must run.

    /usr/bin/python3 make_corpus.py OUTDIR

Each case gets its own folder OUTDIR/<case>/ (so external-data cases have a model folder of their own) and
one entry in OUTDIR/manifest.json:

    {"name": ..., "file": "<case>/model.onnx", "args": ["run", "<case>/model.onnx", ...],
     "expect": "error", "contains": ["node 'c' (Conv)", "stride"]}     # every string must be in stderr
    {"name": ..., "expect": "ok", "outputs": {"y": "<case>/y_expected.npy"}}   # optional exact check

Paths in args are relative to OUTDIR (run_corpus.py runs cnnx there). Bad models are built with
onnx.helper and raw protobuf bytes; onnx.checker is never run on them.
"""
import json
import os
import random
import shutil
import struct
import sys
import zlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I64 = TensorProto.INT64


class Corpus:
    def __init__(self, root):
        self.root = root
        self.cases = []
        self.names = set()

    def folder(self, name):
        d = os.path.join(self.root, name)
        os.makedirs(d, exist_ok=True)
        return d

    def write(self, name, filename, data):
        path = os.path.join(self.folder(name), filename)
        with open(path, "wb") as f:
            f.write(data)
        return f"{name}/{filename}"

    def npy(self, name, filename, array):
        np.save(os.path.join(self.folder(name), filename), array)
        return f"{name}/{filename}"

    def add(self, name, model, inputs=(), expect="error", contains=(), command="run", extra_args=(),
            outputs=None, model_file="model.onnx", model_path=None):
        """model: ModelProto, bytes, or None (nothing written; model_path names an existing file relative
        to the corpus root). inputs: arrays (written as .npy) or ready-made relative paths (str)."""
        assert name not in self.names, name
        self.names.add(name)
        if isinstance(model, onnx.ModelProto):
            model = model.SerializeToString()
        if model is not None:
            self.write(name, model_file, model)
        file = model_path or f"{name}/{model_file}"
        args = [command, file]
        for i, x in enumerate(inputs):
            args.append(x if isinstance(x, str) else self.npy(name, f"input_{i}.npy", x))
        case = {"name": name, "file": file, "args": args + list(extra_args), "expect": expect}
        if expect == "error":
            assert contains, name
            case["contains"] = list(contains)
        if outputs:
            case["outputs"] = {k: self.npy(name, f"expected_{k}.npy", v) for k, v in outputs.items()}
        # `cnnx run` on both backends: the default one (oneDNN) is what users run, the reference one the oracle.
        backends = ("dnnl", "ref") if command == "run" and "--backend" not in extra_args else (None,)
        for backend in backends:
            c = dict(case)
            if backend:
                c["name"] = f"{name} [{backend}]"
                c["args"] = args + ["--backend", backend] + list(extra_args)
            self.cases.append(c)


def make_model(nodes, inputs, outputs, initializers=(), opset=19, ir_version=8, opsets=None):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    imports = opsets if opsets is not None else [helper.make_opsetid("", opset)]
    return helper.make_model(graph, opset_imports=imports, ir_version=ir_version, producer_name="bad_input")


def vi(name, shape, elem=F):
    return helper.make_tensor_value_info(name, elem, shape)


def relu_model(in_shape=(1, 3), **kw):
    return make_model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", list(in_shape))],
                      [vi("y", list(in_shape))], **kw)


def tiny_png():
    """A valid 2x2 RGB PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes([200, 100, 50] * 2) for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def x13():
    return np.array([[-1.0, 0.5, 2.0]], dtype=np.float32)


def raw_tensor(name, dims, data=b"", dtype=F):
    t = TensorProto()
    t.name = name
    t.data_type = dtype
    t.dims.extend(dims)
    t.raw_data = data
    return t


def add_with_weight(weight, x_shape=(4,)):
    """y = Add(x, W) with W an initializer: the carrier for bad initializers."""
    return make_model([helper.make_node("Add", ["x", "W"], ["y"], name="add")], [vi("x", list(x_shape))],
                      [vi("y", None)], initializers=[weight])


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


# ---------------------------------------------------------------------------------------------- files

def file_cases(c):
    good = relu_model().SerializeToString()
    c.add("truncated_model", good[: len(good) // 2], [x13()], contains=["not a valid ONNX protobuf"])
    c.add("truncated_one_byte", good[:-1], [x13()], contains=["not a valid ONNX protobuf"])
    c.add("random_bytes", random.Random(20240611).randbytes(4096), [x13()],
          contains=["not a valid ONNX protobuf"])
    c.add("empty_file", b"", [x13()], contains=["the model has no graph"])
    c.add("truncated_inspect", good[: len(good) // 2], command="inspect", contains=["not a valid ONNX protobuf"])
    m = relu_model()
    m.ClearField("graph")
    c.add("no_graph", m, [x13()], contains=["the model has no graph"])
    c.add("missing_model_file", None, [x13()], model_path="missing_model_file/absent.onnx", contains=["absent.onnx"])
    c.folder("model_is_folder/model.onnx")
    c.add("model_is_folder", None, [x13()], contains=["model.onnx"])

    # Subgraphs nested 200 deep (If.then_branch): protobuf's recursion limit must stop the parse.
    inner = helper.make_graph([], "leaf", [], [vi("x", [1, 3])])
    for depth in range(200):
        node = helper.make_node("If", ["cond"], ["x"], name=f"if{depth}", then_branch=inner)
        inner = helper.make_graph([node], f"g{depth}", [], [vi("x", [1, 3])])
    m = make_model(inner.node, [vi("cond", [], TensorProto.BOOL)], [vi("x", [1, 3])])
    c.add("nested_subgraphs_200", m, [np.array(True)], contains=["not a valid ONNX protobuf"])


# ---------------------------------------------------------------------------------------------- graph

def graph_cases(c):
    n = helper.make_node
    cyc = make_model([n("Add", ["x", "c"], ["b"], name="add_cyc"), n("Relu", ["b"], ["c"], name="relu_cyc")],
                     [vi("x", [1, 3])], [vi("b", [1, 3])])
    c.add("cycle", cyc, [x13()], contains=["node 'add_cyc' (Add)", "cycle"])
    downstream = make_model([n("Relu", ["b"], ["out"], name="consumer"), n("Add", ["x", "c"], ["b"], name="add_cyc"),
                             n("Relu", ["b"], ["c"], name="relu_cyc")], [vi("x", [1, 3])], [vi("out", [1, 3])])
    c.add("cycle_with_downstream_node", downstream, [x13()],
          contains=["node 'add_cyc' (Add): is part of a cycle ('add_cyc' -> 'relu_cyc' -> 'add_cyc')"])
    ring = make_model([n("Relu", [f"t{(i - 1) % 20}"], [f"t{i}"], name=f"r{i}") for i in range(20)], [vi("x", [1, 3])],
                      [vi("t19", [1, 3])])
    c.add("cycle_of_20", ring, [x13()], contains=["node 'r0' (Relu): is part of a cycle ('r0' -> 'r1'", "-> ... -> 'r0')"])
    selfloop = make_model([n("Add", ["x", "y"], ["y"], name="self_loop")], [vi("x", [1, 3])], [vi("y", [1, 3])])
    c.add("self_loop", selfloop, [x13()], contains=["node 'self_loop' (Add)", "cycle"])
    undef = make_model([n("Add", ["x", "ghost"], ["y"], name="add_ghost")], [vi("x", [1, 3])], [vi("y", [1, 3])])
    c.add("undefined_input", undef, [x13()], contains=["node 'add_ghost' (Add)", "'ghost'"])
    dup = make_model([n("Relu", ["x"], ["y"], name="first"), n("Relu", ["x"], ["y"], name="second")],
                     [vi("x", [1, 3])], [vi("y", [1, 3])])
    c.add("duplicate_output", dup, [x13()], contains=["node 'second' (Relu)", "output 'y'"])
    shadow = make_model([n("Relu", ["x"], ["x"], name="shadow")], [vi("x", [1, 3])], [vi("x", [1, 3])])
    c.add("output_overwrites_input", shadow, [x13()], contains=["node 'shadow' (Relu)", "output 'x'"])
    w = helper.make_tensor("W", F, [3], [1, 2, 3])
    shadow_init = make_model([n("Relu", ["x"], ["W"], name="over_init")], [vi("x", [3])], [vi("W", [3])],
                             initializers=[w])
    c.add("output_overwrites_initializer", shadow_init, [np.ones(3, np.float32)],
          contains=["node 'over_init' (Relu)", "output 'W'"])
    not_produced = make_model([n("Relu", ["x"], ["y"], name="relu")], [vi("x", [1, 3])], [vi("z", [1, 3])])
    c.add("output_not_produced", not_produced, [x13()], contains=["graph output 'z'"])
    no_out = make_model([n("Relu", ["x"], ["y"], name="relu")], [vi("x", [1, 3])], [])
    c.add("no_outputs", no_out, [x13()], contains=["no outputs"])
    twice = make_model([n("Relu", ["x"], ["y"], name="relu")], [vi("x", [1, 3])], [vi("y", [1, 3]), vi("y", [1, 3])])
    c.add("output_listed_twice", twice, [x13()], contains=["graph output 'y'", "twice"])
    in_twice = make_model([n("Relu", ["x"], ["y"], name="relu")], [vi("x", [1, 3]), vi("x", [1, 3])],
                          [vi("y", [1, 3])])
    c.add("input_listed_twice", in_twice, [x13(), x13()], contains=["graph input 'x'", "twice"])
    unnamed_in = make_model([n("Relu", ["x"], ["y"], name="relu")], [vi("x", [1, 3]), vi("", [1])],
                            [vi("y", [1, 3])])
    c.add("input_without_name", unnamed_in, [x13()], contains=["graph input", "no name"])
    omitted = make_model([n("Relu", [""], ["y"], name="relu_omitted")], [vi("x", [1, 3])], [vi("y", [1, 3])])
    c.add("required_input_omitted", omitted, [x13()], contains=["node 'relu_omitted' (Relu)", "input 0"])
    extra_in = make_model([n("Relu", ["x", "x"], ["y"], name="relu2")], [vi("x", [1, 3])], [vi("y", [1, 3])])
    c.add("node_too_many_inputs", extra_in, [x13()], contains=["node 'relu2' (Relu)", "got 2"])
    no_type = make_model([n("", ["x"], ["y"], name="anon")], [vi("x", [1, 3])], [vi("y", [1, 3])])
    c.add("node_without_op_type", no_type, [x13()], contains=["node 'anon'", "op_type"])
    bcast = make_model([n("Add", ["a", "b"], ["y"], name="add_bcast")], [vi("a", [2, 3]), vi("b", [4])],
                       [vi("y", None)])
    c.add("broadcast_mismatch", bcast, [np.ones((2, 3), np.float32), np.ones(4, np.float32)],
          contains=["node 'add_bcast' (Add)"])
    seq = make_model([n("Relu", ["x"], ["y"], name="relu")],
                     [helper.make_value_info("x", helper.make_sequence_type_proto(
                         helper.make_tensor_type_proto(F, [1, 3])))], [vi("y", [1, 3])])
    c.add("sequence_input", seq, [x13()], contains=["tensor 'x'", "only tensors"])
    u16 = make_model([n("Relu", ["x"], ["y"], name="relu")], [vi("x", [1, 3], TensorProto.UINT16)],
                     [vi("y", [1, 3])])
    c.add("uint16_input", u16, [x13()], contains=["tensor 'x'", "element type 4"])
    c.add("input_rank_20000", relu_model(in_shape=[1] * 20000), [x13()], contains=["tensor 'x'", "rank"])
    neg_in = relu_model()
    neg_in.graph.input[0].type.tensor_type.shape.dim[1].dim_value = -3
    c.add("input_negative_dim", neg_in, [x13()], contains=["tensor 'x'", "-3"])
    # Integer division by zero in a constant subgraph: folded at load, must be an error, not SIGFPE.
    a = helper.make_tensor("a", I64, [2], [7, 8])
    z = helper.make_tensor("zero", I64, [2], [1, 0])
    div = make_model([n("Div", ["a", "zero"], ["q"], name="div0"), n("Add", ["x", "q"], ["y"], name="add")],
                     [vi("x", [2], I64)], [vi("y", [2], I64)], initializers=[a, z])
    c.add("int_division_by_zero", div, [np.array([1, 2], np.int64)], contains=["node 'div0' (Div)", "zero"])
    # Integer Mod by zero, folded at load and at run time; integer Pow of 0 to a negative power.
    mod = make_model([n("Mod", ["a", "zero"], ["q"], name="mod0"), n("Add", ["x", "q"], ["y"], name="add")],
                     [vi("x", [2], I64)], [vi("y", [2], I64)], initializers=[a, z])
    c.add("int_mod_by_zero", mod, [np.array([1, 2], np.int64)], contains=["node 'mod0' (Mod)", "zero"])
    mod_x = make_model([n("Mod", ["x", "zero"], ["y"], name="mod_x")], [vi("x", [2], I64)], [vi("y", [2], I64)],
                       initializers=[z])
    c.add("int_mod_by_zero_at_run", mod_x, [np.array([1, 2], np.int64)], contains=["node 'mod_x' (Mod)", "zero"])
    neg = helper.make_tensor("neg", I64, [1], [-1])
    pow0 = make_model([n("Pow", ["x", "neg"], ["y"], name="pow_neg")], [vi("x", [2], I64)], [vi("y", [2], I64)],
                      initializers=[neg])
    c.add("int_pow_zero_negative", pow0, [np.array([2, 0], np.int64)],
          contains=["node 'pow_neg' (Pow)", "negative exponent"])
    # Before opset 7 B broadcasts only with broadcast=1, and only where it fits A at axis.
    legacy = make_model([n("Add", ["x", "b"], ["y"], name="add_legacy")], [vi("x", [2, 3]), vi("b", [3])],
                        [vi("y", [2, 3])], opset=6)
    c.add("legacy_add_without_broadcast", legacy, [np.zeros((2, 3), np.float32), np.zeros(3, np.float32)],
          contains=["node 'add_legacy' (Add)", "broadcast=1"])
    legacy_axis = make_model([n("Add", ["x", "b"], ["y"], name="add_axis", broadcast=1, axis=2)],
                             [vi("x", [2, 3]), vi("b", [3])], [vi("y", [2, 3])], opset=6)
    c.add("legacy_add_axis_outside", legacy_axis, [np.zeros((2, 3), np.float32), np.zeros(3, np.float32)],
          contains=["node 'add_axis' (Add)", "axis 2"])


# ---------------------------------------------------------------------------------------------- opsets

def opset_cases(c):
    n = helper.make_node
    unknown = make_model([n("FooBar", ["x"], ["y"], name="foo")], [vi("x", [1, 3])], [vi("y", [1, 3])])
    c.add("unknown_op", unknown, [x13()], contains=["node 'foo' (FooBar)", "not supported"])
    dom = make_model([n("Relu", ["x"], ["y"], name="custom", domain="com.example")], [vi("x", [1, 3])],
                     [vi("y", [1, 3])], opsets=[helper.make_opsetid("", 19), helper.make_opsetid("com.example", 1)])
    c.add("unknown_domain", dom, [x13()], contains=["node 'custom' (com.example:Relu)", "com.example"])
    unimported = make_model([n("Relu", ["x"], ["y"], name="custom", domain="com.other")], [vi("x", [1, 3])],
                            [vi("y", [1, 3])])
    c.add("domain_not_imported", unimported, [x13()], contains=["node 'custom' (com.other:Relu)", "com.other"])
    for op in ("FusedConv", "FusedConvFloat16", "RoundToFloat16", "ChannelShuffle", "Gelu", "GeluTanh",
               "FusedMatMul", "QLinearChannelLookup"):  # made by cnnx's graph passes only
        internal = make_model([n(op, ["x"], ["y"], name="inside", domain="cnnx.internal")], [vi("x", [1, 2, 3])],
                              [vi("y", [1, 2, 3])],
                              opsets=[helper.make_opsetid("", 19), helper.make_opsetid("cnnx.internal", 1)])
        c.add(f"internal_{op}", internal, [np.zeros((1, 2, 3), np.float32)],
              contains=[f"node 'inside' (cnnx.internal:{op})", "not read from models"])
    c.add("opset_20", relu_model(opset=20), [x13()], contains=["opset 20"])
    c.add("opset_0", relu_model(opset=0), [x13()], contains=["opset 0"])
    c.add("opset_imported_twice", relu_model(opsets=[helper.make_opsetid("", 13), helper.make_opsetid("", 14)]),
          [x13()], contains=["imported twice"])
    c.add("no_default_opset", relu_model(opsets=[helper.make_opsetid("com.example", 1)]), [x13()],
          contains=["default ONNX opset"])
    hs = make_model([n("HardSwish", ["x"], ["y"], name="hswish")], [vi("x", [1, 3])], [vi("y", [1, 3])], opset=13)
    c.add("op_newer_than_opset", hs, [x13()], contains=["node 'hswish' (HardSwish)", "opset 14"])


# ---------------------------------------------------------------------------------------------- tensors

def tensor_cases(c):
    x4 = np.ones(4, np.float32)
    c.add("raw_data_short", add_with_weight(raw_tensor("W", [4], b"\0" * 12)), [x4],
          contains=["tensor 'W'", "raw_data"])
    c.add("raw_data_long", add_with_weight(raw_tensor("W", [4], b"\0" * 20)), [x4],
          contains=["tensor 'W'", "raw_data"])
    # raw_data (the tensor's last field) declaring 19 bytes where its TensorProto holds 16: the import reads
    # raw_data from the file where it lies, so its length must be checked against the enclosing messages.
    good = add_with_weight(raw_tensor("W", [4], b"\x07" * 16)).SerializeToString()
    assert good.count(b"\x4a\x10" + b"\x07" * 16) == 1
    c.add("raw_data_past_its_tensor", good.replace(b"\x4a\x10" + b"\x07" * 16, b"\x4a\x13" + b"\x07" * 16), [x4],
          contains=["not a valid ONNX protobuf"])
    c.add("float_data_short", add_with_weight(TensorProto(name="W", data_type=F, dims=[4], float_data=[1, 2, 3])), [x4],
          contains=["tensor 'W'", "float_data"])
    c.add("float_data_long", add_with_weight(TensorProto(name="W", data_type=F, dims=[4], float_data=[1, 2, 3, 4, 5])), [x4],
          contains=["tensor 'W'", "float_data"])
    c.add("negative_dim", add_with_weight(raw_tensor("W", [-2, 2], b"\0" * 16)), [x4],
          contains=["tensor 'W'", "-2"])
    c.add("dims_overflow_int64", add_with_weight(raw_tensor("W", [1 << 40, 1 << 40, 1 << 40])), [x4],
          contains=["tensor 'W'", "overflows"])
    c.add("dims_product_wraps_to_small", add_with_weight(raw_tensor("W", [1 << 62, 4], b"\0" * 16)), [x4],
          contains=["tensor 'W'", "overflows"])
    c.add("dim_int64_max", add_with_weight(raw_tensor("W", [(1 << 63) - 1])), [x4],
          contains=["tensor 'W'"])
    # 16 GiB declared, no data: refused by the per-tensor limit before any allocation.
    c.add("initializer_rank_20000", add_with_weight(raw_tensor("W", [1] * 20000, b"\0" * 4), x_shape=(1,)),
          [np.ones(1, np.float32)], contains=["tensor 'W'", "rank"])
    c.add("tensor_over_limit", add_with_weight(raw_tensor("W", [1 << 32, 1])), [x4],
          contains=["tensor 'W'", "limit"])
    # 1 GiB declared through float_data but no values given: must be refused before allocating 1 GiB.
    big = TensorProto(name="W", data_type=F, dims=[1 << 28])
    c.add("float_data_missing_for_1gib", add_with_weight(big), [x4], contains=["tensor 'W'", "float_data"])
    c.add("string_initializer", add_with_weight(helper.make_tensor("W", TensorProto.STRING, [1], [b"a"])), [x4],
          contains=["tensor 'W'", "element type 8"])
    c.add("undefined_elem_type", add_with_weight(raw_tensor("W", [4], b"\0" * 16, dtype=0)), [x4],
          contains=["tensor 'W'", "element type 0"])
    seg = helper.make_tensor("W", F, [4], [1, 2, 3, 4])
    seg.segment.begin = 0
    seg.segment.end = 2
    c.add("segmented_initializer", add_with_weight(seg), [x4], contains=["tensor 'W'", "segment"])
    m = add_with_weight(helper.make_tensor("", F, [4], [1, 2, 3, 4]))
    c.add("initializer_without_name", m, [x4], contains=["initializer", "no name"])
    m = add_with_weight(helper.make_tensor("W", F, [4], [1, 2, 3, 4]))
    m.graph.initializer.append(helper.make_tensor("W", F, [4], [1, 2, 3, 4]))
    c.add("initializer_twice", m, [x4], contains=["initializer 'W'", "twice"])
    m = add_with_weight(helper.make_tensor("W", F, [4], [1, 2, 3, 4]))
    sp = m.graph.sparse_initializer.add()
    sp.values.CopyFrom(helper.make_tensor("S", F, [1], [1]))
    sp.indices.CopyFrom(helper.make_tensor("S_i", I64, [1], [0]))
    sp.dims.extend([4])
    c.add("sparse_initializer", m, [x4], contains=["sparse"])
    # An attribute tensor is checked like an initializer, whether or not the op reads it.
    node = helper.make_node("LeakyRelu", ["x"], ["y"], name="lrelu_t", alpha=0.1)
    node.attribute.append(helper.make_attribute("junk", raw_tensor("T", [8], b"\0" * 4)))
    m = make_model([node], [vi("x", [4])], [vi("y", [4])])
    c.add("attribute_tensor_raw_data_short", m, [x4], contains=["node 'lrelu_t' (LeakyRelu)", "tensor 'T'"])


# ---------------------------------------------------------------------------------------------- attributes

def conv_model(name, x_shape, w_shape, **attrs):
    w = helper.make_tensor("W", F, w_shape, np.ones(int(np.prod(w_shape)), np.float32))
    node = helper.make_node("Conv", ["x", "W"], ["y"], name=name, **attrs)
    return make_model([node], [vi("x", list(x_shape))], [vi("y", None)], initializers=[w])


def attribute_cases(c):
    x155 = np.ones((1, 1, 5, 5), np.float32)
    c.add("conv_zero_stride", conv_model("conv_s0", [1, 1, 5, 5], [1, 1, 3, 3], strides=[0, 1]), [x155],
          contains=["node 'conv_s0' (Conv)", "stride"])
    c.add("conv_negative_pads", conv_model("conv_pneg", [1, 1, 5, 5], [1, 1, 3, 3], pads=[-1, 0, 0, 0]), [x155],
          contains=["node 'conv_pneg' (Conv)", "pad"])
    c.add("conv_kernel_larger_than_input", conv_model("conv_big", [1, 1, 3, 3], [1, 1, 5, 5], pads=[0, 0, 0, 0]),
          [np.ones((1, 1, 3, 3), np.float32)], contains=["node 'conv_big' (Conv)", "kernel"])
    c.add("conv_group_not_dividing", conv_model("conv_g", [1, 3, 5, 5], [2, 1, 3, 3], group=2),
          [np.ones((1, 3, 5, 5), np.float32)], contains=["node 'conv_g' (Conv)", "group"])
    # ConvTranspose: output_shape sizes the output from an attribute (checked against the tensor limit when
    # planning); output_padding must stay below its stride or dilation.
    wt = helper.make_tensor("W", F, [1, 1, 3, 3], np.ones(9, np.float32))
    ct_big = make_model([helper.make_node("ConvTranspose", ["x", "W"], ["y"], name="ct_big",
                                          output_shape=[1 << 20, 1 << 20])],
                        [vi("x", [1, 1, 5, 5])], [vi("y", None)], initializers=[wt])
    c.add("convtranspose_output_shape_beyond_tensor_limit", ct_big, [x155], contains=["'y'", "limit"])
    ct_pad = make_model([helper.make_node("ConvTranspose", ["x", "W"], ["y"], name="ct_outpad", strides=[2, 2],
                                          output_padding=[2, 0])],
                        [vi("x", [1, 1, 5, 5])], [vi("y", None)], initializers=[wt])
    c.add("convtranspose_output_padding_not_below_stride", ct_pad, [x155],
          contains=["node 'ct_outpad' (ConvTranspose)", "output_padding"])
    pool = make_model([helper.make_node("AveragePool", ["x"], ["y"], name="pool_s0", kernel_shape=[2, 2],
                                        strides=[1, 0])], [vi("x", [1, 1, 5, 5])], [vi("y", None)])
    c.add("averagepool_zero_stride", pool, [x155], contains=["node 'pool_s0' (AveragePool)", "stride"])
    # Normalization shapes checked against the run's concrete dims (C unknown at load) and at load (axis).
    ones = lambda *shape: np.ones(shape, np.float32)
    gn = make_model([helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], name="gn", num_groups=3)],
                    [vi("x", [1, None, 2]), vi("s", [3]), vi("b", [3])], [vi("y", None)], opset=18)
    c.add("groupnorm_groups_not_dividing", gn, [ones(1, 4, 2), ones(3), ones(3)],
          contains=["node 'gn' (GroupNormalization)", "'num_groups' = 3 does not divide the 4 channels"])
    ln = make_model([helper.make_node("LayerNormalization", ["x", "s"], ["y"], name="ln", axis=3)],
                    [vi("x", [2, 3]), vi("s", [3])], [vi("y", None)], opset=17)
    c.add("layernorm_axis_out_of_range", ln, [ones(2, 3), ones(3)],
          contains=["node 'ln' (LayerNormalization)", "'axis' = 3 is out of range"])
    inorm = make_model([helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"], name="in")],
                       [vi("x", [1, None, 2]), vi("s", [3]), vi("b", [3])], [vi("y", None)], opset=6)
    c.add("instancenorm_scale_size", inorm, [ones(1, 4, 2), ones(3), ones(3)],
          contains=["node 'in' (InstanceNormalization)", "scale has 3 elements but C = 4"])

    x4 = np.ones(4, np.float32)
    lrelu = lambda **a: make_model([helper.make_node("LeakyRelu", ["x"], ["y"], name="lrelu", **a)],
                                   [vi("x", [4])], [vi("y", [4])])
    c.add("attribute_wrong_type", lrelu(alpha=3), [x4], contains=["node 'lrelu' (LeakyRelu)", "'alpha'"])
    c.add("attribute_wrong_type_string", lrelu(alpha="big"), [x4], contains=["node 'lrelu' (LeakyRelu)", "'alpha'"])
    c.add("attribute_unknown", lrelu(alpha=0.1, beta=2.0), [x4], contains=["node 'lrelu' (LeakyRelu)", "'beta'"])
    m = lrelu(alpha=0.1)
    m.graph.node[0].attribute.append(helper.make_attribute("alpha", 0.2))
    c.add("attribute_twice", m, [x4], contains=["node 'lrelu' (LeakyRelu)", "'alpha'", "twice"])
    m = lrelu(alpha=0.1)
    m.graph.node[0].attribute[0].name = ""
    c.add("attribute_without_name", m, [x4], contains=["node 'lrelu' (LeakyRelu)", "no name"])
    # type says INT but only the float field is set.
    m = lrelu(alpha=0.1)
    m.graph.node[0].attribute[0].type = onnx.AttributeProto.INT
    c.add("attribute_type_field_mismatch", m, [x4], contains=["node 'lrelu' (LeakyRelu)", "'alpha'"])
    # No type at all (field 20 absent).
    m = lrelu(alpha=0.1)
    m.graph.node[0].attribute[0].ClearField("type")
    c.add("attribute_without_type", m, [x4], contains=["node 'lrelu' (LeakyRelu)", "'alpha'", "type"])
    # type = 99, not an AttributeType value: written as raw bytes (protobuf refuses to set it).
    attr = helper.make_attribute("alpha", 0.1)
    attr.ClearField("type")
    raw = attr.SerializeToString() + varint(20 << 3 | 0) + varint(99)
    m = make_model([helper.make_node("LeakyRelu", ["x"], ["y"], name="lrelu")], [vi("x", [4])], [vi("y", [4])])
    m.graph.node[0].attribute.add().MergeFromString(raw)
    data = m.SerializeToString()
    assert varint(160) + varint(99) in data, "unknown enum value was dropped"
    c.add("attribute_invalid_type_enum", data, [x4], contains=["node 'lrelu' (LeakyRelu)", "'alpha'", "99"])


# ---------------------------------------------------------------------------------------------- subgraphs

def subgraph_cases(c):
    """If and Loop: malformed and hostile subgraphs refused by node and attribute name; two that run."""
    n = helper.make_node
    B = TensorProto.BOOL
    body = helper.make_graph([n("Relu", ["x"], ["y"], name="inner")], "body", [vi("x", [1, 3])], [vi("y", [1, 3])])
    cond = vi("cond", [], B)
    m = make_model([n("If", ["cond"], ["y"], name="if", then_branch=body, else_branch=body)], [cond],
                   [vi("y", [1, 3])])
    c.add("subgraph_if_branch_with_input", m, [np.array(True)],
          contains=["node 'if' (If)", "attribute 'then_branch' declares 1 inputs"])
    m = make_model([n("If", ["cond"], ["y"], name="if_then", then_branch=body)], [cond], [vi("y", [1, 3])])
    c.add("subgraph_if_then_only", m, [np.array(True)], contains=["node 'if_then' (If)", "attribute 'else_branch'"])
    m = make_model([n("Loop", ["", "cond", "x"], ["y"], name="loop", body=body)],
                   [vi("x", [1, 3]), cond], [vi("y", [1, 3])])
    c.add("subgraph_loop_body_inputs", m, [x13(), np.array(True)],
          contains=["node 'loop' (Loop)", "attribute 'body' declares 1 inputs"])
    m = make_model([n("Scan", ["x"], ["y"], name="scan", body=body, num_scan_inputs=1)], [vi("x", [1, 3])],
                   [vi("y", [1, 3])], opset=8)
    c.add("subgraph_scan_8", m, [x13()], contains=["node 'scan' (Scan)", "Scan-8", "not supported"])
    m = relu_model()
    m.graph.node[0].attribute.append(helper.make_attribute("g", body))
    c.add("subgraph_on_relu", m, [x13()], contains=["node 'relu' (Relu)", "unknown attribute 'g'"])
    m = relu_model()
    m.graph.node[0].attribute.append(helper.make_attribute("branches", [body, body]))
    c.add("subgraphs_list_on_relu", m, [x13()], contains=["node 'relu' (Relu)", "attribute 'branches'", "GRAPHS"])
    m = relu_model()
    empty = m.graph.node[0].attribute.add()
    empty.name, empty.type = "none", onnx.AttributeProto.GRAPHS
    c.add("subgraphs_empty_list", m, [x13()], contains=["node 'relu' (Relu)", "attribute 'none'", "GRAPHS"])
    m = relu_model()
    bare = m.graph.node[0].attribute.add()
    bare.name, bare.type = "bare", onnx.AttributeProto.GRAPH
    c.add("subgraph_type_without_graph", m, [x13()],
          contains=["node 'relu' (Relu)", "attribute 'bare'", "has type GRAPH but no value"])

    # A branch reading a name no scope defines: refused by the node holding it.
    ghost = helper.make_graph([n("Add", ["x", "ghost"], ["y"], name="add_ghost")], "then", [], [vi("y", [1, 3])])
    plain = helper.make_graph([n("Relu", ["x"], ["y"], name="relu_else")], "else", [], [vi("y", [1, 3])])
    m = make_model([n("If", ["cond"], ["y"], name="if_ghost", then_branch=ghost, else_branch=plain)],
                   [cond, vi("x", [1, 3])], [vi("y", [1, 3])])
    c.add("subgraph_undefined_name", m, [np.array(True), x13()],
          contains=["node 'if_ghost' (If)", "input 'ghost' is not defined"])
    # If nested 18 deep (in else_branch; then_branch a leaf, so the file stays small): past cnnx's bound of 16,
    # under protobuf's recursion limit. The error names the chain from the outermost node, if17.
    leaf = helper.make_graph([n("Identity", ["x"], ["y"], name="leaf")], "leaf", [], [vi("y", [1, 3])])
    inner = leaf
    for depth in range(18):
        node = n("If", ["cond"], ["y"], name=f"if{depth}", then_branch=leaf, else_branch=inner)
        inner = helper.make_graph([node], f"g{depth}", [], [vi("y", [1, 3])])
    m = make_model(inner.node, [cond, vi("x", [1, 3])], [vi("y", [1, 3])])
    c.add("subgraphs_nested_18", m, [np.array(True), x13()], contains=["node 'if17' (If)", "nested more than 16 deep"])
    # Conditions that are not one bool.
    then = helper.make_graph([n("Relu", ["x"], ["y"], name="r1")], "then", [], [vi("y", [1, 3])])
    for name, elem, shape, feed, message in (
            ("if_cond_float", F, [], np.array(1, np.float32), "must be bool"),
            ("if_cond_two_bools", B, [2], np.array([True, False]), "must hold one element")):
        m = make_model([n("If", ["cond"], ["y"], name="if_c", then_branch=then, else_branch=plain)],
                       [vi("cond", shape, elem), vi("x", [1, 3])], [vi("y", [1, 3])])
        c.add(name, m, [feed, x13()], contains=["node 'if_c' (If)", "input 0 (cond)", message])

    # Loop: the body adds x to a carried sum and emits it as a scan row.
    def loop_model(m_value, carried_body_node, scan=True):
        outs = [vi("cond_out", [], B), vi("s_out", None)] + ([vi("row", None)] if scan else [])
        nodes = [n("Identity", ["cond_in"], ["cond_out"], name="keep"), carried_body_node]
        if scan:
            nodes.append(n("Identity", ["s_out"], ["row"], name="emit"))
        loop_body = helper.make_graph(nodes, "body", [vi("i", [], I64), vi("cond_in", [], B), vi("s_in", None)], outs)
        outputs = [vi("s", None)] + ([vi("rows", None)] if scan else [])
        return make_model([n("Loop", ["M", "", "s0"], [o.name for o in outputs], name="loop", body=loop_body)],
                          [vi("x", [1, 3])], outputs,
                          initializers=[numpy_helper.from_array(np.array(m_value, np.int64), "M"),
                                        numpy_helper.from_array(np.zeros((1, 3), np.float32), "s0")])
    add = n("Add", ["s_in", "x"], ["s_out"], name="acc")
    x = x13()
    c.add("loop_sum_runs", loop_model(3, add), [x], expect="ok",
          outputs={"s": 3 * x, "rows": np.stack([x, 2 * x, 3 * x])})
    c.add("loop_negative_trip_count", loop_model(-1, add), [x],
          contains=["node 'loop' (Loop)", "input 0 (M) is -1", "cannot be negative"])
    c.add("loop_huge_trip_count", loop_model(1 << 40, add), [x], contains=["node 'loop' (Loop)", "tensor limit"])
    grow = n("Concat", ["s_in", "x"], ["s_out"], name="grow", axis=0)
    # A carried value whose shape changes per iteration (ONNX allows it) runs in the plan's tail.
    c.add("loop_carried_shape_changes", loop_model(2, grow, scan=False), [x], expect="ok",
          outputs={"s": np.concatenate([np.zeros((1, 3), np.float32), x, x])})
    # ... but a scan output's rows must share one shape: here each row is the grown value.
    c.add("loop_scan_rows_change_shape", loop_model(2, grow), [x],
          contains=["node 'loop' (Loop)", "scan output 0 is [2,3] at iteration 0 but [3,3] at iteration 1"])
    # ... and a growth without bound meets the tensor limit or the memory limit, naming the Concat in the body.
    # It grows 64-fold per iteration, so the first size past the tensor limit comes right after 192 MB (doubling
    # would first touch 3 GB: 10 s of page faults, past the runner's timeout under ASan).
    c.add("loop_grows_past_the_limit", loop_model(1 << 40, n("Concat", ["s_in"] * 64, ["s_out"], name="grow",
                                                              axis=0), scan=False), [x],
          contains=["node 'loop' (Loop)", "iteration", "node 'grow' (Concat)"])
    # Endless loops stop at Options::max_loop_iterations (65536 by default), naming the node: one whose carried
    # value changes shape without growing (its body runs node by node in the plan's tail), and a planned one.
    c.add("loop_shapes_from_data_endless", loop_model(1 << 40, n("Transpose", ["s_in"], ["s_out"], name="turn",
                                                                 perm=[1, 0]), scan=False), [x],
          contains=["node 'loop' (Loop)", "ran 65536 iterations", "Options::max_loop_iterations"])
    c.add("loop_planned_endless", loop_model(1 << 40, add, scan=False), [x],
          contains=["node 'loop' (Loop)", "ran 65536 iterations", "Options::max_loop_iterations"])
    # A carried value whose type the body changes, and a cond that is not a bool, are errors naming the node.
    c.add("loop_carried_type_changes", loop_model(2, n("Cast", ["s_in"], ["s_out"], name="cast", to=I64), scan=False),
          [x], contains=["node 'loop' (Loop)", "loop-carried value 0 is float32 but the body gives int64"])
    body = helper.make_graph([n("Identity", ["cond_in"], ["cond_out"], name="keep"),
                              n("Add", ["s_in", "x"], ["s_out"], name="acc")], "body",
                             [vi("i", [], I64), vi("cond_in", [], B), vi("s_in", None)],
                             [vi("cond_out", [], B), vi("s_out", None)])
    m = make_model([n("Loop", ["", "cond", "x"], ["s"], name="loop", body=body)], [vi("cond", [], F), vi("x", [1, 3])],
                   [vi("s", None)])
    c.add("loop_cond_float", m, [np.array(1, np.float32), x], contains=["node 'loop' (Loop)", "input 1 (cond)", "must be bool"])
    # Scan: a running sum over the columns of x [2, 3], last column first, stacked along axis 1 from the end.
    scan_body = helper.make_graph([n("Add", ["s_in", "col"], ["s_out"], name="acc"),
                                   n("Identity", ["s_out"], ["row"], name="emit")], "body",
                                  [vi("s_in", [2]), vi("col", [2])], [vi("s_out", [2]), vi("row", [2])])
    def scan_model(x_shapes):
        return make_model([n("Scan", ["s0"] + [f"x{i}" for i in range(len(x_shapes))], ["s", "rows"], name="scan",
                             body=scan_body if len(x_shapes) == 1 else helper.make_graph(
                                 [n("Add", ["s_in", "col"], ["a"], name="acc"), n("Add", ["a", "col2"], ["s_out"], name="acc2"),
                                  n("Identity", ["s_out"], ["row"], name="emit")], "body",
                                 [vi("s_in", [2]), vi("col", [2]), vi("col2", [2])], [vi("s_out", [2]), vi("row", [2])]),
                             num_scan_inputs=len(x_shapes), scan_input_axes=[1] * len(x_shapes),
                             scan_input_directions=[1] * len(x_shapes), scan_output_axes=[1], scan_output_directions=[1])],
                          [vi(f"x{i}", list(s)) for i, s in enumerate(x_shapes)], [vi("s", [2]), vi("rows", None)],
                          initializers=[numpy_helper.from_array(np.zeros(2, np.float32), "s0")], opset=11)
    x = np.array([[1, 2, 4], [8, 16, 32]], np.float32)
    sums = np.cumsum(x[:, ::-1], axis=1)  # t-th sum covers the last t + 1 columns; written at column 2 - t
    c.add("scan_reverse_axis1_runs", scan_model([(2, 3)]), [x], expect="ok",
          outputs={"s": sums[:, -1], "rows": sums[:, ::-1]})
    c.add("scan_lengths_differ", scan_model([(2, 3), (2, 4)]), [x, np.zeros((2, 4), np.float32)],
          contains=["node 'scan' (Scan)", "scan input 1 has length 4"])
    # If picking a branch per run; both read x from the enclosing scope.
    neg = helper.make_graph([n("Neg", ["x"], ["y"], name="neg")], "else", [], [vi("y", [1, 3])])
    m = make_model([n("If", ["cond"], ["y"], name="if_pick", then_branch=then, else_branch=neg)],
                   [cond, vi("x", [1, 3])], [vi("y", [1, 3])])
    x = np.array([[-1.5, 0.0, 2.0]], np.float32)
    c.add("if_then_runs", m, [np.array(True), x], expect="ok", outputs={"y": np.maximum(x, 0)})
    c.add("if_else_runs", m, [np.array(False), x], expect="ok", outputs={"y": -x})


# ---------------------------------------------------------------------------------------------- external data

def external_model(location, offset=None, length=None, dims=(4,)):
    w = TensorProto(name="W", data_type=F, dims=list(dims))
    w.data_location = TensorProto.EXTERNAL
    entries = [("location", location)]
    if offset is not None:
        entries.append(("offset", str(offset)))
    if length is not None:
        entries.append(("length", str(length)))
    for k, v in entries:
        e = w.external_data.add()
        e.key, e.value = k, v
    return add_with_weight(w)


def external_cases(c):
    x4 = np.ones(4, np.float32)
    w = np.arange(4, dtype=np.float32)
    wbytes = w.tobytes()
    c.write("ext_ok", "weights.bin", b"\0" * 8 + wbytes)
    c.add("ext_ok", external_model("weights.bin", offset=8, length=16), [x4], expect="ok", outputs={"y": x4 + w})
    c.folder("ext_symlink_inside/data")
    c.write("ext_symlink_inside", "data/w.bin", wbytes)
    os.symlink("data/w.bin", os.path.join(c.root, "ext_symlink_inside", "link.bin"))
    c.add("ext_symlink_inside", external_model("link.bin"), [x4], expect="ok", outputs={"y": x4 + w})

    inside = os.path.join(c.folder("ext_absolute"), "weights.bin")
    with open(inside, "wb") as f:
        f.write(wbytes)
    c.add("ext_absolute", external_model(os.path.abspath(inside)), [x4], contains=["tensor 'W'", "relative"])
    c.add("ext_dotdot", external_model("../ext_ok/weights.bin", offset=8), [x4], contains=["tensor 'W'", ".."])
    c.add("ext_dotdot_inner", external_model("sub/../../ext_ok/weights.bin", offset=8), [x4],
          contains=["tensor 'W'", ".."])
    c.write("ext_outside", "weights.bin", wbytes)  # a valid file next door, which the symlink points to
    c.folder("ext_symlink_outside")
    os.symlink("../ext_outside/weights.bin", os.path.join(c.root, "ext_symlink_outside", "weights.bin"))
    c.add("ext_symlink_outside", external_model("weights.bin"), [x4], contains=["tensor 'W'", "outside"])
    c.folder("ext_symlink_dir_outside")
    os.symlink("../ext_outside", os.path.join(c.root, "ext_symlink_dir_outside", "d"))
    c.add("ext_symlink_dir_outside", external_model("d/weights.bin"), [x4], contains=["tensor 'W'", "outside"])
    c.folder("ext_symlink_absolute")
    os.symlink("/etc/passwd", os.path.join(c.root, "ext_symlink_absolute", "weights.bin"))
    c.add("ext_symlink_absolute", external_model("weights.bin"), [x4], contains=["tensor 'W'", "outside"])
    c.write("ext_offset_beyond", "weights.bin", wbytes)
    c.add("ext_offset_beyond", external_model("weights.bin", offset=20), [x4], contains=["tensor 'W'", "beyond"])
    c.write("ext_length_beyond", "weights.bin", wbytes[:8])
    c.add("ext_length_beyond", external_model("weights.bin", length=16), [x4], contains=["tensor 'W'", "beyond"])
    c.write("ext_offset_huge", "weights.bin", wbytes)
    c.add("ext_offset_huge", external_model("weights.bin", offset=(1 << 63) - 1, length=16), [x4],
          contains=["tensor 'W'", "beyond"])
    c.write("ext_offset_not_a_number", "weights.bin", wbytes)
    c.add("ext_offset_not_a_number", external_model("weights.bin", offset="12abc"), [x4],
          contains=["tensor 'W'", "offset"])
    c.write("ext_offset_out_of_range", "weights.bin", wbytes)
    c.add("ext_offset_out_of_range", external_model("weights.bin", offset="99999999999999999999999"), [x4],
          contains=["tensor 'W'", "offset"])
    c.write("ext_length_negative", "weights.bin", wbytes)
    c.add("ext_length_negative", external_model("weights.bin", length=-16), [x4], contains=["tensor 'W'", "length"])
    c.write("ext_length_mismatch", "weights.bin", wbytes)
    c.add("ext_length_mismatch", external_model("weights.bin", length=12), [x4], contains=["tensor 'W'", "length"])
    c.folder("ext_missing_file")
    c.add("ext_missing_file", external_model("nope.bin"), [x4], contains=["tensor 'W'", "nope.bin"])
    c.folder("ext_location_is_folder")
    c.add("ext_location_is_folder", external_model("."), [x4], contains=["tensor 'W'"])
    c.folder("ext_no_location")
    c.add("ext_no_location", external_model(""), [x4], contains=["tensor 'W'", "location"])
    # 16 GiB declared in a tiny file: refused before allocating.
    c.write("ext_huge_tensor", "weights.bin", wbytes)
    c.add("ext_huge_tensor", external_model("weights.bin", dims=(1 << 32, 1)), [x4], contains=["tensor 'W'"])
    # 1 GiB declared, 16 bytes present: refused before allocating 1 GiB.
    c.write("ext_1gib_declared", "weights.bin", wbytes)
    c.add("ext_1gib_declared", external_model("weights.bin", dims=(1 << 28,)), [x4], contains=["tensor 'W'"])


# ---------------------------------------------------------------------------------------------- inputs

def npy_header(header, version=1):
    h = header.encode("latin1")
    if version == 1:
        return b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h
    return b"\x93NUMPY" + bytes([version, 0]) + len(h).to_bytes(4, "little") + h


def input_cases(c):
    m = relu_model()
    c.add("input_wrong_rank", m, [np.ones(3, np.float32)], contains=["input 'x'"])
    c.add("input_scalar", m, [np.float32(1)], contains=["input 'x'"])
    c.add("input_wrong_dim", m, [np.ones((1, 4), np.float32)], contains=["input 'x'"])
    c.add("input_int32", m, [np.ones((1, 3), np.int32)], contains=["input 'x'", "int32"])
    c.add("input_float64", m, [np.ones((1, 3), np.float64)], contains=["input 'x'", "float64"])
    two = make_model([helper.make_node("Add", ["a", "b"], ["y"], name="add")], [vi("a", [1, 3]), vi("b", [1, 3])],
                     [vi("y", [1, 3])])
    c.add("input_missing", two, [x13()], contains=["input 'b'"])
    c.add("input_too_many", m, [x13(), x13()], contains=["takes 1 input"])
    c.add("input_unknown_name", m, extra_args=["--input", "nope=input_0.npy"], contains=["'nope'"])
    c.add("input_file_missing", m, ["input_file_missing/absent.npy"], contains=["absent.npy"])
    c.add("input_unsupported_extension", m, [c.write("input_unsupported_extension", "x.txt", b"1 2 3")],
          contains=["x.txt"])
    # Folder mode (`cnnx run MODEL DIR`): the model's image input, then its output, are checked before any image
    # is decoded or batched. The folder is the case's own (its model.onnx and one 2x2 PNG).
    huge = relu_model(in_shape=["N", 3, 100000, 100000])
    c.write("folder_input_too_large", "image.png", tiny_png())
    c.add("folder_input_too_large", huge, ["folder_input_too_large"], contains=["image size 100000x100000"])
    c.write("folder_output_not_scores", "image.png", tiny_png())
    c.add("folder_output_not_scores", relu_model(in_shape=["N", 3, 8, 8]), ["folder_output_not_scores"],
          contains=["no output of the model holds class scores", "'y'"])

    name = "npy_malformed"  # one folder: the model and every bad .npy
    model = c.write(name, "model.onnx", m.SerializeToString())
    body = np.ones((1, 3), np.float32).tobytes()
    pad = lambda s: s + " " * ((64 - (10 + len(s) + 1) % 64) % 64) + "\n"
    good_header = pad("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }")
    bad = {
        "bad_magic.npy": b"\x93NUMPZ\x01\x00" + b"\x40\x00" + b" " * 64 + body,
        "bad_header.npy": npy_header(pad("this is not a dict")) + body,
        "no_descr.npy": npy_header(pad("{'fortran_order': False, 'shape': (1, 3), }")) + body,
        "no_shape.npy": npy_header(pad("{'descr': '<f4', 'fortran_order': False, }")) + body,
        "truncated_data.npy": npy_header(good_header) + body[:8],
        "extra_data.npy": npy_header(good_header) + body + b"\0" * 4,
        "truncated_header.npy": npy_header(good_header)[:30],
        "header_len_beyond_file.npy": b"\x93NUMPY\x01\x00" + (60000).to_bytes(2, "little") + b"{'descr'",
        "version_9.npy": b"\x93NUMPY\x09\x00" + good_header.encode() + body,
        "big_endian.npy": npy_header(pad("{'descr': '>f4', 'fortran_order': False, 'shape': (1, 3), }")) + body,
        "fortran.npy": npy_header(pad("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 3), }")) + body,
        "object.npy": npy_header(pad("{'descr': '|O', 'fortran_order': False, 'shape': (1, 3), }")) + body,
        "negative_dim.npy": npy_header(pad("{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3), }")) + body,
        "shape_overflow.npy": npy_header(pad("{'descr': '<f4', 'fortran_order': False, "
                                             "'shape': (4294967296, 4294967296), }")) + body,
        "shape_not_numbers.npy": npy_header(pad("{'descr': '<f4', 'fortran_order': False, 'shape': (a, b), }")) + body,
        "shape_unclosed.npy": npy_header(pad("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, }")) + body,
        # A header over the 64 KiB cnnx reads.
        "header_too_long.npy": npy_header(pad("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "1, " * 30000
                                              + "3), }"), version=2) + body,
        "descr_unclosed.npy": npy_header(pad("{'descr': '<f4, 'fortran_order': False, 'shape': (1, 3), }")) + body,
        "empty.npy": b"",
    }
    for filename, data in bad.items():
        case = "npy_" + filename[:-4]
        c.add(case, None, [c.write(name, filename, data)], model_path=model, contains=[filename])
    # 20000 dims of 1 in a well-formed header: no stack exhaustion (recursive regex), no quadratic work.
    many = npy_header(pad("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "1, " * 20000 + "3), }"),
                      version=2) + body
    c.add("npy_many_dims", None, [c.write(name, "many_dims.npy", many)], model_path=model,
          contains=["many_dims.npy"])
    # A well-formed file written by numpy with a header numpy pads differently (version 2): must run.
    c.add("npy_version_2_ok", m, [c.write("npy_version_2_ok", "x.npy",
                                          npy_header(pad("{'descr': '<f4', 'fortran_order': False, "
                                                         "'shape': (1, 3), }"), version=2) + body)],
          expect="ok")

    # ONNX TensorProto (.pb) inputs are untrusted too.
    pb = helper.make_tensor("x", F, [1, 3], [1, 2, 3]).SerializeToString()
    c.add("pb_input_truncated", m, [c.write("pb_input_truncated", "x.pb", pb[: len(pb) // 2])],
          contains=["x.pb", "not a valid ONNX protobuf"])
    bad_pb = raw_tensor("x", [1, 3], b"\0" * 8).SerializeToString()
    c.add("pb_input_raw_data_short", m, [c.write("pb_input_raw_data_short", "x.pb", bad_pb)],
          contains=["tensor 'x'", "raw_data"])
    ext = TensorProto(name="x", data_type=F, dims=[1, 3], data_location=TensorProto.EXTERNAL)
    e = ext.external_data.add()
    e.key, e.value = "location", "../ext_outside/weights.bin"
    c.add("pb_input_external_dotdot", m, [c.write("pb_input_external_dotdot", "x.pb", ext.SerializeToString())],
          contains=["tensor 'x'", ".."])


# ---------------------------------------------------------------------------------------------- valid

def valid_cases(c):
    n = helper.make_node
    x = np.array([np.nan, np.inf, -np.inf, 1.0, -1.0, 0.0, -0.0, 3e38], np.float32)
    m = make_model([n("Relu", ["x"], ["r"], name="relu"), n("Add", ["x", "x"], ["s"], name="add")],
                   [vi("x", [8])], [vi("r", [8]), vi("s", [8])])
    with np.errstate(over="ignore", invalid="ignore"):
        c.add("nan_inf_relu_add", m, [x], expect="ok", outputs={"r": np.maximum(x, np.float32(0)), "s": x + x})

    zb = make_model([n("Relu", ["x"], ["y"], name="relu"), n("Add", ["y", "b"], ["z"], name="add")],
                    [vi("x", ["N", 3])], [vi("z", ["N", 3])],
                    initializers=[helper.make_tensor("b", F, [3], [1, 2, 3])])
    c.add("batch_zero", zb, [np.zeros((0, 3), np.float32)], expect="ok",
          outputs={"z": np.zeros((0, 3), np.float32)})

    chain = [n("Relu", ["x" if i == 0 else f"t{i - 1}"], [f"t{i}" if i < 2999 else "y"], name=f"relu{i}")
             for i in range(3000)]
    deep = make_model(chain, [vi("x", [1, 3])], [vi("y", [1, 3])])
    c.add("relu_chain_3000", deep, [x13()], expect="ok", outputs={"y": np.maximum(x13(), 0)})

    passthrough = make_model([n("Relu", ["x"], ["y"], name="relu")], [vi("x", [1, 3])],
                             [vi("x", [1, 3]), vi("y", [1, 3])])
    c.add("output_is_input", passthrough, [x13()], expect="ok", outputs={"x": x13(), "y": np.maximum(x13(), 0)})
    identity = make_model([], [vi("x", [1, 3])], [vi("x", [1, 3])])
    c.add("output_is_input_no_nodes", identity, [x13()], expect="ok", outputs={"x": x13()})
    w = np.array([1, 2, 3], np.float32)
    const_out = make_model([n("Relu", ["x"], ["y"], name="relu")], [vi("x", [1, 3])],
                           [vi("y", [1, 3]), vi("W", [3])], initializers=[helper.make_tensor("W", F, [3], w)])
    c.add("output_is_initializer", const_out, [x13()], expect="ok", outputs={"W": w})

    # IR 3: initializers are listed as graph inputs too; only the true inputs are fed.
    ir3 = make_model([n("Add", ["x", "W"], ["y"], name="add")], [vi("x", [1, 3]), vi("W", [3])], [vi("y", [1, 3])],
                     initializers=[helper.make_tensor("W", F, [3], w)], opset=8, ir_version=3)
    c.add("initializer_listed_as_input", ir3, [x13()], expect="ok", outputs={"y": x13() + w})

    c.add("unknown_rank_input", make_model([n("Relu", ["x"], ["y"], name="relu")], [vi("x", None)],
                                           [vi("y", None)]), [np.ones((2, 1, 3), np.float32)], expect="ok")
    c.add("rank_32_input", relu_model(in_shape=[1] * 31 + [3]), [x13().reshape([1] * 31 + [3])], expect="ok",
          outputs={"y": np.maximum(x13(), 0).reshape([1] * 31 + [3])})
    c.add("inspect_ok", relu_model(), command="inspect", expect="ok")
    c.add("empty_raw_data_zero_dim", add_with_weight(raw_tensor("W", [0]), x_shape=(0,)), [np.zeros(0, np.float32)],
          expect="ok", outputs={"y": np.zeros(0, np.float32)})
    # int64 addition that overflows: ONNX does not define it; it must not crash (UBSan builds: no UB).
    big = helper.make_tensor("big", I64, [1], [(1 << 63) - 1])
    ovf = make_model([n("Add", ["x", "big"], ["y"], name="add")], [vi("x", [1], I64)], [vi("y", [1], I64)],
                     initializers=[big])
    c.add("int64_add_overflow", ovf, [np.array([1], np.int64)], expect="ok")


# ---------------------------------------------------------------------------------------------- plan limits

def limit_cases(c):
    """Options::max_tensor_bytes (4 GiB) bounds every value a run allocates, checked when planning: a tiny
    model whose Pad asks for 2^40 + 1 floats (4 TiB) must be refused by name before anything is allocated."""
    n = helper.make_node
    pads = helper.make_tensor("pads", I64, [2], [0, 1 << 40])
    mid = make_model([n("Pad", ["x", "pads"], ["t"], name="pad_mid"), n("ReduceMean", ["t"], ["y"], name="mean",
                                                                        keepdims=0)],
                     [vi("x", [1])], [vi("y", None)], initializers=[pads], opset=13)
    c.add("intermediate_beyond_tensor_limit", mid, [np.ones(1, np.float32)], contains=["'t'", "limit"])
    # The same as a graph output (ASan: allocation-size-too-big while running, before the limit was applied
    # to outputs as well).
    out = make_model([n("Pad", ["x", "pads"], ["y"], name="pad_out")], [vi("x", [1])], [vi("y", None)],
                     initializers=[pads], opset=13)
    c.add("output_beyond_tensor_limit", out, [np.ones(1, np.float32)], contains=["'y'", "limit"])


# ------------------------------------------------------------------------------ ops sized or indexed by data

def data_op_cases(c):
    """Ops whose output size or element addresses come from data (ops/tensor: ConstantOfShape, Expand, Tile,
    Range, Split; ops/index: GatherElements, GatherND, ScatterND): a huge size is refused by the tensor limit before
    anything is allocated, an index out of range or split sizes that do not add up by an error naming the
    node, never an out-of-bounds access."""
    n = helper.make_node
    x = np.ones((1,), np.float32)

    def folded(name, node, initializers, contains, opset=19):
        # node's output 'big' is folded at load; Add with x makes it reach the graph output.
        m = make_model([node, n("Add", ["x", "big"], ["y"], name="add")], [vi("x", [1])], [vi("y", None)],
                       initializers=initializers, opset=opset)
        c.add(name, m, [x], contains=contains)

    shape = helper.make_tensor("shape", I64, [3], [1 << 20, 1 << 20, 1 << 10])
    folded("constant_of_shape_beyond_limit", n("ConstantOfShape", ["shape"], ["big"], name="cos"), [shape],
           ["node 'cos' (ConstantOfShape)", "limit"])
    folded("constant_of_shape_negative_dim",
           n("ConstantOfShape", ["neg"], ["big"], name="cos"), [helper.make_tensor("neg", I64, [2], [2, -1])],
           ["node 'cos' (ConstantOfShape)", "negative"])
    one = helper.make_tensor("one", F, [1], [1.0])
    folded("expand_beyond_limit", n("Expand", ["one", "shape"], ["big"], name="expand"), [one, shape],
           ["node 'expand' (Expand)", "limit"])
    reps = helper.make_tensor("reps", I64, [1], [1 << 40])
    folded("tile_beyond_limit", n("Tile", ["one", "reps"], ["big"], name="tile"), [one, reps],
           ["node 'tile' (Tile)", "limit"])
    reps = helper.make_tensor("reps", I64, [1], [(1 << 62)])
    folded("tile_overflow", n("Tile", ["one", "reps"], ["big"], name="tile"), [one, reps],
           ["node 'tile' (Tile)"])
    lo = helper.make_tensor("lo", F, [], [0.0])
    hi = helper.make_tensor("hi", F, [], [1e30])
    step = helper.make_tensor("step", F, [], [1.0])
    folded("range_beyond_limit", n("Range", ["lo", "hi", "step"], ["big"], name="range"), [lo, hi, step],
           ["node 'range' (Range)", "elements"])
    lo = helper.make_tensor("lo", I64, [], [-(1 << 62)])
    hi = helper.make_tensor("hi", I64, [], [1 << 62])
    step = helper.make_tensor("step", I64, [], [1])
    m = make_model([n("Range", ["lo", "hi", "step"], ["r"], name="range"), n("Identity", ["x"], ["y"], name="id")],
                   [vi("x", [1])], [vi("y", [1]), vi("r", None, I64)], initializers=[lo, hi, step])
    c.add("range_int64_beyond_limit", m, [x], contains=["node 'range' (Range)", "elements"])
    step0 = helper.make_tensor("step", I64, [], [0])
    m = make_model([n("Range", ["lo", "hi", "step"], ["r"], name="range"), n("Identity", ["x"], ["y"], name="id")],
                   [vi("x", [1])], [vi("y", [1]), vi("r", None, I64)], initializers=[lo, hi, step0])
    c.add("range_zero_delta", m, [x], contains=["node 'range' (Range)", "delta"])

    data = helper.make_tensor("data", F, [2, 3], np.arange(6, dtype=np.float32))
    idx = helper.make_tensor("idx", I64, [1, 2], [0, 3])
    m = make_model([n("GatherElements", ["x2", "idx"], ["y"], name="ge", axis=1)], [vi("x2", [2, 3])],
                   [vi("y", None)], initializers=[idx])
    c.add("gather_elements_index_out_of_range", m, [np.ones((2, 3), np.float32)],
          contains=["node 'ge' (GatherElements)", "out of range"])
    m = make_model([n("GatherElements", ["x2", "idx"], ["y"], name="ge", axis=1)], [vi("x2", [2, 3]),
                   vi("idx", [1, 2], I64)], [vi("y", None)])
    c.add("gather_elements_runtime_index_out_of_range", m,
          [np.ones((2, 3), np.float32), np.array([[0, -4]], np.int64)],
          contains=["node 'ge' (GatherElements)", "out of range"])
    m = make_model([n("GatherND", ["x2", "idx"], ["y"], name="gnd")], [vi("x2", [2, 3]), vi("idx", [1, 2], I64)],
                   [vi("y", None)])
    c.add("gather_nd_index_out_of_range", m, [np.ones((2, 3), np.float32), np.array([[1, 3]], np.int64)],
          contains=["node 'gnd' (GatherND)", "out of range"])
    m = make_model([n("ScatterND", ["x2", "idx", "upd"], ["y"], name="snd")],
                   [vi("x2", [2, 3]), vi("idx", [1, 1], I64), vi("upd", [1, 3])], [vi("y", None)])
    c.add("scatter_nd_index_out_of_range", m,
          [np.ones((2, 3), np.float32), np.array([[2]], np.int64), np.ones((1, 3), np.float32)],
          contains=["node 'snd' (ScatterND)", "out of range"])
    m = make_model([n("ScatterND", ["data", "idx2", "upd"], ["big"], name="snd"), n("Add", ["x6", "big"], ["y"],
                    name="add")], [vi("x6", [2, 3])], [vi("y", None)],
                   initializers=[data, helper.make_tensor("idx2", I64, [1, 1], [-3]),
                                 helper.make_tensor("upd", F, [1, 3], [1.0, 2.0, 3.0])])
    c.add("scatter_nd_constant_index_out_of_range", m, [np.ones((2, 3), np.float32)],
          contains=["node 'snd' (ScatterND)", "out of range"])
    # Not folded: the input is a graph input, so the plan sizes the output and applies the limit.
    reps = helper.make_tensor("reps", I64, [1], [1 << 40])
    m = make_model([n("Tile", ["x", "reps"], ["y"], name="tile")], [vi("x", [1])], [vi("y", None)],
                   initializers=[reps])
    c.add("tile_runtime_beyond_limit", m, [x], contains=["'y'", "limit"])
    m = make_model([n("Expand", ["x", "shape"], ["y"], name="expand")], [vi("x", [1])], [vi("y", None)],
                   initializers=[shape])
    c.add("expand_runtime_beyond_limit", m, [x], contains=["'y'", "limit"])
    sizes = helper.make_tensor("sizes", I64, [2], [1, 1])
    m = make_model([n("Split", ["x3", "sizes"], ["a", "b"], name="split")], [vi("x3", [3])],
                   [vi("a", None), vi("b", None)], initializers=[sizes])
    c.add("split_sizes_do_not_add_up", m, [np.ones(3, np.float32)], contains=["node 'split' (Split)", "adds up"])
    sizes = helper.make_tensor("sizes", I64, [2], [4, -1])
    m = make_model([n("Split", ["x3", "sizes"], ["a", "b"], name="split")], [vi("x3", [3])],
                   [vi("a", None), vi("b", None)], initializers=[sizes])
    c.add("split_negative_size", m, [np.ones(3, np.float32)], contains=["node 'split' (Split)", "negative"])
    m = make_model([n("Split", ["x3"], ["a", "b"], name="split")], [vi("x3", [3])], [vi("a", None), vi("b", None)],
                   opset=13)
    c.add("split_not_even", m, [np.ones(3, np.float32)], contains=["node 'split' (Split)", "equal parts"])


def reduce_cases(c):
    """Reduce* with axes read at run time (ReduceSum-13's axes input fed by the caller): an axis out of range
    is an error naming the node; ArgMax over a dim of size 0 (no index exists) too."""
    n = helper.make_node
    m = make_model([n("ReduceSum", ["x", "axes"], ["y"], name="rsum")], [vi("x", [2, 3]), vi("axes", [1], I64)],
                   [vi("y", None)], opset=13)
    c.add("reduce_sum_runtime_axis_out_of_range", m, [np.ones((2, 3), np.float32), np.array([5], np.int64)],
          contains=["node 'rsum' (ReduceSum)", "axis"])
    m = make_model([n("ReduceSum", ["x", "axes"], ["y"], name="rsum")], [vi("x", [2, 3]), vi("axes", [2], I64)],
                   [vi("y", None)], opset=13)
    c.add("reduce_sum_runtime_axis_twice", m, [np.ones((2, 3), np.float32), np.array([1, -1], np.int64)],
          contains=["node 'rsum' (ReduceSum)", "twice"])
    m = make_model([n("ArgMax", ["x"], ["y"], name="argmax", axis=1)], [vi("x", [2, None])], [vi("y", None, I64)],
                   opset=13)
    c.add("argmax_over_empty_axis", m, [np.ones((2, 0), np.float32)], contains=["node 'argmax' (ArgMax)", "size 0"])
    # Exporter leniencies (README): paddle2onnx's axes=[-1] below opset 11 runs, counted from the back.
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    m = make_model([n("ReduceMean", ["x"], ["y"], name="rmean", axes=[-1])], [vi("x", [2, 3, 4])], [vi("y", None)],
                   opset=10)
    c.add("reduce_mean_negative_axis_opset_10", m, [x], expect="ok", outputs={"y": x.mean(axis=-1, keepdims=True)})
    # ... and ArgMax's and Compress's negative axis below opset 11 (ONNX Runtime reads it from the back too).
    m = make_model([n("ArgMax", ["x"], ["y"], name="argmax", axis=-1)], [vi("x", [2, 3, 4])], [vi("y", None, I64)],
                   opset=10)
    c.add("argmax_negative_axis_opset_10", m, [x], expect="ok", outputs={"y": x.argmax(axis=-1)[..., None]})
    keep = numpy_helper.from_array(np.array([True, False, True]), "keep")
    m = make_model([n("Compress", ["x", "keep"], ["y"], name="compress", axis=-2)], [vi("x", [2, 3, 4])],
                   [vi("y", None)], initializers=[keep], opset=10)
    c.add("compress_negative_axis_opset_10", m, [x], expect="ok", outputs={"y": x[:, [0, 2], :]})


def detect_cases(c):
    """NonMaxSuppression: boxes of the wrong rank; a run whose selection is known only from the data. RoiAlign:
    rois of the wrong shape, batch indices out of range (given at run time), RoIs and indices that disagree."""
    n = helper.make_node
    m = make_model([n("NonMaxSuppression", ["boxes", "scores"], ["sel"], name="nms")],
                   [vi("boxes", [3, 4]), vi("scores", [1, 1, 3])], [vi("sel", None, I64)], opset=11)
    c.add("nms_boxes_rank_2", m, [np.zeros((3, 4), np.float32), np.zeros((1, 1, 3), np.float32)],
          contains=["node 'nms' (NonMaxSuppression)", "boxes must be [batches, boxes, 4]"])
    m = make_model([n("NonMaxSuppression", ["boxes", "scores", "max"], ["sel"], name="nms")],
                   [vi("boxes", [1, 3, 4]), vi("scores", [1, 1, 3])], [vi("sel", None, I64)], opset=11,
                   initializers=[numpy_helper.from_array(np.array([3], np.int64), "max")])
    boxes = np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 10, 1, 11]]], np.float32)
    c.add("nms_runs", m, [boxes, np.array([[[0.9, 0.95, 0.3]]], np.float32)], expect="ok",
          outputs={"sel": np.array([[0, 0, 1], [0, 0, 2]], np.int64)})

    def roi_align(rois_shape, count):
        return make_model([n("RoiAlign", ["x", "rois", "idx"], ["y"], name="roi", output_height=2, output_width=2)],
                          [vi("x", [2, 3, 8, 8]), vi("rois", rois_shape), vi("idx", [count], I64)],
                          [vi("y", None)], opset=16)
    x = np.ones((2, 3, 8, 8), np.float32)
    c.add("roi_align_rois_5_wide", roi_align([1, 5], 1), [x, np.zeros((1, 5), np.float32), np.zeros(1, np.int64)],
          contains=["node 'roi' (RoiAlign)", "rois must be [num_rois, 4], got [1,5]"])
    c.add("roi_align_rois_rank_3", roi_align([1, 1, 4], 1), [x, np.zeros((1, 1, 4), np.float32), np.zeros(1, np.int64)],
          contains=["node 'roi' (RoiAlign)", "rois must be [num_rois, 4]"])
    c.add("roi_align_indices_count", roi_align([2, 4], 3), [x, np.zeros((2, 4), np.float32), np.zeros(3, np.int64)],
          contains=["node 'roi' (RoiAlign)", "disagree on the number of RoIs"])
    c.add("roi_align_batch_index_out_of_range", roi_align([2, 4], 2),
          [x, np.zeros((2, 4), np.float32), np.array([1, 2], np.int64)],
          contains=["node 'roi' (RoiAlign)", "batch_indices[1] is 2; X has 2 images"])
    c.add("roi_align_batch_index_negative", roi_align([2, 4], 2),
          [x, np.zeros((2, 4), np.float32), np.array([-1, 0], np.int64)],
          contains=["node 'roi' (RoiAlign)", "batch_indices[0] is -1"])
    rois = np.array([[0, 0, 3, 3], [2, 2, 7, 7]], np.float32)
    c.add("roi_align_runs", roi_align([2, 4], 2), [x, rois, np.array([1, 0], np.int64)], expect="ok",
          outputs={"y": np.ones((2, 3, 2, 2), np.float32)})


def leniency_cases(c):
    """PyTorch's opset-6 nn.PReLU(C): a slope [C] read per channel (README "Exporter leniencies")."""
    n = helper.make_node
    x = np.array([-1, 2, -4, 8, 16, -32, 64, -128] * 2, np.float32).reshape(1, 2, 2, 4)  # C = 2, last axis 4
    slope = np.array([0.5, 0.25], np.float32)
    m = make_model([n("PRelu", ["x", "slope"], ["y"], name="prelu")], [vi("x", [1, 2, 2, 4])], [vi("y", [1, 2, 2, 4])],
                   initializers=[numpy_helper.from_array(slope, "slope")], opset=6)
    c.add("prelu_opset_6_per_channel_slope", m, [x], expect="ok",
          outputs={"y": np.where(x < 0, slope.reshape(1, 2, 1, 1) * x, x)})


def more_op_cases(c):
    """Ops added for models beyond classifiers (ReverseSequence, IsInf, integer Neg): attributes out of range
    refused at load, a sequence length beyond the time axis refused when the kernel reads it, naming the node."""
    n = helper.make_node
    x = np.arange(6, dtype=np.float32).reshape(3, 2)  # time 3, batch 2

    def reverse(lens, name="rev", **attrs):
        return make_model([n("ReverseSequence", ["x", "lens"], ["y"], name=name, **attrs)], [vi("x", [3, 2])],
                          [vi("y", [3, 2])], initializers=[helper.make_tensor("lens", I64, [2], lens)])
    c.add("reverse_sequence_length_beyond_time", reverse([3, 4]), [x],
          contains=["node 'rev' (ReverseSequence)", "sequence_lens[1] is 4; the time axis has 3"])
    c.add("reverse_sequence_negative_length", reverse([-1, 2]), [x],
          contains=["node 'rev' (ReverseSequence)", "sequence_lens[0] is -1"])
    c.add("reverse_sequence_axes", reverse([1, 2], batch_axis=2, time_axis=0), [x],
          contains=["node 'rev' (ReverseSequence)", "batch_axis and time_axis must be 0 and 1"])
    c.add("reverse_sequence_runs", reverse([3, 1]), [x], expect="ok",
          outputs={"y": np.array([[4, 1], [2, 3], [0, 5]], np.float32)})
    def one_hot(depth, values=(0.0, 1.0), depth_type=I64):
        return make_model([n("OneHot", ["x", "depth", "values"], ["y"], name="onehot")], [vi("x", [3, 2])],
                          [vi("y", None)], opset=11,
                          initializers=[helper.make_tensor("depth", depth_type, [], [depth]),
                                        helper.make_tensor("values", F, [len(values)], list(values))])
    c.add("one_hot_depth_zero", one_hot(0), [x], contains=["node 'onehot' (OneHot)", "depth is 0"])
    c.add("one_hot_depth_nan", one_hot(float("nan"), depth_type=F), [x], contains=["node 'onehot' (OneHot)", "depth is nan"])
    c.add("one_hot_beyond_limit", one_hot(1 << 40), [x], contains=["node 'onehot' (OneHot)", "limit"])
    c.add("one_hot_three_values", one_hot(4, (0.0, 1.0, 2.0)), [x],
          contains=["node 'onehot' (OneHot)", "values must be [off_value, on_value]"])
    # depth 3.7 is 3; -1 counts from depth, 2.9 is 2, 7 and -4 are outside: rows of off.
    c.add("one_hot_runs", one_hot(3.7, (-1.0, 5.0), depth_type=F), [np.array([[0, -1], [2.9, 7], [-4, 1]], np.float32)],
          expect="ok", outputs={"y": np.array([[[5, -1, -1], [-1, -1, 5]], [[-1, -1, 5], [-1, -1, -1]],
                                               [[-1, -1, -1], [-1, 5, -1]]], np.float32)})
    def grid_sample(grid_shape, **attrs):
        return make_model([n("GridSample", ["x", "grid"], ["y"], name="gs", **attrs)],
                          [vi("x", [1, 1, 3, 2]), vi("grid", grid_shape)], [vi("y", None)], opset=16)
    img = x.reshape(1, 1, 3, 2)
    c.add("grid_sample_grid_last_dim", grid_sample([1, 2, 2, 3]), [img, np.zeros((1, 2, 2, 3), np.float32)],
          contains=["node 'gs' (GridSample)", "grid's last dim must be 2"])
    c.add("grid_sample_batch", grid_sample([2, 2, 2, 2]), [img, np.zeros((2, 2, 2, 2), np.float32)],
          contains=["node 'gs' (GridSample)", "X has batch 1; grid has 2"])
    c.add("grid_sample_mode", grid_sample([1, 1, 1, 2], mode="area"), [img, np.zeros((1, 1, 1, 2), np.float32)],
          contains=["node 'gs' (GridSample)", "'mode' must be bilinear, nearest or bicubic, got 'area'"])
    # Coordinates far outside (and infinite) read no cell: zeros padding gives 0, every mode.
    far = np.array([1e30, -1e30, np.inf, -np.inf, 3e9, -3e9, 1e30, np.inf], np.float32).reshape(1, 2, 2, 2)
    for mode in ("bilinear", "nearest", "bicubic"):
        c.add(f"grid_sample_far_{mode}", grid_sample([1, 2, 2, 2], mode=mode), [img, far], expect="ok",
              outputs={"y": np.zeros((1, 1, 2, 2), np.float32)})
    unpool = make_model([n("MaxUnpool", ["x", "i"], ["y"], name="unpool", kernel_shape=[2, 2], strides=[2, 2])],
                        [vi("x", [1, 1, 3, 2]), vi("i", [1, 1, 3, 2], I64)], [vi("y", None)], opset=11)
    c.add("max_unpool_index_beyond_output", unpool, [img, np.array([0, 1, 2, 3, 4, 24], np.int64).reshape(1, 1, 3, 2)],
          contains=["node 'unpool' (MaxUnpool)", "I[5] is 24; the output has 24 elements"])
    c.add("max_unpool_negative_index", unpool, [img, np.array([0, -1, 2, 3, 4, 5], np.int64).reshape(1, 1, 3, 2)],
          contains=["node 'unpool' (MaxUnpool)", "I[1] is -1"])
    inf = make_model([n("IsInf", ["x"], ["y"], name="isinf", detect_positive=2)], [vi("x", [3, 2])],
                     [vi("y", None, TensorProto.BOOL)], opset=13)
    c.add("is_inf_flag", inf, [x], contains=["node 'isinf' (IsInf)", "'detect_positive' must be 0 or 1, got 2"])
    neg = make_model([n("Neg", ["x"], ["y"], name="neg")], [vi("x", [2], I64)], [vi("y", [2], I64)], opset=13)
    c.add("neg_int64_wraps", neg, [np.array([-(1 << 63), 5], np.int64)], expect="ok",
          outputs={"y": np.array([-(1 << 63), -5], np.int64)})


def einsum_cases(c):
    """Einsum: an equation that does not parse, a label whose sizes differ between inputs, and more terms than
    inputs are errors naming the node."""
    n = helper.make_node
    two = [vi("a", [2, 3]), vi("b", [3, 4])]
    feeds = [np.ones((2, 3), np.float32), np.ones((3, 4), np.float32)]
    m = make_model([n("Einsum", ["a", "b"], ["y"], name="einsum", equation="ij,j1->i")], two, [vi("y", None)], opset=12)
    c.add("einsum_malformed_equation", m, feeds, contains=["node 'einsum' (Einsum)", "character '1'"])
    m = make_model([n("Einsum", ["a", "b"], ["y"], name="einsum", equation="ij,ik->jk")], two, [vi("y", None)], opset=12)
    c.add("einsum_label_dim_mismatch", m, feeds, contains=["node 'einsum' (Einsum)", "label 'i'"])
    m = make_model([n("Einsum", ["a", "b"], ["y"], name="einsum", equation="ij,jk,kl->il")], two, [vi("y", None)],
                   opset=12)
    c.add("einsum_too_many_operands", m, feeds, contains=["node 'einsum' (Einsum)", "3 input terms"])
    # TopK's K fed at run time, larger than the axis.
    m = make_model([n("TopK", ["x", "k"], ["v", "i"], name="topk")], [vi("x", [2, 4]), vi("k", [1], I64)],
                   [vi("v", None), vi("i", None, I64)], opset=11)
    c.add("top_k_k_larger_than_axis", m, [np.ones((2, 4), np.float32), np.array([5], np.int64)],
          contains=["node 'topk' (TopK)", "k is 5"])


def resize_cases(c):
    """Resize / Upsample: every bad scale, size and roi, both or neither of scales and sizes, wrong lengths and
    unknown mode strings are errors naming the node; an output beyond the tensor limit is refused before it is
    allocated; scales fed at run time (the plan carries their data) run."""
    n = helper.make_node
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)

    def resize(name, inputs, inits, opset=13, x_shape=(1, 1, 4, 4), **attrs):
        return make_model([n("Resize", inputs, ["y"], name="resize", **attrs)], [vi("x", list(x_shape))],
                          [vi("y", None)], initializers=inits, opset=opset)

    def scales(values):
        return helper.make_tensor("scales", F, [len(values)], values)

    def sizes(values):
        return helper.make_tensor("sizes", I64, [len(values)], values)

    bad_scales = {"zero": [1, 1, 0, 2], "negative": [1, 1, -2, 2], "nan": [1, 1, float("nan"), 2],
                  "inf": [1, 1, float("inf"), 2]}
    for what, values in bad_scales.items():
        c.add(f"resize_{what}_scale", resize("r", ["x", "", "scales"], [scales(values)]), [x],
              contains=["node 'resize' (Resize)", "must be finite and > 0"])
    c.add("resize_huge_scale", resize("r", ["x", "", "scales"], [scales([1, 1, 1e30, 1])]), [x],
          contains=["node 'resize' (Resize)", "output axis 2 would have"])
    # 4 x 40000 x 40000 float32 = 6.4 GB, beyond the default 4 GiB limit: refused when planned, never allocated.
    m = make_model([n("Resize", ["x", "", "scales"], ["big"], name="resize", mode="nearest"),
                    n("ReduceMax", ["big"], ["y"], name="max", keepdims=0)],
                   [vi("x", [1, 1, 4, 4])], [vi("y", None)], initializers=[scales([1, 1, 1e4, 1e4])], opset=13)
    c.add("resize_beyond_tensor_limit", m, [x], contains=["node 'resize' (Resize)", "value 'big'", "beyond the tensor limit"])
    # One axis of 2^42 cells (found by fuzz_load_plan): refused by the tensor limit when the shapes are inferred,
    # before the reference kernel sizes its per-cell taps by it.
    m = make_model([n("Resize", ["x", "", "scales"], ["big"], name="resize", mode="nearest"),
                    n("ReduceMax", ["big"], ["y"], name="max", keepdims=0)],
                   [vi("x", [1, 1, 4, 4])], [vi("y", None)], initializers=[scales([1, 1, 2.0 ** 40, 1])], opset=13)
    c.add("resize_axis_beyond_tensor_limit", m, [x],
          contains=["node 'resize' (Resize)", "value 'big'", "beyond the tensor limit"])
    # Found by fuzz_load_plan: N resized to 4.4e12 cells and C to 0: an empty output, so within every limit, whose
    # kernels must not size per-cell tables by the long axis (the reference allocated 32 TiB of taps, oneDNN's
    # per-cell check would loop 4.4e12 times). It plans and runs: exit 0, quickly.
    m = make_model([n("Resize", ["x", "", "scales"], ["big"], name="resize", mode="nearest"),
                    n("ReduceMax", ["big"], ["y"], name="max", keepdims=0)],
                   [vi("x", [1, 1, 4, 4])], [vi("y", None)],
                   initializers=[scales([4.4e12, 0.9, 1e4, 1e4])], opset=13)
    c.add("resize_empty_output_long_axis", m, [x], expect="ok")
    c.add("resize_negative_size", resize("r", ["x", "", "", "sizes"], [sizes([1, 1, -3, 4])]), [x],
          contains=["node 'resize' (Resize)", "sizes", "must be >= 0"])
    c.add("resize_huge_size", resize("r", ["x", "", "", "sizes"], [sizes([1, 1, 1 << 60, 4])]), [x],
          contains=["node 'resize' (Resize)", "sizes", "below 2^52"])
    # int64 max: converted to an integer only after the range check (found by fuzz_load_plan under UBSan).
    c.add("resize_int64_max_size", resize("r", ["x", "", "", "sizes"], [sizes([1, 1, (1 << 63) - 1, 4])]), [x],
          contains=["node 'resize' (Resize)", "sizes", "below 2^52"])
    c.add("resize_size_from_empty_axis", resize("r", ["x", "", "", "sizes"], [sizes([1, 1, 3, 4])],
                                                x_shape=(1, 1, 0, 4)),
          [np.zeros((1, 1, 0, 4), np.float32)], contains=["node 'resize' (Resize)", "empty"])
    c.add("resize_scales_and_sizes", resize("r", ["x", "", "scales", "sizes"], [scales([1, 1, 2, 2]),
                                                                              sizes([1, 1, 8, 8])]), [x],
          contains=["node 'resize' (Resize)", "both given"])
    c.add("resize_neither_scales_nor_sizes", resize("r", ["x"], []), [x],
          contains=["node 'resize' (Resize)", "neither input 2 (scales) nor input 3 (sizes)"])
    c.add("resize_scales_wrong_length", resize("r", ["x", "", "scales"], [scales([2, 2])]), [x],
          contains=["node 'resize' (Resize)", "scales has 2 values; expected 4"])
    c.add("resize_sizes_wrong_length", resize("r", ["x", "", "", "sizes"], [sizes([1, 1, 8, 8, 8])]), [x],
          contains=["node 'resize' (Resize)", "sizes has 5 values; expected 4"])
    roi = helper.make_tensor("roi", F, [4], [0, 0, 1, 1])
    c.add("resize_roi_wrong_length", resize("r", ["x", "roi", "", "sizes"], [roi, sizes([1, 1, 3, 3])],
                                            coordinate_transformation_mode="tf_crop_and_resize"), [x],
          contains=["node 'resize' (Resize)", "roi", "expected 8"])
    c.add("resize_unknown_mode", resize("r", ["x", "", "scales"], [scales([1, 1, 2, 2])], mode="bicubic"), [x],
          contains=["node 'resize' (Resize)", "attribute 'mode' is 'bicubic'"])
    c.add("resize_unknown_coordinate_mode", resize("r", ["x", "", "scales"], [scales([1, 1, 2, 2])],
                                                   coordinate_transformation_mode="centre"), [x],
          contains=["node 'resize' (Resize)", "'coordinate_transformation_mode' is 'centre'"])
    c.add("resize_unknown_nearest_mode", resize("r", ["x", "", "scales"], [scales([1, 1, 2, 2])],
                                                nearest_mode="round"), [x],
          contains=["node 'resize' (Resize)", "'nearest_mode' is 'round'"])
    c.add("resize_antialias_nearest", resize("r", ["x", "", "scales"], [scales([1, 1, 0.5, 0.5])], opset=18,
                                             antialias=1), [x],
          contains=["node 'resize' (Resize)", "antialias"])
    c.add("resize_axes_twice", resize("r", ["x", "", "scales"], [scales([2, 2])], opset=18, axes=[2, -2]), [x],
          contains=["node 'resize' (Resize)", "names axis 2 twice"])
    m = make_model([n("Resize", ["x", "", "s"], ["y"], name="resize")], [vi("x", [1, 1, 4, 4]), vi("s", [4])],
                   [vi("y", None)], opset=13)
    c.add("resize_runtime_nan_scale", m, [x, np.array([1, 1, np.nan, 2], np.float32)],
          contains=["node 'resize' (Resize)", "must be finite and > 0"])
    c.add("resize_runtime_scales", m, [x, np.array([1, 1, 0.5, 0.5], np.float32)], expect="ok",
          outputs={"y": np.array([[[[0, 2], [8, 10]]]], np.float32)})
    m = make_model([n("Upsample", ["x", "s"], ["y"], name="up")], [vi("x", [1, 1, 4, 4])], [vi("y", None)],
                   initializers=[helper.make_tensor("s", F, [4], [1, 1, 0.5, 2])], opset=9)
    c.add("upsample_scale_below_one", m, [x], contains=["node 'up' (Upsample)", "must be >= 1"])
    m = make_model([n("Upsample", ["x", "s"], ["y"], name="up")], [vi("x", [1, 1, 4, 4])], [vi("y", None)],
                   initializers=[helper.make_tensor("s", F, [4], [1, 1, 2, 2])], opset=10)
    c.add("upsample_deprecated_opset_10", m, [x], contains=["node 'up' (Upsample)", "deprecated"])


# ---------------------------------------------------------------------------------------------- fuzzer findings

def fuzz_cases(c):
    """Minimized from tests/fuzz findings (see tests/fuzz/run_fuzzers.sh); each crashed a sanitizer build."""
    n = helper.make_node
    # Omitted optional inputs ("") reached `g.values[size_t(-1)]` in an eagerly built error message while the
    # graph was sorted (UBSan: pointer overflow in the clang build). Clip without min/max is the identity.
    x = np.array([[-2.0, 0.5, 3.0]], np.float32)
    m = make_model([n("Clip", ["x", "", ""], ["y"], name="clip")], [vi("x", [1, 3])], [vi("y", [1, 3])], opset=13)
    c.add("fuzz_omitted_optional_inputs", m, [x], expect="ok", outputs={"y": x})
    # Planning a reorder (a dnnl Conv output in a blocked layout) read a layout through a reference into a
    # vector that had just grown (ASan: heap-use-after-free in Plan::build). `check` plans with dnnl.
    w = helper.make_tensor("W", F, [8, 8, 3, 3], np.linspace(-1, 1, 576, dtype=np.float32))
    m = make_model([n("Conv", ["x", "W"], ["y"], name="conv", pads=[1, 1, 1, 1])], [vi("x", [1, 8, 6, 6])],
                   [vi("y", [1, 8, 6, 6])], initializers=[w], opset=13)
    c.add("fuzz_dnnl_reorder_check", m, [np.linspace(-2, 2, 288, dtype=np.float32).reshape(1, 8, 6, 6)],
          command="check", expect="ok")
    # Constant folding at load allocated a folded value without the tensor limit: Pad of a 1-element constant
    # to 2^41 + 1 elements (8 TiB) asked the allocator for it (ASan: allocation-size-too-big; without ASan a
    # smaller pad, e.g. 2^32, makes a 16 GiB allocation that the OOM killer ends). Must be refused by the
    # limit before allocating.
    one = helper.make_tensor("one", F, [1], [1.0])
    pads = helper.make_tensor("pads", I64, [2], [0, 1 << 41])
    m = make_model([n("Pad", ["one", "pads"], ["big"], name="pad_big"), n("Add", ["x", "big"], ["y"], name="add")],
                   [vi("x", [1])], [vi("y", None)], initializers=[one, pads], opset=13)
    c.add("fold_beyond_tensor_limit", m, [np.ones(1, np.float32)], contains=["node 'pad_big' (Pad)", "limit"])


def float16_cases(c):
    """16-bit floats: data of the wrong length in each place it can be stored, 16-bit inputs fed to float32
    inputs and the reverse, and valid float16/bfloat16 models (NaN and inf weights included) that must run."""
    n = helper.make_node
    H, B = TensorProto.FLOAT16, TensorProto.BFLOAT16
    x4h = np.array([1.0, -2.0, 0.5, 65504.0], np.float16)

    def add16(weight, elem=H):
        return make_model([n("Add", ["x", "W"], ["y"], name="add")], [vi("x", [4], elem)], [vi("y", None, elem)],
                          initializers=[weight])

    c.add("f16_raw_data_short", add16(raw_tensor("W", [4], b"\0" * 6, H)), [x4h], contains=["tensor 'W'", "raw_data"])
    c.add("bf16_raw_data_long", add16(raw_tensor("W", [4], b"\0" * 10, B), B), [],
          contains=["tensor 'W'", "raw_data", "bfloat16"])
    c.add("f16_int32_data_short", add16(TensorProto(name="W", data_type=H, dims=[4], int32_data=[1, 2, 3])), [x4h],
          contains=["tensor 'W'", "int32_data"])
    c.add("f16_int32_data_not_16_bits",
          add16(TensorProto(name="W", data_type=H, dims=[4], int32_data=[0x3C00, 0x10000, 0, 0])), [x4h],
          contains=["tensor 'W'", "int32_data[1]", "65536"])
    c.add("bf16_int32_data_negative",
          add16(TensorProto(name="W", data_type=B, dims=[2], int32_data=[-1, 0]), B), [],
          contains=["tensor 'W'", "int32_data[0]", "bfloat16"])
    w = TensorProto(name="W", data_type=H, dims=[4])
    w.data_location = TensorProto.EXTERNAL
    for k, v in (("location", "w.bin"), ("length", "6")):
        e = w.external_data.add()
        e.key, e.value = k, v
    c.write("f16_external_length", "w.bin", b"\0" * 8)
    c.add("f16_external_length", add16(w), [x4h], contains=["tensor 'W'", "external data length 6"])

    relu16 = make_model([n("Relu", ["x"], ["y"], name="relu")], [vi("x", [1, 3], H)], [vi("y", [1, 3], H)])
    c.add("input_float16_to_float32", relu_model(), [x13().astype(np.float16)], contains=["input 'x'", "float16"])
    c.add("input_float32_to_float16", relu16, [x13()], contains=["input 'x'", "float32"])

    # Valid: a whole float16 graph (NaN, inf, overflow on Add, subnormals), run in float32 between Casts that round
    # every op's output to float16 as numpy's float16 arithmetic does.
    x = np.array([np.nan, np.inf, -np.inf, 65504.0, -1.5, 0.0, -0.0, 6e-8], np.float16)
    m = make_model([n("Relu", ["x"], ["r"], name="relu"), n("Add", ["x", "x"], ["s"], name="add")],
                   [vi("x", [8], H)], [vi("r", [8], H), vi("s", [8], H)])
    with np.errstate(over="ignore", invalid="ignore"):
        c.add("f16_nan_inf_relu_add", m, [x], expect="ok", outputs={"r": np.maximum(x, np.float16(0)), "s": x + x})
    # Valid: float16 weights (NaN and inf among them, stored in int32_data) cast to float32 at load (IS-Net style).
    wh = np.array([1.0, np.nan, -np.inf, 0.1], np.float16)
    wcast = make_model([n("Cast", ["W"], ["W32"], name="cast", to=F), n("Add", ["x", "W32"], ["y"], name="add")],
                       [vi("x", [4])], [vi("y", [4])],
                       initializers=[TensorProto(name="W", data_type=H, dims=[4],
                                                 int32_data=[int(b) for b in wh.view(np.uint16)])])
    x4 = np.ones(4, np.float32)
    c.add("f16_weights_cast_nan_inf", wcast, [x4], expect="ok", outputs={"y": x4 + wh.astype(np.float32)})
    # Valid: bfloat16 weights (raw_data: 1, 1 + 2^-7, -inf, NaN) cast to float32 at load.
    wb = np.array([0x3F80, 0x3F81, 0xFF80, 0x7FC0], np.uint16)  # 1, 1 + 2^-7, -inf, NaN
    bcast = make_model([n("Cast", ["W"], ["W32"], name="cast", to=F), n("Add", ["x", "W32"], ["y"], name="add")],
                       [vi("x", [4])], [vi("y", [4])], initializers=[raw_tensor("W", [4], wb.tobytes(), B)])
    c.add("bf16_weights_cast", bcast, [x4], expect="ok",
          outputs={"y": x4 + (wb.astype(np.uint32) << 16).view(np.float32)})
    c.add("bf16_output_npy_refused", make_model([n("Cast", ["x"], ["y"], name="cast", to=B)], [vi("x", [4])],
                                                [vi("y", [4], B)]), [x4], extra_args=["--save", "."],
          contains=["bfloat16", ".npy"])


def precision_cases(c):
    """--precision: values that do not exist, on every command that takes it; bf16 runs (float32 with a warning
    where the CPU or cnnx has no native bfloat16, emulated on the reference backend), float16 models in bf16
    included, and the accuracy report of `cnnx check --precision bf16`."""
    n = helper.make_node
    for command in ("run", "bench", "check", "inspect"):
        c.add(f"precision_unknown_{command}", relu_model(), [x13()] if command in ("run", "check") else [],
              command=command, extra_args=["--precision", "fp16"], contains=["--precision", "'fp16'", "fp32 or bf16"])
    rng = np.random.default_rng(32)
    w = numpy_helper.from_array(rng.uniform(-1, 1, (4, 3, 3, 3)).astype(np.float32), "W")
    conv = make_model([n("Conv", ["x", "W"], ["c"], name="conv", pads=[1, 1, 1, 1]), n("Relu", ["c"], ["y"], name="relu")],
                      [vi("x", [1, 3, 5, 5])], [vi("y", [1, 4, 5, 5])], initializers=[w], opset=13)
    x = rng.uniform(-1, 1, (1, 3, 5, 5)).astype(np.float32)
    c.add("precision_bf16_run", conv, [x], expect="ok", extra_args=["--precision", "bf16"])
    c.add("precision_bf16_check", conv, [x], command="check", expect="ok", extra_args=["--precision", "bf16"])
    c.add("precision_bf16_inspect", conv, command="inspect", expect="ok", extra_args=["--precision", "bf16"])
    H = TensorProto.FLOAT16
    half = make_model([n("Conv", ["x", "W"], ["y"], name="conv", pads=[1, 1, 1, 1])], [vi("x", [1, 3, 5, 5], H)],
                      [vi("y", [1, 4, 5, 5], H)],
                      initializers=[numpy_helper.from_array(numpy_helper.to_array(w).astype(np.float16), "W")], opset=13)
    c.add("precision_bf16_float16_model", half, [x.astype(np.float16)], expect="ok", extra_args=["--precision", "bf16"])


def rnn_cases(c):
    """LSTM, GRU and RNN with malformed weights and states: W, R, B, P or initial_h of the wrong shape, a
    direction that disagrees with num_directions, X of the wrong rank, sequence_lens past seq_length (read at
    run time): errors naming the node and the input. A well-formed bidirectional LSTM with sequence_lens runs."""
    n = helper.make_node
    rng = np.random.default_rng(34)

    def weights(name, shape):
        return numpy_helper.from_array(rng.uniform(-1, 1, shape).astype(np.float32), name)

    def model(op, w_shape, r_shape, extra=(), inputs=("x", "w", "r"), x_shape=(3, 2, 4), feeds=(), **attrs):
        inits = [weights("w", w_shape), weights("r", r_shape)] + list(extra)
        outs = ["y", "y_h"]
        return make_model([n(op, list(inputs), outs, name="rec", **attrs)], [vi("x", list(x_shape))] + list(feeds),
                          [vi(o, None) for o in outs], inits, opset=14)

    x = np.ones((3, 2, 4), np.float32)
    c.add("lstm_w_wrong_gate_rows", model("LSTM", (1, 11, 4), (1, 12, 3)), [x],
          contains=["node 'rec' (LSTM)", "input W must be [num_directions, 4*hidden_size, input_size]"])
    c.add("lstm_w_wrong_input_size", model("LSTM", (1, 12, 5), (1, 12, 3)), [x],
          contains=["node 'rec' (LSTM)", "input W must be", "input_size from X"])
    c.add("lstm_r_not_square", model("LSTM", (1, 12, 4), (1, 12, 4)), [x], contains=["node 'rec' (LSTM)", "input R must be"])
    c.add("lstm_b_wrong_length", model("LSTM", (1, 12, 4), (1, 12, 3), [weights("b", (1, 12))], ("x", "w", "r", "b")),
          [x], contains=["node 'rec' (LSTM)", "input B must be [num_directions, 2*4*hidden_size] = [1, 24]"])
    c.add("lstm_p_wrong_length", model("LSTM", (1, 12, 4), (1, 12, 3), [weights("p", (1, 12))],
                                       ("x", "w", "r", "", "", "", "", "p")),
          [x], contains=["node 'rec' (LSTM)", "input P must be [num_directions, 3*hidden_size] = [1, 9]"])
    c.add("lstm_bidirectional_one_direction_of_weights",
          model("LSTM", (1, 12, 4), (1, 12, 3), direction="bidirectional"), [x],
          contains=["node 'rec' (LSTM)", "num_directions 2: direction is bidirectional"])
    c.add("gru_initial_h_wrong_batch", model("GRU", (1, 9, 4), (1, 9, 3), [weights("h0", (1, 5, 3))],
                                             ("x", "w", "r", "", "", "h0")),
          [x], contains=["node 'rec' (GRU)", "input initial_h must be"])
    c.add("rnn_x_rank_2", model("RNN", (1, 3, 4), (1, 3, 3), x_shape=(3, 4)), [np.ones((3, 4), np.float32)],
          contains=["node 'rec' (RNN)", "input X must be [seq_length, batch, input_size]"])
    c.add("rnn_hidden_size_disagrees", model("RNN", (1, 3, 4), (1, 3, 3), hidden_size=4), [x],
          contains=["node 'rec' (RNN)", "hidden_size 4"])
    # A declared hidden size far beyond any real one (R is a graph input that is never fed): refused at load.
    m = make_model([n("LSTM", ["x", "w", "r"], ["y"], name="rec")], [vi("x", [3, 2, 4]), vi("r", [1, 4, 1 << 40])],
                   [vi("y", None)], [weights("w", (1, 12, 4))], opset=14)
    c.add("lstm_huge_hidden_size", m, [x], contains=["node 'rec' (LSTM)", "hidden size 1099511627776"])
    lens = vi("lens", [2], TensorProto.INT32)
    m = model("LSTM", (1, 12, 4), (1, 12, 3), inputs=("x", "w", "r", "", "lens"), feeds=[lens])
    c.add("lstm_sequence_lens_past_seq_length", m, [x, np.array([3, 4], np.int32)],
          contains=["node 'rec' (LSTM)", "sequence_lens[1] is 4, outside [0, seq_length = 3]"])
    m = model("LSTM", (2, 12, 4), (2, 12, 3), inputs=("x", "w", "r", "", "lens"), feeds=[lens], direction="bidirectional")
    c.add("lstm_bidirectional_sequence_lens_runs", m, [x, np.array([3, 1], np.int32)], expect="ok")


def quant_cases(c):
    """Malformed quantization parameters (scales that are zero, negative, NaN or infinite, zero points of
    another type, an axis out of range, a per-axis length not matching the axis, float8 zero points, a bias
    that is not int32, a com.microsoft op cnnx does not have), and a valid Q -> DQ model that must run."""
    n = helper.make_node
    U8, I8, I32 = TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32
    x23 = np.array([[0.1, -0.2, 0.3], [1.5, -2.5, 1000.0]], np.float32)

    def qdq(scale, zp, axis=None, dq_zp=None, opset=13):
        """y = DequantizeLinear(QuantizeLinear(x, s, zp), s, dq_zp or zp)."""
        q_attrs = {} if axis is None else {"axis": axis}
        inits = [scale, zp] + ([dq_zp] if dq_zp is not None else [])
        return make_model([n("QuantizeLinear", ["x", "s", "zp"], ["q"], name="q", **q_attrs),
                           n("DequantizeLinear", ["q", "s", "dq_zp" if dq_zp is not None else "zp"], ["y"], name="dq",
                             **q_attrs)],
                          [vi("x", [2, 3])], [vi("y", None)], initializers=inits, opset=opset)

    zp_u8 = helper.make_tensor("zp", U8, [], [128])
    for label, value in (("zero", 0.0), ("negative", -0.5), ("nan", float("nan")), ("inf", float("inf"))):
        c.add(f"quant_scale_{label}", qdq(helper.make_tensor("s", F, [], [value]), zp_u8), [x23],
              contains=["node 'q' (QuantizeLinear)", "y_scale must be finite and positive"])
    c.add("quant_zero_point_other_type", qdq(helper.make_tensor("s", F, [], [0.1]), zp_u8,
                                            dq_zp=helper.make_tensor("dq_zp", I8, [], [0])), [x23],
          contains=["node 'dq' (DequantizeLinear)", "x_zero_point (input 2) has element type int8; expected uint8"])
    c.add("quant_zero_point_int32", qdq(helper.make_tensor("s", F, [], [0.1]), helper.make_tensor("zp", I32, [], [0])),
          [x23], contains=["node 'q' (QuantizeLinear)", "y_zero_point", "expected int8 or uint8"])
    per_axis_s = helper.make_tensor("s", F, [3], [0.1, 0.2, 0.3])
    per_axis_zp = helper.make_tensor("zp", U8, [3], [0, 1, 2])
    c.add("quant_axis_out_of_range", qdq(per_axis_s, per_axis_zp, axis=2), [x23],
          contains=["node 'q' (QuantizeLinear)", "axis"])
    c.add("quant_scale_length_not_axis", qdq(per_axis_s, per_axis_zp, axis=0), [x23],
          contains=["node 'q' (QuantizeLinear)", "y_scale has 3 values; the quantization axis has 2"])
    c.add("quant_zero_point_length", qdq(per_axis_s, helper.make_tensor("zp", U8, [2], [0, 1]), axis=1), [x23],
          contains=["node 'q' (QuantizeLinear)", "y_zero_point has 2 values"])
    c.add("quant_per_axis_opset_10", qdq(per_axis_s, per_axis_zp, opset=10), [x23],
          contains=["node 'q' (QuantizeLinear)", "must be a scalar (per-tensor quantization)"])
    c.add("quant_float8_zero_point", qdq(helper.make_tensor("s", F, [], [0.1]), raw_tensor("zp", [], b"\0", 17)),
          [x23], contains=["tensor 'zp'", "float8"])
    # QLinearConv with a float bias.
    conv = make_model([n("QuantizeLinear", ["x", "xs", "xz"], ["xq"], name="qx"),
                       n("QLinearConv", ["xq", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"], name="qconv")],
                      [vi("x", [1, 1, 3, 3])], [vi("y", None, U8)],
                      initializers=[helper.make_tensor("xs", F, [], [0.1]), helper.make_tensor("xz", U8, [], [128]),
                                    helper.make_tensor("w", U8, [2, 1, 1, 1], [1, 2]),
                                    helper.make_tensor("ws", F, [], [0.1]), helper.make_tensor("wz", U8, [], [0]),
                                    helper.make_tensor("ys", F, [], [0.1]), helper.make_tensor("yz", U8, [], [0]),
                                    helper.make_tensor("b", F, [2], [0.0, 1.0])])
    c.add("qlinearconv_float_bias", conv, [np.zeros((1, 1, 3, 3), np.float32)],
          contains=["node 'qconv' (QLinearConv)", "B (input 8) has element type float32; expected int32"])
    # com.microsoft QLinearAdd with B of another type than A, and QGemm with a float C.
    ms_opsets = [helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)]
    qadd = make_model([n("QuantizeLinear", ["x", "s", "za"], ["a"], name="qa"),
                       n("QLinearAdd", ["a", "s", "za", "b", "s", "zb", "s", "za"], ["y"], name="qadd",
                         domain="com.microsoft")],
                      [vi("x", [3])], [vi("y", None, U8)], opsets=ms_opsets,
                      initializers=[helper.make_tensor("s", F, [], [0.1]), helper.make_tensor("za", U8, [], [128]),
                                    helper.make_tensor("zb", I8, [], [0]), helper.make_tensor("b", I8, [3], [1, 2, 3])])
    c.add("qlinearadd_mixed_types", qadd, [np.zeros(3, np.float32)],
          contains=["node 'qadd' (com.microsoft:QLinearAdd)", "B (input 3) has element type int8; expected A's, uint8"])
    qgemm = make_model([n("QuantizeLinear", ["x", "s", "za"], ["a"], name="qa"),
                        n("QGemm", ["a", "s", "za", "w", "s", "za", "c"], ["y"], name="qgemm", domain="com.microsoft")],
                       [vi("x", [1, 2])], [vi("y", None)], opsets=ms_opsets,
                       initializers=[helper.make_tensor("s", F, [], [0.1]), helper.make_tensor("za", U8, [], [128]),
                                     helper.make_tensor("w", U8, [2, 2], [1, 2, 3, 4]),
                                     helper.make_tensor("c", F, [2], [0.0, 1.0])])
    c.add("qgemm_float_c", qgemm, [np.zeros((1, 2), np.float32)],
          contains=["node 'qgemm' (com.microsoft:QGemm)", "C (input 6) has element type float32; expected int32"])
    ms = make_model([n("Conv", ["x", "x"], ["y"], name="msconv", domain="com.microsoft")], [vi("x", [1, 1, 1, 1])],
                    [vi("y", None)], opsets=[helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)])
    c.add("com_microsoft_conv", ms, [np.ones((1, 1, 1, 1), np.float32)],
          contains=["Conv", "com.microsoft", "not supported"])
    # A valid round trip: x / 0.5 rounded half to even (0.2 -> 0, -2.5 -> -5 ... saturated), back to float.
    valid = qdq(helper.make_tensor("s", F, [], [0.5]), helper.make_tensor("zp", I8, [], [1]))
    q = np.clip(np.rint(x23 / np.float32(0.5)) + 1, -128, 127)
    c.add("quant_round_trip", valid, [x23], expect="ok", outputs={"y": ((q - 1) * np.float32(0.5)).astype(np.float32)})
    # Opset 19's float16 scale: DequantizeLinear in float32 through the float16-compute lowering, exact here.
    H = TensorProto.FLOAT16
    dq16 = make_model([n("DequantizeLinear", ["x", "s", "z"], ["y"], name="dq")], [vi("x", [3], U8)], [vi("y", [3], H)],
                      initializers=[helper.make_tensor("s", H, [], [0.5]), helper.make_tensor("z", U8, [], [1])])
    c.add("quant_float16_scale", dq16, [np.array([0, 1, 255], np.uint8)], expect="ok",
          outputs={"y": np.array([-0.5, 0, 127], np.float16)})


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_corpus.py OUTDIR")
    root = os.path.abspath(sys.argv[1])
    if os.path.exists(root):
        if os.listdir(root) and not os.path.exists(os.path.join(root, "manifest.json")):
            sys.exit(f"make_corpus.py: {root} exists and is not a corpus; refusing to clear it")
        shutil.rmtree(root)
    os.makedirs(root)
    c = Corpus(root)
    for make in (file_cases, graph_cases, opset_cases, tensor_cases, attribute_cases, subgraph_cases, external_cases,
                 input_cases, valid_cases, limit_cases, data_op_cases, reduce_cases, einsum_cases,
                 resize_cases, rnn_cases, float16_cases, precision_cases, quant_cases, leniency_cases, detect_cases,
                 more_op_cases, fuzz_cases):
        make(c)
    with open(os.path.join(root, "manifest.json"), "w") as f:
        json.dump({"cases": c.cases}, f, indent=1)
    print(f"wrote {len(c.cases)} cases to {root}")


if __name__ == "__main__":
    main()
