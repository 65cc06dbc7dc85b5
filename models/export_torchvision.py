#!/usr/bin/python3
"""Export torchvision classifiers to ONNX, with a seeded input and PyTorch's output for it.

    /usr/bin/python3 models/export_torchvision.py NAME... --out DIR [--seed S] [--batch N]
        [--dynamic-batch] [--dynamic-hw B,S] [--opset 13] [--weights FILE.pth] [--no-calibrate] [--skip-existing]

NAME is a torchvision classifier (any of torchvision.models' classification builders), one of the smaller
stand-ins in MINI_MODELS (a family's own torchvision class with fewer and narrower layers, for the fast tests),
or "default" for every model the tests use (DEFAULT_MODELS). For each NAME this writes

    DIR/NAME/model.onnx         the network in eval mode, constant-folded, input "input", output "logits"
    DIR/NAME/input.npy          float32 [N,3,S,S]: a seeded random image, normalized like ImageNet
    DIR/NAME/expected.npy       float32 [N,1000]: PyTorch's output for input.npy (float32, as PyTorch runs it)
    DIR/NAME/expected_f64.npy   float64 [N,1000]: the same network run in float64, a near-exact reference that
                                shows how far PyTorch's own float32 result is from the true value
    DIR/NAME/stamp.json         the export settings; --skip-existing reuses a model whose stamp matches

--dynamic-hw B,S exports with symbolic batch, height and width, and also writes input_2.npy, expected_2.npy and
expected_f64_2.npy for a second input of batch B and size SxS, to run one loaded model at two sizes.

Weights are random (weights=None; no downloads are possible here), seeded with torch.manual_seed(seed), unless
--weights gives a local state dict (only with a single NAME). The model's metadata_props record the
preprocessing (ImageNet defaults) and that the labels are unknown.

Random-init networks and their outputs. torchvision initializes BatchNorm with weight 1, bias 0 and running
stats mean 0 / var 1, so in eval mode every BatchNorm would be x / sqrt(1 + eps): nearly the identity. Nothing
then keeps activations at a steady scale, and they vanish or explode with depth (measured at seed 0:
efficientnet_b0 logits ~1e-13, mobilenet_v2 ~1e-9, inception_v3 ~3e12; googlenet's and shufflenet's features
vanish so completely that their logits are just the classifier's bias, and the test would check nothing but
one bias add). Two consequences for parity: a trivial BatchNorm hides any BatchNorm (or BatchNorm-folding) bug
that mishandles mean/var, and a vanished signal hides every bug upstream of the classifier.
So, unless --weights gives real weights, calibrate_batchnorm() sets every BatchNorm's running mean/var to the
statistics of its actual input over a few seeded random batches (the same thing training does, without
changing any weight). Every BatchNorm then normalizes for real with non-trivial mean/var and activations stay
O(1) throughout. --no-calibrate keeps the 0/1 init stats.
check_output() then refuses an output that would make a parity test meaningless: non-finite values, too few
distinct logits (a final ReLU zeroing most of them), a tie for top-1, logits that are mostly the classifier's
bias (the vanished case above), or logits that do not depend on the input (MIN_FEATURE_PART, MIN_SENSITIVITY).
torch.onnx.export folds each Conv+BatchNorm pair into the Conv, so the calibrated stats mostly show up as
non-trivial conv weights and biases; densenet121's pre-activation BatchNorms stay BatchNormalization nodes.
A refused model is reported and not exported; it is never silently rescaled or re-seeded.

Parameters that torchvision initializes to an identity or to zero hide bugs the same way: every norm layer's
affine weight 1 and bias 0 (a LayerNorm/BatchNorm that drops or transposes its scale and shift still matches),
ConvNeXt's layer_scale 1e-6 (each residual block then adds a millionth of its output: the whole block is
below the tolerance), ViT's zero classifier head (every logit exactly 0). randomize_identity_init() gives them
seeded random values first (norm weights U(0.5, 1.5), biases U(-0.2, 0.2), layer scales U(0.5, 1.5), a zero
classifier nn.Linear's default init); check_output() would refuse the zero head otherwise.
"""
import argparse
import functools
import importlib.metadata
import json
import os
import sys
import tempfile

import numpy as np

# torch, torchvision and onnx take seconds to import; load_frameworks() imports them only when a model is
# actually exported, so a test-time fixture whose models are up to date finishes at once.
torch = torchvision = onnx = None


def load_frameworks():
    global torch, torchvision, onnx
    import onnx
    import torch
    import torchvision
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))

# Smaller configurations of a family's own torchvision class, standing in for the family in the fast tests
# (the named model runs with CNNX_SLOW_TESTS): the same blocks and ops, fewer and narrower layers.
MINI_MODELS = {
    "convnext_mini": "ConvNeXt, stages 32-64-128-256 with 1-1-2-1 blocks",
    "densenet_mini": "DenseNet, growth 16, blocks 2-2-2-2, 32 initial features",
    "efficientnet_v2_mini": "EfficientNet with V2 blocks: Fused-MBConv 24-24-48, MBConv 64-128, head 640",
    "inception_mini": "Inception3 (inception_v3) with every convolution a quarter as wide",
    "maxvit_mini": "MaxVit, stem 16, blocks 32-64 of one layer each, head dim 16",
    "resnext_mini": "ResNet with Bottleneck blocks 1-1-1-1, 32 groups of width 4",
    "swin_mini": "SwinTransformer, embed dim 32, depths 2-2, heads 2-4, window 7",
    "vgg_mini": "VGG with batch norm, convs 16-32-64-64-64 and a 512-512-1000 classifier",
    "vit_mini": "VisionTransformer, patch 32, 2 layers, 4 heads, hidden 64, MLP 128",
    "wide_resnet_mini": "ResNet with Bottleneck blocks 1-1-1-1 of width 128 (wide_resnet's doubled width)",
}

# Every classification family of torchvision 0.14 has a model here, except swin_v2_*: torch 1.13's exporter
# refuses them at every opset ("Exporting the operator 'aten::zero' ... is not supported", from the in-place
# qkv_bias[...].zero_() of ShiftedWindowAttentionV2).
DEFAULT_MODELS = [
    "resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_small", "squeezenet1_1", "densenet121",
    "googlenet", "efficientnet_b0", "shufflenet_v2_x1_0", "mnasnet1_0", "regnet_y_400mf", "inception_v3",
    "alexnet", "vgg11", "convnext_tiny", "efficientnet_v2_s", "maxvit_t", "resnext50_32x4d", "swin_t",
    "vit_b_16", "wide_resnet50_2", "regnet_x_400mf",
] + list(MINI_MODELS)

IMAGENET_MEAN = [0.485, 0.456, 0.406]
IMAGENET_STD = [0.229, 0.224, 0.225]


def input_size(name):
    return 299 if name in ("inception_v3", "inception_mini") else 224


def resize_size(name):
    # torchvision's ImageNet eval transforms: resize the shorter side, then center-crop to input_size.
    return 342 if name in ("inception_v3", "inception_mini") else 256


def build_mini(name):
    m = torchvision.models
    if name == "convnext_mini":
        config = m.convnext.CNBlockConfig
        return m.ConvNeXt([config(32, 64, 1), config(64, 128, 1), config(128, 256, 2), config(256, None, 1)])
    if name == "densenet_mini":
        return m.DenseNet(growth_rate=16, block_config=(2, 2, 2, 2), num_init_features=32)
    if name == "efficientnet_v2_mini":
        e = m.efficientnet
        setting = [e.FusedMBConvConfig(1, 3, 1, 24, 24, 1), e.FusedMBConvConfig(4, 3, 2, 24, 48, 1),
                   e.MBConvConfig(4, 3, 2, 48, 64, 1), e.MBConvConfig(6, 3, 2, 64, 128, 1)]
        return m.EfficientNet(setting, dropout=0.2, last_channel=640,
                              norm_layer=functools.partial(torch.nn.BatchNorm2d, eps=1e-3))
    if name == "inception_mini":
        i = m.inception

        def narrow_conv(in_channels, out_channels, **kwargs):  # the image's 3 channels stay 3
            return i.BasicConv2d(in_channels if in_channels == 3 else in_channels // 4, out_channels // 4, **kwargs)
        blocks = [narrow_conv] + [functools.partial(block, conv_block=narrow_conv) for block in
                                  (i.InceptionA, i.InceptionB, i.InceptionC, i.InceptionD, i.InceptionE, i.InceptionAux)]
        model = m.Inception3(aux_logits=False, init_weights=True, inception_blocks=blocks)
        model.fc = torch.nn.Linear(2048 // 4, 1000)
        return model
    if name == "maxvit_mini":
        return m.MaxVit(input_size=(224, 224), stem_channels=16, partition_size=7, block_channels=[32, 64],
                        block_layers=[1, 1], head_dim=16, stochastic_depth_prob=0.0)
    if name == "resnext_mini":
        return m.ResNet(m.resnet.Bottleneck, [1, 1, 1, 1], groups=32, width_per_group=4)
    if name == "swin_mini":
        return m.SwinTransformer(patch_size=[4, 4], embed_dim=32, depths=[2, 2], num_heads=[2, 4],
                                 window_size=[7, 7], stochastic_depth_prob=0.0)
    if name == "vgg_mini":
        model = m.VGG(m.vgg.make_layers([16, "M", 32, "M", 64, "M", 64, "M", 64, "M"], batch_norm=True))
        # VGG's classifier is fixed at 512*7*7 -> 4096 -> 4096 -> 1000 (120M weights): the same layers, narrower.
        model.classifier = torch.nn.Sequential(
            torch.nn.Linear(64 * 7 * 7, 512), torch.nn.ReLU(True), torch.nn.Dropout(),
            torch.nn.Linear(512, 512), torch.nn.ReLU(True), torch.nn.Dropout(), torch.nn.Linear(512, 1000))
        return model
    if name == "vit_mini":
        return m.VisionTransformer(image_size=224, patch_size=32, num_layers=2, num_heads=4, hidden_dim=64,
                                   mlp_dim=128)
    if name == "wide_resnet_mini":
        return m.ResNet(m.resnet.Bottleneck, [1, 1, 1, 1], width_per_group=128)
    raise ValueError(name)


def build(name):
    """The torchvision network NAME with random weights, in eval mode."""
    if name in MINI_MODELS:
        return build_mini(name).eval()
    kwargs = {"weights": None}
    if name in ("googlenet", "inception_v3"):
        # No auxiliary classifiers (they only run in training); init_weights=True keeps torchvision's
        # truncated-normal init explicit (it warns when left unset with weights=None).
        kwargs.update(aux_logits=False, init_weights=True)
    return getattr(torchvision.models, name)(**kwargs).eval()


def classifier(model):
    """The last Linear/Conv2d: torchvision classifiers end with one."""
    return [m for m in model.modules() if isinstance(m, (torch.nn.Linear, torch.nn.Conv2d))][-1]


def randomize_identity_init(model):
    """Seeded random values for parameters initialized to an identity or to zero (see the module docstring)."""
    norms = (torch.nn.modules.batchnorm._BatchNorm, torch.nn.LayerNorm, torch.nn.GroupNorm)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, norms) and m.weight is not None:
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
            if isinstance(m, torchvision.models.convnext.CNBlock):
                m.layer_scale.uniform_(0.5, 1.5)
        head = classifier(model)
        if not torch.any(head.weight):
            head.reset_parameters()


def make_input(seed, batch, size):
    """A seeded 'image': uniform pixels in [0, 1], normalized with the ImageNet mean/std like a real one."""
    rng = np.random.RandomState(seed)
    pixels = rng.uniform(0.0, 1.0, size=(batch, 3, size, size))
    mean = np.array(IMAGENET_MEAN).reshape(1, 3, 1, 1)
    std = np.array(IMAGENET_STD).reshape(1, 3, 1, 1)
    return ((pixels - mean) / std).astype(np.float32)


def calibrate_batchnorm(model, seed, size, batches=2, batch=4):
    """Sets BatchNorm running stats to the statistics of their inputs on seeded random images (see above)."""
    norms = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not norms:
        return
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # cumulative average over all calibration batches
    model.train()
    with torch.no_grad():
        for i in range(batches):
            model(torch.from_numpy(make_input(seed + 1000 + i, batch, size)))
    model.eval()


# What a meaningful output needs (see the module docstring), as fractions of max|logits|:
# - at least half of it must come from the features, not from the classifier's bias (uncalibrated googlenet:
#   4e-11, shufflenet 5e-4; every calibrated model here: > 0.7);
# - it must change by at least 1e-3 between two different inputs. Global average pooling over a random-noise
#   image averages away most input differences, so ~0.03 is normal (squeezenet, resnet18 uncalibrated);
#   below 1e-3 the network maps every input to the same logits.
MIN_FEATURE_PART = 0.5
MIN_SENSITIVITY = 1e-3


def classifier_bias(model):
    """The bias of the classifier, or 0."""
    last = classifier(model)
    return 0.0 if last.bias is None else last.bias.detach().numpy()


def check_output(name, logits, other_logits, bias):
    """Refuses outputs that would make a parity test meaningless (see the module docstring)."""
    if not np.all(np.isfinite(logits)):
        raise RuntimeError(f"{name}: PyTorch's output has non-finite values")
    peak = max(float(np.max(np.abs(logits))), 1e-30)
    feature_part = np.max(np.abs(logits - bias)) / peak
    if feature_part < MIN_FEATURE_PART:
        raise RuntimeError(f"{name}: the logits are mostly the classifier's bias (features contribute "
                           f"{feature_part:.2e} of max|logits|; minimum {MIN_FEATURE_PART})")
    sensitivity = np.max(np.abs(logits - other_logits)) / peak
    if sensitivity < MIN_SENSITIVITY:
        raise RuntimeError(f"{name}: the logits barely depend on the input (they change by {sensitivity:.2e} of "
                           f"max|logits| for another input; minimum {MIN_SENSITIVITY})")
    for row in logits.reshape(logits.shape[0], -1):
        peak = float(np.max(np.abs(row)))
        if peak == 0.0:
            raise RuntimeError(f"{name}: PyTorch's output is all zeros")
        distinct = len(np.unique(row))
        if distinct < row.size // 2:
            raise RuntimeError(f"{name}: only {distinct} distinct values among {row.size} logits")
        top = np.sort(row)[::-1]
        if top[0] - top[1] < 1e-6 * peak:
            raise RuntimeError(f"{name}: top-1 and top-2 logits tie ({top[0]} vs {top[1]})")
    return sensitivity


def metadata(name, args):
    size = input_size(name)
    source = f"torchvision {torchvision.__version__} {name}, "
    source += f"weights from {os.path.basename(args.weights)}" if args.weights else f"random weights, seed {args.seed}"
    # The keys `cnnx run` reads for image inputs (see models/shapes/README.md); NCHW float32, RGB.
    props = {
        "source": source,
        "cnnx.resize_size": str(resize_size(name)),  # shorter side, bilinear, then centre crop
        "cnnx.input_size": f"{size},{size}",        # H,W
        "cnnx.scale": "1/255",                       # 8-bit pixel -> [0, 1], then (x - mean) / std
        "cnnx.mean": ",".join(str(m) for m in IMAGENET_MEAN),
        "cnnx.std": ",".join(str(s) for s in IMAGENET_STD),
        "cnnx.channel_order": "RGB",
    }
    if args.labels:
        with open(args.labels) as f:
            props["cnnx.labels"] = "\n".join(line.rstrip("\r\n") for line in f if line.strip())
    return props


def stamp(name, args):
    version = importlib.metadata.version
    return {"name": name, "seed": args.seed, "batch": args.batch, "dynamic_batch": args.dynamic_batch,
            "dynamic_hw": args.dynamic_hw, "opset": args.opset, "randomize_identity_init": not args.weights,
            "calibrate": not args.weights and not args.no_calibrate,
            "weights": os.path.abspath(args.weights) if args.weights else None,
            "torch": version("torch"), "torchvision": version("torchvision")}


FILES = ("model.onnx", "input.npy", "expected.npy", "expected_f64.npy", "stamp.json")
SECOND_INPUT_FILES = ("input_2.npy", "expected_2.npy", "expected_f64_2.npy")


def up_to_date(folder, name, args):
    files = FILES + (SECOND_INPUT_FILES if args.dynamic_hw else ())
    try:
        with open(os.path.join(folder, "stamp.json")) as f:
            return json.load(f) == stamp(name, args) and all(os.path.exists(os.path.join(folder, n)) for n in files)
    except (OSError, ValueError):
        return False


def export(name, args):
    folder = os.path.join(args.out, name)
    if args.skip_existing and up_to_date(folder, name, args):
        print(f"{name}: up to date in {folder}")
        return
    if torch is None:
        load_frameworks()
    os.makedirs(folder, exist_ok=True)
    torch.manual_seed(args.seed)
    model = build(name)
    if args.weights:
        state = torch.load(args.weights, map_location="cpu")
        # Pretrained googlenet/inception_v3 checkpoints carry the auxiliary classifiers built out above.
        state = {k: v for k, v in state.items() if not k.startswith(("aux1.", "aux2.", "AuxLogits."))}
        model.load_state_dict(state)
    else:
        randomize_identity_init(model)
        if not args.no_calibrate:
            calibrate_batchnorm(model, args.seed, input_size(name))

    def reference(seed, batch, size):
        """A seeded input, PyTorch's float32 and float64 outputs for it, and the input sensitivity."""
        x = make_input(seed, batch, size)
        with torch.no_grad():
            expected = model(torch.from_numpy(x)).numpy()
            other = model(torch.from_numpy(make_input(seed + 1, batch, size))).numpy()
            sensitivity = check_output(name, expected, other, classifier_bias(model))
            expected_f64 = model.double()(torch.from_numpy(x).double()).numpy()
            model.float()
        return x, expected, expected_f64, sensitivity

    x, expected, expected_f64, sensitivity = reference(args.seed, args.batch, input_size(name))
    if args.dynamic_hw:
        batch2, size2 = args.dynamic_hw
        x2, expected2, expected2_f64, _ = reference(args.seed + 2, batch2, size2)

    # Write to temporaries and rename, so an interrupted export never looks complete; the stamp goes last.
    def publish(file, write):
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        os.close(fd)
        write(tmp)
        os.replace(tmp, os.path.join(folder, file))

    def write_onnx(path):
        dynamic = None
        if args.dynamic_batch or args.dynamic_hw:
            dynamic = {"input": {0: "batch"}, "logits": {0: "batch"}}
        if args.dynamic_hw:
            dynamic["input"].update({2: "height", 3: "width"})
        torch.onnx.export(model, torch.from_numpy(x), path, opset_version=args.opset, do_constant_folding=True,
                          input_names=["input"], output_names=["logits"], dynamic_axes=dynamic)
        proto = onnx.load(path)
        onnx.helper.set_model_props(proto, metadata(name, args))
        onnx.checker.check_model(proto)
        onnx.save(proto, path)

    def write_npy(array):
        def write(path):
            with open(path, "wb") as f:  # a file object: np.save would append ".npy" to a bare path
                np.save(f, array, allow_pickle=False)
        return write

    def write_stamp(path):
        with open(path, "w") as f:
            f.write(json.dumps(stamp(name, args), indent=1) + "\n")

    publish("model.onnx", write_onnx)
    publish("input.npy", write_npy(x))
    publish("expected.npy", write_npy(expected))
    publish("expected_f64.npy", write_npy(expected_f64))
    if args.dynamic_hw:
        for file, array in zip(SECOND_INPUT_FILES, (x2, expected2, expected2_f64)):
            publish(file, write_npy(array))
    publish("stamp.json", write_stamp)
    err = np.max(np.abs(expected - expected_f64)) / np.max(np.abs(expected_f64))
    print(f"{name}: exported to {folder} (max|logits| {np.max(np.abs(expected)):.4g}, "
          f"input sensitivity {sensitivity:.2f}, PyTorch float32 vs float64: {err:.2e} of max)")


def batch_and_size(text):
    try:
        batch, size = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected B,S (two integers), got '{text}'")
    if batch < 1 or size < 1:
        raise argparse.ArgumentTypeError(f"batch and size must be at least 1, got '{text}'")
    return [batch, size]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("names", nargs="+", metavar="NAME", help="torchvision classifier names, or 'default'")
    p.add_argument("--out", required=True, help="output folder (one subfolder per model)")
    p.add_argument("--seed", type=int, default=0, help="seed for the weights and the input (default 0)")
    p.add_argument("--batch", type=int, default=1, help="batch size of the saved input (default 1)")
    p.add_argument("--dynamic-batch", action="store_true", help="export with a symbolic batch dimension")
    p.add_argument("--dynamic-hw", type=batch_and_size, metavar="B,S",
                   help="export with symbolic batch, height and width; also write input_2.npy and expected_2.npy "
                        "for batch B at size SxS")
    p.add_argument("--opset", type=int, default=13, help="ONNX opset (default 13)")
    p.add_argument("--weights", help="a local state dict (.pth) to load instead of random weights")
    p.add_argument("--labels", help="class names, one per line, stored as cnnx.labels (with --weights)")
    p.add_argument("--no-calibrate", action="store_true", help="keep BatchNorm's init running stats (0/1)")
    p.add_argument("--skip-existing", action="store_true", help="keep models whose stamp.json matches")
    args = p.parse_args()
    names = [n for name in args.names for n in (DEFAULT_MODELS if name == "default" else [name])]
    unknown = [n for n in names if n not in DEFAULT_MODELS]
    if unknown:
        load_frameworks()
        known = torchvision.models.list_models(module=torchvision.models)
        unknown = [n for n in unknown if n not in known]
    if unknown:
        p.error(f"unknown model {' '.join(unknown)} (known: {' '.join(DEFAULT_MODELS)} and torchvision's "
                f"classifiers)")
    if args.batch < 1:
        p.error("--batch must be at least 1")
    if args.weights and len(names) != 1:
        p.error("--weights applies to a single model")
    failed = []
    for name in names:
        try:
            export(name, args)
        except RuntimeError as e:
            print(f"export_torchvision: {e}", file=sys.stderr)
            failed.append(name)
    if failed:
        sys.exit(f"export_torchvision: failed: {' '.join(failed)}")


if __name__ == "__main__":
    main()
