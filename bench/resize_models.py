#!/usr/bin/env python3
"""Writes one-node Resize graphs for bench/resize.sh: DIR/NAME/model.onnx and DIR/NAME/input.npy.

Usage: resize_models.py DIR

Each graph resizes one 1x64x128x128 float32 input (a decoder's feature map) the way exporters write it:
  bilinear_half_pixel     linear x2, half_pixel (PyTorch interpolate bilinear, align_corners=False; tf2onnx TF2)
  bilinear_align_corners  linear x2, align_corners (PyTorch align_corners=True)
  bilinear_asymmetric     linear x2, asymmetric (tf2onnx's TF1 resize_bilinear, half_pixel_centers=False)
  bilinear_sizes_odd      linear to 200x173 by sizes, half_pixel (non-integer factors)
  cubic_half_pixel        cubic x2, A = -0.75, half_pixel (PyTorch bicubic)
  nearest_x2              nearest x2, asymmetric floor (PyTorch nearest; oneDNN runs it)
  linear_antialias_half   linear /2 with antialias (opset 18)
  decoder_96              Conv 3x3 64->64 + Relu at 96x96, bilinear x2 half_pixel, Conv 3x3 64->32 (a decoder
                          step: the convolutions hand the Resize channel-blocked tensors)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


def model(name, mode, scales=None, sizes=None, opset=13, shape=(1, 64, 128, 128), **attrs):
    inits, names = [], ["x", ""]
    if scales is not None:
        inits.append(helper.make_tensor("scales", TensorProto.FLOAT, [len(scales)], scales))
        names.append("scales")
    else:
        names.append("")
        inits.append(helper.make_tensor("sizes", TensorProto.INT64, [len(sizes)], sizes))
        names.append("sizes")
    node = helper.make_node("Resize", names, ["y"], mode=mode, **attrs)
    g = helper.make_graph([node], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def decoder(rng):
    w1 = helper.make_tensor("w1", TensorProto.FLOAT, [64, 64, 3, 3], (rng.standard_normal(64 * 64 * 9) * 0.05).tolist())
    w2 = helper.make_tensor("w2", TensorProto.FLOAT, [32, 64, 3, 3], (rng.standard_normal(32 * 64 * 9) * 0.05).tolist())
    scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 2, 2])
    nodes = [helper.make_node("Conv", ["x", "w1"], ["a"], pads=[1, 1, 1, 1]), helper.make_node("Relu", ["a"], ["b"]),
             helper.make_node("Resize", ["b", "", "scales"], ["c"], mode="linear",
                              coordinate_transformation_mode="half_pixel"),
             helper.make_node("Conv", ["c", "w2"], ["y"], pads=[1, 1, 1, 1])]
    g = helper.make_graph(nodes, "decoder", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64, 96, 96])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w1, w2, scales])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def main():
    out = sys.argv[1]
    x2 = [1.0, 1.0, 2.0, 2.0]
    models = {
        "bilinear_half_pixel": model("m", "linear", x2, coordinate_transformation_mode="half_pixel"),
        "bilinear_align_corners": model("m", "linear", x2, coordinate_transformation_mode="align_corners"),
        "bilinear_asymmetric": model("m", "linear", x2, coordinate_transformation_mode="asymmetric"),
        "bilinear_sizes_odd": model("m", "linear", sizes=[1, 64, 200, 173], coordinate_transformation_mode="half_pixel"),
        "cubic_half_pixel": model("m", "cubic", x2, coordinate_transformation_mode="half_pixel", cubic_coeff_a=-0.75),
        "nearest_x2": model("m", "nearest", x2, coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
        "linear_antialias_half": model("m", "linear", [1.0, 1.0, 0.5, 0.5], opset=18, antialias=1,
                                       coordinate_transformation_mode="half_pixel"),
    }
    rng = np.random.default_rng(0)
    models["decoder_96"] = decoder(rng)
    x = rng.standard_normal((1, 64, 128, 128)).astype(np.float32)
    for name, m in models.items():
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        onnx.save(m, os.path.join(d, "model.onnx"))
        np.save(os.path.join(d, "input.npy"), x[:, :, :96, :96].copy() if name == "decoder_96" else x)
        print(d)


if __name__ == "__main__":
    main()
