#!/usr/bin/env python3
"""Graphs as tf2onnx writes them, built with onnx.helper (no TensorFlow in Debian), random seeded weights.

What a Keras MobileNet exported by tf2onnx looks like (opset 13):
  - an NHWC graph input, an input normalization (Mul, Sub) in NHWC, a Keras ZeroPadding2D as a Pad with its
    pads as an input tensor in NHWC order, then Transpose(0, 3, 1, 2) into the NCHW convolutions;
  - BatchNormalization folded by TensorFlow's graph optimizer into Mul(x, per-channel scale) + Add(per-channel
    offset) after a Conv without bias, the constants shaped [1, C, 1, 1] or [C, 1, 1] by tf2onnx's transpose
    optimizer;
  - Relu6 as Clip(0, 6) with its bounds as inputs;
  - Transpose(0, 2, 3, 1) -> Transpose(0, 3, 1, 2) pairs left between ops the optimizer did not push through;
  - explicit Pads of zeros before strided depthwise convolutions (pads as an input tensor);
  - a head that goes back to NHWC: Transpose(0, 2, 3, 1) -> ReduceMean(axes 1, 2) -> Reshape -> MatMul -> Add
    -> Softmax.

  - without tf2onnx's transpose optimizer (--nhwc-ops): each BatchNorm (Mul, Add of [C] constants) and Relu6
    in NHWC between a Transpose(0, 2, 3, 1) and a Transpose(0, 3, 1, 2).

Usage: tf2onnx_graphs.py OUT.onnx [--size S] [--width W] [--seed N] [--nhwc-ops]   (writes the MobileNet-like model)
Import: mobilenet_nhwc(size, width, seed, classes, nhwc_ops) -> onnx.ModelProto."""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Builder:
    """Nodes and initializers of one graph, with unique names."""

    def __init__(self, seed, nhwc_ops=False):
        self.rng = np.random.default_rng(seed)
        self.nhwc_ops = nhwc_ops
        self.nodes, self.inits, self.count = [], [], 0

    def name(self, base):
        self.count += 1
        return f"{base}_{self.count}"

    def const(self, base, array, dtype=np.float32):
        n = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(array, dtype), n))
        return n

    def node(self, op, inputs, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out.replace("_", "/", 1), **attrs))
        return out

    def conv(self, x, cin, cout, k, stride=1, pads=None, group=1):
        fan_in = cin // group * k * k
        w = self.rng.normal(0, np.sqrt(2.0 / fan_in), (cout, cin // group, k, k))
        attrs = dict(kernel_shape=[k, k], strides=[stride, stride], group=group)
        if pads is not None:
            attrs["pads"] = pads
        return self.node("Conv", [x, self.const("W", w)], **attrs)

    def batch_norm_as_mul_add(self, x, c, shape):
        """BatchNormalization as TensorFlow folds it: x * scale + offset, per channel."""
        scale = self.rng.uniform(0.5, 1.5, c).reshape(shape)
        offset = self.rng.uniform(-0.2, 0.2, c).reshape(shape)
        return self.node("Add", [self.node("Mul", [x, self.const("scale", scale)]), self.const("offset", offset)])

    def relu6(self, x):
        return self.node("Clip", [x, self.const("zero", 0.0), self.const("six", 6.0)])

    def transpose(self, x, perm):
        return self.node("Transpose", [x], perm=perm)

    def pad(self, x, pads):
        return self.node("Pad", [x, self.const("pads", pads, np.int64)], mode="constant")


def conv_bn(b, x, cin, cout, k, stride=1, pads=None, group=1, relu6=True, bn_shape=None):
    """Conv -> BatchNorm as Mul + Add [-> Relu6]; with b.nhwc_ops, the Mul, Add and Clip in NHWC between
    Transposes (tf2onnx without its transpose optimizer), the constants of shape [C]."""
    y = b.conv(x, cin, cout, k, stride, pads, group)
    if b.nhwc_ops:
        y = b.batch_norm_as_mul_add(b.transpose(y, [0, 2, 3, 1]), cout, (cout,))
        return b.transpose(b.relu6(y) if relu6 else y, [0, 3, 1, 2])
    y = b.batch_norm_as_mul_add(y, cout, bn_shape or (1, cout, 1, 1))
    return b.relu6(y) if relu6 else y


def inverted_residual(b, x, cin, cout, stride, expand, transpose_pair=False):
    """MobileNetV2's block: 1x1 expansion, 3x3 depthwise (stride 2 after an explicit Pad of zeros, bottom and
    right as TensorFlow's SAME), 1x1 projection without activation, residual when the shapes agree."""
    hidden = cin * expand
    y = conv_bn(b, x, cin, hidden, 1) if expand != 1 else x
    if stride == 2:
        y = conv_bn(b, b.pad(y, [0, 0, 0, 0, 0, 0, 1, 1]), hidden, hidden, 3, 2, group=hidden, bn_shape=(hidden, 1, 1))
    else:
        y = conv_bn(b, y, hidden, hidden, 3, 1, [1, 1, 1, 1], group=hidden, bn_shape=(hidden, 1, 1))
    if transpose_pair:  # an NHWC round trip the transpose optimizer left between two ops
        y = b.transpose(b.transpose(y, [0, 2, 3, 1]), [0, 3, 1, 2])
    y = conv_bn(b, y, hidden, cout, 1, relu6=False)
    return b.node("Add", [x, y]) if stride == 1 and cin == cout else y


def mobilenet_nhwc(size=224, width=1.0, seed=0, classes=100, nhwc_ops=False):
    """A MobileNetV2-like classifier on an NHWC input [1, size, size, 3], as tf2onnx exports a Keras model
    (nhwc_ops: each BatchNorm and Relu6 in NHWC between Transposes, as without tf2onnx's transpose optimizer)."""
    b = Builder(seed, nhwc_ops)
    c = lambda n: max(8, int(n * width + 4) // 8 * 8)  # noqa: E731
    x = b.node("Sub", [b.node("Mul", ["input", b.const("inv127", 1 / 127.5)]), b.const("one", 1.0)])
    x = b.transpose(b.pad(x, [0, 0, 0, 0, 0, 1, 1, 0]), [0, 3, 1, 2])  # ZeroPadding2D in NHWC, then to NCHW
    x = conv_bn(b, x, 3, c(32), 3, 2)
    cin = c(32)
    blocks = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 2, 2), (6, 96, 2, 1), (6, 160, 2, 2), (6, 320, 1, 1)]
    for i, (expand, cout, repeat, stride) in enumerate(blocks):
        for r in range(repeat):
            x = inverted_residual(b, x, cin, c(cout), stride if r == 0 else 1, expand, transpose_pair=(r == 1))
            cin = c(cout)
    x = conv_bn(b, x, cin, 1280, 1)
    # The head in NHWC: global mean over H, W, flattened, a dense layer and softmax.
    x = b.node("ReduceMean", [b.transpose(x, [0, 2, 3, 1])], axes=[1, 2], keepdims=1)
    x = b.node("Reshape", [x, b.const("flat", [-1, 1280], np.int64)])
    w = b.rng.normal(0, 1 / np.sqrt(1280), (1280, classes))
    x = b.node("Add", [b.node("MatMul", [x, b.const("dense_W", w)]), b.const("dense_b", b.rng.uniform(-0.1, 0.1, classes))])
    b.nodes.append(helper.make_node("Softmax", [x], ["probs"], name="softmax", axis=-1))
    graph = helper.make_graph(b.nodes, "mobilenet_nhwc_tf2onnx",
                              [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, size, size, 3])],
                              [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, classes])], b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tf2onnx-style")
    onnx.checker.check_model(model)
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--width", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--nhwc-ops", action="store_true")
    a = ap.parse_args()
    onnx.save(mobilenet_nhwc(a.size, a.width, a.seed, nhwc_ops=a.nhwc_ops), a.out)


if __name__ == "__main__":
    main()
