#!/usr/bin/python3
"""Train cnnx's bundled classifier: a small CNN that names the shape in a 64x64 RGB image.

No pretrained weights can be downloaded here, so the data is procedural: one filled shape
(circle, square, triangle, star, cross) per image, in a random colour, size, position and rotation,
over a random background with a gradient, Gaussian noise and a few faint distractor lines.
Every image is drawn from its own RNG seeded by (split seed, index), so any prefix of a split is
reproducible on its own and the splits never overlap.

    /usr/bin/python3 models/shapes/train_shapes.py                 # train, report, write shapes.onnx,
                                                                   # labels.txt, samples/*.png
    /usr/bin/python3 models/shapes/train_shapes.py --write-test-set DIR --count N
        # N held-out inputs: DIR/test_0000.npy (float32 1x3x64x64, already preprocessed),
        # DIR/test_0000.png (the same image before preprocessing), DIR/expected.csv
        # ("file,label_index,label"); the first N images of the held-out split used for accuracy.

CPU only, deterministic (fixed seeds, 2 torch threads); about 5 CPU-minutes (12 min wall on a heavily
shared 2-core machine).
The format of the exported model is described in README.md next to this script.
"""
import argparse
import math
import os
import sys
import time

import numpy as np
from PIL import Image, ImageDraw

LABELS = ["circle", "square", "triangle", "star", "cross"]
SIZE = 64  # model input is SIZE x SIZE RGB
SUPERSAMPLE = 4  # shapes are drawn at 4x and box-filtered down: anti-aliased edges

# Preprocessing, stored in the model's metadata_props: x = (pixel / 255 - mean) / std per RGB channel.
# Measured on the first 4000 training images (train() prints the measured values as a check) and
# rounded to 3 decimals; they are constants so that --write-test-set does not need the training set.
NORM_MEAN = [0.498, 0.501, 0.499]
NORM_STD = [0.293, 0.289, 0.293]

TRAIN_SEED, HELDOUT_SEED, SAMPLE_SEED, TORCH_SEED = 1, 2, 3, 4
TRAIN_COUNT, HELDOUT_COUNT = 10000, 2000
EPOCHS, BATCH = 6, 64

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------------------------------- data
def shape_polygon(label, rng):
    """Vertices of a shape of circumradius 1 centred at the origin, or None for the circle."""
    if label == "circle":
        return None
    if label == "square":
        return [(math.cos(a), math.sin(a)) for a in np.arange(4) * math.pi / 2 + math.pi / 4]
    if label == "triangle":
        return [(math.cos(a), math.sin(a)) for a in np.arange(3) * 2 * math.pi / 3 - math.pi / 2]
    if label == "star":
        inner = rng.uniform(0.38, 0.5)
        return [(r * math.cos(a), r * math.sin(a))
                for k in range(10)
                for r, a in [((1.0 if k % 2 == 0 else inner), k * math.pi / 5 - math.pi / 2)]]
    if label == "cross":
        w = rng.uniform(0.25, 0.36)  # half-width of an arm; the arm reaches 1 along its axis
        h = math.sqrt(1 - w * w)
        quarter = [(h, -w), (h, w), (w, w)]
        pts = []
        for q in range(4):
            c, s = math.cos(q * math.pi / 2), math.sin(q * math.pi / 2)
            pts += [(x * c - y * s, x * s + y * c) for x, y in quarter]
        return pts
    raise ValueError(label)


def random_colour(rng, away_from=None, min_distance=110.0):
    """An RGB colour, at least min_distance (Euclidean, 0..255 units) from away_from."""
    while True:
        c = rng.integers(0, 256, size=3).astype(np.float64)
        if away_from is None or np.linalg.norm(c - away_from) >= min_distance:
            return c


def render(label, rng):
    """One uint8 HxWx3 image of `label`."""
    s = SIZE * SUPERSAMPLE
    # Background: a colour with a linear gradient, plus faint distractor lines.
    bg = random_colour(rng)
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64) / (SIZE - 1) - 0.5
    ga = rng.uniform(0, 2 * math.pi)
    gradient = (xx * math.cos(ga) + yy * math.sin(ga))[..., None] * rng.uniform(-40, 40, size=3)
    img = bg + gradient
    fg = random_colour(rng, away_from=bg)

    lines = Image.new("L", (s, s), 0)
    d = ImageDraw.Draw(lines)
    for _ in range(rng.integers(0, 4)):
        p = rng.uniform(0, s, size=4)
        d.line([(p[0], p[1]), (p[2], p[3])], fill=255, width=int(rng.integers(2, 6)))
    line_alpha = np.asarray(lines.resize((SIZE, SIZE), Image.BOX), np.float64)[..., None] / 255
    img = img * (1 - 0.35 * line_alpha) + random_colour(rng)[None, None] * 0.35 * line_alpha

    # The shape: circumradius 9..28 px, fully inside the image, any rotation.
    r = rng.uniform(9, 28)
    cx, cy = rng.uniform(r + 1, SIZE - 1 - r, size=2)
    mask = Image.new("L", (s, s), 0)
    d = ImageDraw.Draw(mask)
    k = SUPERSAMPLE
    poly = shape_polygon(label, rng)
    if poly is None:
        d.ellipse([(cx - r) * k, (cy - r) * k, (cx + r) * k, (cy + r) * k], fill=255)
    else:
        rot = rng.uniform(0, 2 * math.pi)
        c, sn = math.cos(rot), math.sin(rot)
        d.polygon([((cx + r * (x * c - y * sn)) * k, (cy + r * (x * sn + y * c)) * k)
                   for x, y in poly], fill=255)
    alpha = np.asarray(mask.resize((SIZE, SIZE), Image.BOX), np.float64)[..., None] / 255
    img = img * (1 - alpha) + fg[None, None] * alpha

    img += rng.normal(0, rng.uniform(0, 18), size=img.shape)
    return np.clip(np.rint(img), 0, 255).astype(np.uint8)


def make_image(split_seed, index):
    """(uint8 HxWx3 image, label index) for image `index` of a split; classes cycle in order."""
    rng = np.random.default_rng([split_seed, index])
    label = index % len(LABELS)
    return render(LABELS[label], rng), label


def make_split(split_seed, count):
    images = np.empty((count, SIZE, SIZE, 3), np.uint8)
    labels = np.empty(count, np.int64)
    for i in range(count):
        images[i], labels[i] = make_image(split_seed, i)
    return images, labels


def preprocess(images_u8):
    """uint8 NHWC RGB -> float32 NCHW, (x/255 - mean)/std: exactly what the metadata describes."""
    x = images_u8.astype(np.float32) / np.float32(255)
    x = (x - np.asarray(NORM_MEAN, np.float32)) / np.asarray(NORM_STD, np.float32)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def save_png(path, image_u8):
    Image.fromarray(image_u8, "RGB").save(path, optimize=True)


# ---------------------------------------------------------------------------------------- model
def build_model():
    import torch.nn as nn

    def block(cin, cout, stride=1):
        return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU()]

    # count_include_pad=False: with the default, the exporter adds a no-op Pad before AveragePool.
    return nn.Sequential(
        *block(3, 16, stride=2), nn.MaxPool2d(2),       # 64 -> 32 -> 16
        *block(16, 32), nn.MaxPool2d(2),                # 16 -> 8
        *block(32, 64), nn.AvgPool2d(2, count_include_pad=False),  # 8 -> 4
        *block(64, 64),
        nn.AdaptiveAvgPool2d(1),                        # exports as GlobalAveragePool
        nn.Flatten(),                                   # Flatten
        nn.Linear(64, len(LABELS)),                     # Gemm
    )


def accuracy(model, x, y):
    import torch
    model.eval()
    with torch.no_grad():
        pred = torch.cat([model(x[i:i + 500]).argmax(1) for i in range(0, len(x), 500)])
    return (pred == y).float().mean().item(), pred


def export(model, path):
    import onnx
    import torch
    model.eval()
    dummy = torch.zeros(1, 3, SIZE, SIZE)
    # PRESERVE with the model in eval mode skips the exporter's eval peephole, which would fold
    # BatchNormalization into the Conv weights; cnnx does that folding itself and wants to see BN.
    torch.onnx.export(model, dummy, path, opset_version=13,
                      input_names=["image"], output_names=["logits"],
                      dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}},
                      training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=False)
    m = onnx.load(path)
    m.graph.name = "shapes"
    m.doc_string = "cnnx bundled shape classifier (models/shapes/train_shapes.py)"
    meta = {
        "cnnx.labels": "\n".join(LABELS),
        "cnnx.input_size": f"{SIZE},{SIZE}",
        "cnnx.mean": ",".join(repr(v) for v in NORM_MEAN),
        "cnnx.std": ",".join(repr(v) for v in NORM_STD),
        "cnnx.scale": "1/255",
        "cnnx.channel_order": "RGB",
        "cnnx.resize_size": f"{SIZE}",  # shorter side resized to this, then centre-cropped to input_size
    }
    del m.metadata_props[:]
    for k, v in meta.items():
        m.metadata_props.add(key=k, value=v)
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, path)
    return m


def run_onnx_numpy(m, x):
    """Evaluate the exported graph with numpy (float64), reading every attribute from the ONNX file.
    onnxruntime is not available here; this checks that the file, not just torch, computes the logits.
    Supports exactly the ops this script exports and refuses attributes it does not implement."""
    from onnx import helper, numpy_helper
    from numpy.lib.stride_tricks import sliding_window_view
    env = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in m.graph.initializer}
    env[m.graph.input[0].name] = x.astype(np.float64)

    def windows(v, attrs, pad_value):
        kh, kw = attrs["kernel_shape"]
        sh, sw = attrs.get("strides", [1, 1])
        t, l, b, r = attrs.get("pads", [0, 0, 0, 0])
        if attrs.get("dilations", [1, 1]) != [1, 1] or attrs.get("ceil_mode", 0) != 0:
            raise NotImplementedError("dilations/ceil_mode")
        v = np.pad(v, ((0, 0), (0, 0), (t, b), (l, r)), constant_values=pad_value)
        return sliding_window_view(v, (kh, kw), axis=(2, 3))[:, :, ::sh, ::sw]  # N,C,OH,OW,kh,kw

    for n in m.graph.node:
        a = {at.name: helper.get_attribute_value(at) for at in n.attribute}
        i = [env[name] for name in n.input if name]
        if n.op_type == "Conv":
            if a.get("group", 1) != 1:
                raise NotImplementedError("group")
            a.setdefault("kernel_shape", list(i[1].shape[2:]))
            y = np.einsum("nchwij,mcij->nmhw", windows(i[0], a, 0.0), i[1])
            out = y + i[2][None, :, None, None] if len(i) > 2 else y
        elif n.op_type == "BatchNormalization":
            scale, bias, mean, var = (t[None, :, None, None] for t in i[1:5])
            out = (i[0] - mean) / np.sqrt(var + a.get("epsilon", 1e-5)) * scale + bias
        elif n.op_type == "Relu":
            out = np.maximum(i[0], 0)
        elif n.op_type == "MaxPool":
            out = windows(i[0], a, -np.inf).max(axis=(4, 5))
        elif n.op_type == "AveragePool":
            total = windows(i[0], a, 0.0).sum(axis=(4, 5))
            ones = np.ones((1, 1) + i[0].shape[2:])
            count = windows(ones, a, 1.0 if a.get("count_include_pad", 0) else 0.0).sum(axis=(4, 5))
            out = total / count
        elif n.op_type == "GlobalAveragePool":
            out = i[0].mean(axis=(2, 3), keepdims=True)
        elif n.op_type == "Flatten":
            axis = a.get("axis", 1)
            out = i[0].reshape(int(np.prod(i[0].shape[:axis])), -1)
        elif n.op_type == "Gemm":
            A = i[0].T if a.get("transA", 0) else i[0]
            B = i[1].T if a.get("transB", 0) else i[1]
            out = a.get("alpha", 1.0) * A @ B + (a.get("beta", 1.0) * i[2] if len(i) > 2 else 0)
        else:
            raise NotImplementedError(n.op_type)
        env[n.output[0]] = out
    return env[m.graph.output[0].name]


def check_export(model, m, x):
    """The exported graph has the intended ops, carries the trained weights unchanged, and computes
    the same logits as torch when evaluated from the file by run_onnx_numpy."""
    import torch
    from onnx import numpy_helper
    ops = {}
    for n in m.graph.node:
        ops[n.op_type] = ops.get(n.op_type, 0) + 1
    print("exported ops:", ", ".join(f"{k} x{v}" for k, v in ops.items()))
    for required in ["Conv", "BatchNormalization", "Relu", "MaxPool", "AveragePool",
                     "GlobalAveragePool", "Flatten", "Gemm"]:
        if required not in ops:
            sys.exit(f"error: exported model lacks {required}")
    # Initializers match the torch state dict bit for bit (the export did not fold or alter weights).
    inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    state = {k: v.numpy() for k, v in model.state_dict().items() if not k.endswith("num_batches_tracked")}
    for k, v in state.items():
        if k not in inits or not np.array_equal(inits[k], v):
            sys.exit(f"error: initializer {k} missing or differs from the trained weights")
    print(f"initializers: {len(inits)}, all equal to the trained weights")
    inp = m.graph.input[0].type.tensor_type.shape.dim
    print("input shape:", [d.dim_param or d.dim_value for d in inp])
    # float32 torch vs float64 numpy: logits are O(10) and each passes ~600-term dot products
    # through 5 layers, so float32 rounding leaves ~1e-5 relative; 1e-3 absolute is ample and
    # still far below any semantic mistake (wrong pad, stride, pooling kind), which moves logits by O(1).
    model.eval()
    with torch.no_grad():
        want = model(x).numpy()
    got = run_onnx_numpy(m, x.numpy())
    diff = float(np.abs(got - want).max())
    print(f"numpy evaluation of the ONNX file vs torch on {len(x)} images: max |diff| {diff:.2e}")
    if diff > 1e-3 or not np.array_equal(got.argmax(1), want.argmax(1)):
        sys.exit("error: the exported ONNX graph does not compute what the torch model does")


def check_onnx(path, count):
    """--check-onnx: accuracy of a saved model file on the first `count` held-out images."""
    import onnx
    m = onnx.load(path)
    onnx.checker.check_model(m, full_check=True)
    meta = {p.key: p.value for p in m.metadata_props}
    if meta.get("cnnx.labels", "").split("\n") != LABELS:
        sys.exit("error: cnnx.labels in the model differs from this script's LABELS")
    images, labels = make_split(HELDOUT_SEED, count)
    x = preprocess(images)
    pred = np.concatenate([run_onnx_numpy(m, x[i:i + 100]).argmax(1) for i in range(0, count, 100)])
    print(f"{path}: accuracy {np.mean(pred == labels):.4f} on the first {count} held-out images "
          f"(numpy evaluation of the file)")


# ---------------------------------------------------------------------------------------- main
def train():
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(2)
    torch.manual_seed(TORCH_SEED)
    torch.use_deterministic_algorithms(True)
    t0 = time.time()
    train_u8, train_y = make_split(TRAIN_SEED, TRAIN_COUNT)
    held_u8, held_y = make_split(HELDOUT_SEED, HELDOUT_COUNT)
    sub = train_u8[:4000].reshape(-1, 3).astype(np.float64) / 255
    print(f"generated {TRAIN_COUNT} train + {HELDOUT_COUNT} held-out images in {time.time() - t0:.1f}s; "
          f"measured mean {np.round(sub.mean(0), 3).tolist()} std {np.round(sub.std(0), 3).tolist()} "
          f"(using mean {NORM_MEAN} std {NORM_STD})")
    x_train, y_train = torch.from_numpy(preprocess(train_u8)), torch.from_numpy(train_y)
    x_held, y_held = torch.from_numpy(preprocess(held_u8)), torch.from_numpy(held_y)

    model = build_model()
    steps = EPOCHS * (TRAIN_COUNT // BATCH)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.25)
    order_gen = torch.Generator().manual_seed(TORCH_SEED)
    t1 = time.time()
    for epoch in range(EPOCHS):
        model.train()
        perm = torch.randperm(TRAIN_COUNT, generator=order_gen)
        total, seen = 0.0, 0
        for b in range(TRAIN_COUNT // BATCH):
            idx = perm[b * BATCH:(b + 1) * BATCH]
            xb = x_train[idx]
            # Random horizontal flips: every class is mirror-symmetric up to rotation.
            flip = torch.rand(BATCH, generator=order_gen) < 0.5
            xb = torch.where(flip[:, None, None, None], xb.flip(3), xb)
            loss = F.cross_entropy(model(xb), y_train[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * BATCH
            seen += BATCH
        acc, _ = accuracy(model, x_held, y_held)
        print(f"epoch {epoch + 1}/{EPOCHS}: train loss {total / seen:.4f}, held-out accuracy {acc:.4f} "
              f"({time.time() - t1:.0f}s)")
    train_time = time.time() - t1

    acc, pred = accuracy(model, x_held, y_held)
    per_class = [(pred[y_held == c] == c).float().mean().item() for c in range(len(LABELS))]
    print(f"held-out accuracy: {acc:.4f} on {HELDOUT_COUNT} images "
          f"(" + ", ".join(f"{l} {a:.3f}" for l, a in zip(LABELS, per_class)) + ")")
    print(f"training time: {train_time:.1f}s")

    onnx_path = os.path.join(HERE, "shapes.onnx")
    m = export(model, onnx_path)
    check_export(model, m, x_held[:64])
    with open(os.path.join(HERE, "labels.txt"), "w") as f:
        f.write("\n".join(LABELS) + "\n")
    samples = os.path.join(HERE, "samples")
    os.makedirs(samples, exist_ok=True)
    for i in range(2 * len(LABELS)):
        image, label = make_image(SAMPLE_SEED, i)
        save_png(os.path.join(samples, f"{LABELS[label]}_{i // len(LABELS) + 1}.png"), image)
    print(f"wrote {onnx_path} ({os.path.getsize(onnx_path)} bytes), labels.txt, "
          f"{2 * len(LABELS)} samples; total {time.time() - t0:.1f}s")
    if acc < 0.95:
        sys.exit(f"error: held-out accuracy {acc:.4f} < 0.95")


def write_test_set(directory, count):
    os.makedirs(directory, exist_ok=True)
    rows = ["file,label_index,label"]
    for i in range(count):
        image, label = make_image(HELDOUT_SEED, i)
        name = f"test_{i:04d}"
        np.save(os.path.join(directory, name + ".npy"), preprocess(image[None]))
        save_png(os.path.join(directory, name + ".png"), image)
        rows.append(f"{name}.npy,{label},{LABELS[label]}")
    with open(os.path.join(directory, "expected.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    print(f"wrote {count} held-out inputs to {directory}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write-test-set", metavar="DIR", help="write held-out inputs instead of training")
    ap.add_argument("--check-onnx", metavar="MODEL", help="report a saved model's held-out accuracy")
    ap.add_argument("--count", type=int, default=100, help="images for --write-test-set and "
                    "--check-onnx (default 100)")
    args = ap.parse_args()
    if not 1 <= args.count <= 100000:
        ap.error("--count must be in 1..100000")
    if args.write_test_set:
        write_test_set(args.write_test_set, args.count)
    elif args.check_onnx:
        check_onnx(args.check_onnx, args.count)
    else:
        train()


if __name__ == "__main__":
    main()
