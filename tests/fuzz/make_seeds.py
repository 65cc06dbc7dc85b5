#!/usr/bin/python3
"""Writes the seed corpora and the dictionary of the libFuzzer targets in tests/fuzz.

    /usr/bin/python3 make_seeds.py NODE_TEST_DIR BAD_INPUT_DIR OUTDIR

NODE_TEST_DIR: the ONNX node tests (tests/node/generate_node_tests.py); BAD_INPUT_DIR: the malformed-model
corpus (tests/bad_input/make_corpus.py). Writes
    OUTDIR/fuzz_load_plan/   every distinct .onnx file of both, named by content hash
    OUTDIR/fuzz_run_model/   input byte strings for fuzz_run_model (see its header for the format)
    OUTDIR/tiny_cnn.onnx     the model fuzz_run_model runs in run_fuzzers.sh: input [N,3,H,W] with N, H, W
                             free, so fuzzed shapes reach the window arithmetic of every conv and pool
    OUTDIR/onnx.dict         op types, attribute names and other strings of the node tests (libFuzzer -dict)
"""
import hashlib
import os
import shutil
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def write_seed(folder, data):
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def load_plan_seeds(sources, folder, max_bytes=1 << 20):
    """Copies the .onnx files (up to max_bytes each) and returns the strings worth a dictionary entry."""
    words = set()
    for root_dir in sources:
        for root, _, files in os.walk(root_dir):
            for name in files:
                if not name.endswith(".onnx"):
                    continue
                with open(os.path.join(root, name), "rb") as f:
                    data = f.read()
                if len(data) > max_bytes:
                    continue
                write_seed(folder, data)
                try:
                    m = onnx.load_from_string(data)
                except Exception:  # the bad-input corpus is full of files protobuf refuses
                    continue
                for node in m.graph.node:
                    words.add(node.op_type)
                    words.update(a.name for a in node.attribute)
                    words.update(a.s.decode("latin1") for a in node.attribute if a.s)
    return words


def run_model_seeds(folder):
    rng = np.random.default_rng(6)
    normal = rng.standard_normal(256).astype(np.float32).tobytes()
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, 3.4e38, -3.4e38], np.float32).tobytes()
    # Spec shapes: one byte per unknown dim (N, H, W of tiny_cnn: 1 + byte % 12), then the elements.
    for mode in range(16):
        write_seed(folder, bytes([mode, 1, 7, 8]) + normal)   # [2, 3, 8, 9]
    write_seed(folder, bytes([0, 0, 0, 0]) + special)         # [1, 3, 1, 1]
    write_seed(folder, bytes([2, 3, 4, 11]) + special)        # dnnl, [4, 3, 5, 12]
    write_seed(folder, bytes([6, 0, 2, 3]) + special)         # verify, [1, 3, 3, 4]
    write_seed(folder, bytes([0, 0, 11, 11]))                 # all zeros, [1, 3, 12, 12]
    for rank in range(6):                             # free shapes: wrong ranks and dims, zero-sized tensors
        write_seed(folder, bytes([1, rank]) + bytes([1, 3, 4, 4, 0][:rank]) + normal[:64])
    write_seed(folder, bytes([3, 4, 2, 3, 7, 7]) + normal[:64])


def tiny_cnn():
    """Conv, BatchNormalization, Relu, MaxPool (ceil_mode), grouped dilated Conv, Add, AveragePool (pads,
    ceil_mode, count_include_pad=0), Clip, GlobalAveragePool, Flatten, Gemm, Softmax, ReduceMean, a
    Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain computed from the run-time shape, and Resizes (linear
    x1.5 by scales, cubic to sizes computed from the run-time shape)."""
    rng = np.random.default_rng(7)
    w = lambda name, *shape: numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)
    n = helper.make_node
    nodes = [
        n("Conv", ["x", "W1", "B1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        n("BatchNormalization", ["c1", "bn_s", "bn_b", "bn_m", "bn_v"], ["b1"], name="bn1"),
        n("Relu", ["b1"], ["r1"], name="relu1"),
        n("MaxPool", ["r1"], ["p1"], name="maxpool", kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        n("Conv", ["p1", "W2"], ["c2"], name="conv2", group=2, dilations=[2, 2], pads=[2, 2, 2, 2]),
        n("Add", ["c2", "p1"], ["a2"], name="add"),
        n("AveragePool", ["a2"], ["ap"], name="avgpool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
          ceil_mode=1, count_include_pad=0),
        n("Clip", ["ap", "lo", "hi"], ["cl"], name="clip"),
        n("GlobalAveragePool", ["cl"], ["g"], name="gap"),
        n("Flatten", ["g"], ["f"], name="flatten"),
        n("Gemm", ["f", "Wg", "Bg"], ["gm"], name="gemm", transB=1),
        n("Softmax", ["gm"], ["y"], name="softmax", axis=-1),
        n("ReduceMean", ["r1"], ["y2"], name="reducemean", axes=[2, 3], keepdims=0),
        n("Shape", ["p1"], ["s"], name="shape"),
        n("Gather", ["s", "zero"], ["batch"], name="gather", axis=0),
        n("Unsqueeze", ["batch", "axes0"], ["batch1"], name="unsqueeze"),
        n("Concat", ["batch1", "minus1"], ["shape2"], name="concat", axis=0),
        n("Reshape", ["p1", "shape2"], ["y3"], name="reshape"),
        n("Resize", ["p1", "", "rs_scales"], ["up"], name="resize_linear", mode="linear"),
        n("Slice", ["s", "two", "four"], ["hw"], name="slice_hw"),
        n("Concat", ["s2", "hw"], ["sizes"], name="concat_sizes", axis=0),
        n("Resize", ["up", "", "", "sizes"], ["y4"], name="resize_cubic", mode="cubic",
          coordinate_transformation_mode="align_corners"),
    ]
    i64 = lambda name, values: numpy_helper.from_array(np.array(values, np.int64), name)
    inits = [w("W1", 4, 3, 3, 3), w("B1", 4), w("W2", 4, 2, 3, 3), w("Wg", 5, 4), w("Bg", 5),
             numpy_helper.from_array(rng.uniform(0.5, 2, 4).astype(np.float32), "bn_s"), w("bn_b", 4), w("bn_m", 4),
             numpy_helper.from_array(rng.uniform(0.5, 2, 4).astype(np.float32), "bn_v"),
             numpy_helper.from_array(np.array(0.1, np.float32), "lo"),
             numpy_helper.from_array(np.array(0.9, np.float32), "hi"),
             numpy_helper.from_array(np.array(0, np.int64), "zero"), i64("axes0", [0]), i64("minus1", [-1]),
             numpy_helper.from_array(np.array([1, 1, 1.5, 1.5], np.float32), "rs_scales"), i64("two", [2]),
             i64("four", [4])]
    # The cubic Resize goes back to p1's plane: its sizes are p1's shape (first two dims of `s`, then H and W).
    nodes.insert(len(nodes) - 2, n("Slice", ["s", "zero1", "two"], ["s2"], name="slice_nc"))
    inits.append(i64("zero1", [0]))
    f = TensorProto.FLOAT
    graph = helper.make_graph(nodes, "tiny_cnn", [helper.make_tensor_value_info("x", f, ["N", 3, "H", "W"])],
                              [helper.make_tensor_value_info("y", f, ["N", 5]), helper.make_tensor_value_info("y2", f, ["N", 4]),
                               helper.make_tensor_value_info("y3", f, ["N", "K"]),
                               helper.make_tensor_value_info("y4", f, ["N", 4, "H2", "W2"])], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="cnnx-fuzz")
    onnx.checker.check_model(model)
    return model


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: make_seeds.py NODE_TEST_DIR BAD_INPUT_DIR OUTDIR")
    node_dir, bad_dir, out = sys.argv[1:]
    for d in (node_dir, bad_dir):
        if not os.path.isdir(d):
            sys.exit(f"make_seeds.py: {d} is not a folder")
    for sub in ("fuzz_load_plan", "fuzz_run_model"):
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
        os.makedirs(os.path.join(out, sub))
    words = load_plan_seeds([node_dir, bad_dir], os.path.join(out, "fuzz_load_plan"))
    run_model_seeds(os.path.join(out, "fuzz_run_model"))
    onnx.save(tiny_cnn(), os.path.join(out, "tiny_cnn.onnx"))
    words.update(["ai.onnx", "", "location", "offset", "length"])
    with open(os.path.join(out, "onnx.dict"), "w") as f:
        for w in sorted(words):
            if w and len(w) <= 64 and all(32 <= ord(ch) < 127 for ch in w):
                f.write('"' + "".join("\\" + ch if ch in '"\\' else ch for ch in w) + '"\n')
    counts = {sub: len(os.listdir(os.path.join(out, sub))) for sub in ("fuzz_load_plan", "fuzz_run_model")}
    print(f"make_seeds.py: {counts['fuzz_load_plan']} load_plan seeds, {counts['fuzz_run_model']} run_model seeds, "
          f"{len(words)} dictionary words in {out}")


if __name__ == "__main__":
    main()
