"""Small detectors built with onnx.helper whose answer is known, for tests/cli/detect_test.py and
tests/python/test_detect.py. Each takes a float image ([3, H, W] or [1, 3, H, W]) and outputs three detections
whose boxes are constants in the input's pixels (or in [0, 1] for the 7-column layout) and whose scores are the
means of the image's three channels (R, G, B): a plain-colour image (which any resize keeps as it is) of colour
(r, g, b) gives the scores r/255, g/255, b/255 when cnnx feeds values in [0, 1]."""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

H, W = 48, 64                                      # the model's input
BOXES = np.array([[10, 20, 30, 40], [0, 0, 64, 48], [5.5, 6.25, 7.5, 8.75]], np.float32)
NORMALIZED = np.array([[0.1, 0.2, 0.5, 0.6], [0, 0, 1, 1], [0.25, 0.5, 0.75, 0.875]], np.float32)
CLASSES = np.array([5, 7, 9], np.int64)
LABELS = [f"thing{i}" for i in range(8)]           # no name for class 9


def _save(path, nodes, inputs, outputs, inits, metadata=None, opset=13):
    graph = helper.make_graph(nodes, "det", inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 7
    for k, v in (metadata or {}).items():
        model.metadata_props.add(key=k, value=v)
    onnx.checker.check_model(model)
    onnx.save(model, path)


def _image_input(batched, h=H, w=W):
    shape = [1, 3, h, w] if batched else [3, h, w]
    return helper.make_tensor_value_info("images", TensorProto.FLOAT, shape)


def _means(batched):
    """'scores' [3] (or [1, 3] batched): the mean of each channel."""
    axes = [0, 2, 3] if batched else [1, 2]
    node = helper.make_node("ReduceMean", ["images"], ["means"], axes=axes, keepdims=0)
    if not batched:
        return [node], "means"
    return [node, helper.make_node("Unsqueeze", ["means", "zero"], ["means1"])], "means1"


def triple(path, batched=False, names=("boxes", "scores", "labels"), labels_dtype=TensorProto.INT64,
           extra_output=False, metadata=None, dynamic=False, h=H, w=W, boxes=BOXES, short_scores=False, batch=None):
    """torchvision's layout: boxes [N, 4], scores [N], labels [N] (each with a leading 1 when batched), in the
    order torchvision writes them; the boxes are `boxes` + 0 * the image's mean (so they are computed).
    short_scores: only the first two scores (a broken detector); batch: the input's fixed batch ([batch, 3, H, W])."""
    b, s, l = names
    pre = [1] if batched else []
    nodes, means = _means(batched or batch is not None)
    if batch is not None and not batched:
        nodes.append(helper.make_node("Squeeze", [means, "zero"], ["means0"]))
        means = "means0"
    if short_scores:
        nodes.append(helper.make_node("Slice", [means, "zero", "two"], ["means2"]))
    inits = [numpy_helper.from_array(np.array([0], np.int64), "zero"),
             numpy_helper.from_array(np.array([2], np.int64), "two"),
             numpy_helper.from_array(boxes.reshape(pre + [3, 4]), "box_consts"),
             numpy_helper.from_array(CLASSES.reshape(pre + [3]).astype(
                 onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[labels_dtype]), "class_consts"),
             numpy_helper.from_array(np.zeros(1, np.float32), "nothing")]
    nodes += [helper.make_node("ReduceMean", [means], ["mean_all"], keepdims=1),
              helper.make_node("Mul", ["mean_all", "nothing"], ["zeroed"]),
              helper.make_node("Add", ["box_consts", "zeroed"], [b]),
              helper.make_node("Identity", ["means2" if short_scores else means], [s]),
              helper.make_node("Identity", ["class_consts"], [l])]
    outputs = [helper.make_tensor_value_info(b, TensorProto.FLOAT, pre + ["N", 4]),
               helper.make_tensor_value_info(s, TensorProto.FLOAT, pre + ["N"]),
               helper.make_tensor_value_info(l, labels_dtype, pre + ["N"])]
    if extra_output:
        inits.append(numpy_helper.from_array(np.array([3], np.float32), "count"))
        nodes.append(helper.make_node("Identity", ["count"], ["num_detections"]))
        outputs.append(helper.make_tensor_value_info("num_detections", TensorProto.FLOAT, [1]))
    image = _image_input(batched or batch is not None, "H" if dynamic else h, "W" if dynamic else w)
    if batch is not None:
        image.type.tensor_type.shape.dim[0].dim_value = batch
    _save(path, nodes, [image], outputs, inits, metadata)


def rows(path, columns, rank, metadata=None):
    """One tensor of rows: 6 columns x1, y1, x2, y2, score, class, or 7 columns image_id, class, score, x1, y1, x2,
    y2 (boxes in [0, 1], and a fourth row of padding with image_id -1); shaped [N, C] (rank 2), [1, N, C] (3) or
    [1, 1, N, C] (4). Input [1, 3, H, W]."""
    nodes, means = _means(True)  # [1, 3]
    inits = [numpy_helper.from_array(np.array([0], np.int64), "zero"),
             numpy_helper.from_array(np.array([3, 1], np.int64), "col"),
             numpy_helper.from_array(CLASSES.astype(np.float32).reshape(3, 1), "cls"),
             numpy_helper.from_array(np.zeros((3, 1), np.float32), "image_id")]
    nodes.append(helper.make_node("Reshape", [means, "col"], ["score"]))
    if columns == 6:
        inits.append(numpy_helper.from_array(BOXES, "b"))
        parts = ["b", "score", "cls"]
    else:
        inits.append(numpy_helper.from_array(NORMALIZED, "b"))
        inits.append(numpy_helper.from_array(np.array([[-1, 3, 0.99, 0, 0, 1, 1]], np.float32), "padding"))
        parts = ["image_id", "cls", "score", "b"]
    nodes.append(helper.make_node("Concat", parts, ["table"], axis=1))
    if columns == 7:
        nodes.append(helper.make_node("Concat", ["table", "padding"], ["table7"], axis=0))
    n = 3 if columns == 6 else 4
    shape = {2: [n, columns], 3: [1, n, columns], 4: [1, 1, n, columns]}[rank]
    inits.append(numpy_helper.from_array(np.array(shape, np.int64), "out_shape"))
    nodes.append(helper.make_node("Reshape", ["table" if columns == 6 else "table7", "out_shape"], ["detections"]))
    _save(path, nodes, [_image_input(True)], [helper.make_tensor_value_info("detections", TensorProto.FLOAT, shape)],
          inits, metadata)


def classifier(path, classes=4):
    """Not a detector: the channel means through a Gemm to [1, classes] scores."""
    nodes, means = _means(True)
    inits = [numpy_helper.from_array(np.array([0], np.int64), "zero"),
             numpy_helper.from_array(np.arange(3 * classes, dtype=np.float32).reshape(3, classes) / 10, "w")]
    nodes.append(helper.make_node("MatMul", [means, "w"], ["logits"]))
    _save(path, nodes, [_image_input(True)],
          [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, classes])], inits)


def expected(colour, image_w, image_h, threshold, layout="pixels", model_w=W, model_h=H, boxes=BOXES, labels=None):
    """The detections cnnx must report for a plain image of `colour` and size image_w x image_h, best first:
    [{"box": [...], "class": c, "score": s, ("label": l)}], boxes as float32 values, scores approximately."""
    scores = np.array(colour, np.float64) / 255
    if layout == "normalized":
        src, sx, sy = NORMALIZED, float(image_w), float(image_h)
    else:
        src, sx, sy = boxes, image_w / model_w, image_h / model_h
    out = []
    for i in np.argsort(-scores, kind="stable"):
        if scores[i] < threshold:
            continue
        box = [float(np.float32(float(v) * s)) for v, s in zip(src[i], (sx, sy, sx, sy))]
        d = {"box": box, "class": int(CLASSES[i]), "score": float(scores[i])}
        if labels is not None and CLASSES[i] < len(labels):
            d["label"] = labels[CLASSES[i]]
        out.append(d)
    return out
