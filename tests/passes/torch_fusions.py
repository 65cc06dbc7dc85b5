#!/usr/bin/env python3
"""The fuse-layer-norm, fuse-gelu and fuse-matmul-bias passes and the pooling passes (fold-pad, pool-first,
global-average-pool) on real PyTorch exports, and near misses built with onnx.helper that must be left alone.

Each model is exported (or built) into WORKDIR; `cnnx inspect` must report what the pass matched (or "no match"),
and the near match it left alone and why ("; left alone: ..."), and `cnnx run` must give PyTorch's output
(numpy's for the near misses) within the fused op's declared tolerance, on both backends, with every pass on and
with the pass under test disabled.
Usage: torch_fusions.py CNNX [WORKDIR]"""
import io
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cnnx_outputs import mismatch, run_saved  # noqa: E402

# |got - want| <= abs + rel * |want|, as each op declares it (engine/op.h Tolerance):
LAYER_NORM = (2e-5, 2e-5)       # kLayerNormTolerance, ops/norm/layer_norm.h
GELU = (1e-6, 4e-6)             # kTranscendental, the Gelu rows of ops/common/activation.cc
MATMUL = (1e-5, 4e-5)           # kMatrixProductTolerance, ops/gemm/matrix_product.h
POOL = (1e-5, 1e-5)             # kPoolAverageTolerance, ops/pool/pool.h
CONV_POOL = (1e-5, 4e-5)        # a 1x1 Conv is a dot product: kMatrixProductTolerance, then the pool's


class Block(torch.nn.Module):
    """A transformer MLP: LayerNorm -> Linear -> GELU -> Linear, with a residual."""

    def __init__(self, d, approximate="none"):
        super().__init__()
        self.norm = torch.nn.LayerNorm(d)
        self.fc1 = torch.nn.Linear(d, 2 * d)
        self.act = torch.nn.GELU(approximate=approximate)
        self.fc2 = torch.nn.Linear(2 * d, d)

    def forward(self, x):
        return x + self.fc2(self.act(self.fc1(self.norm(x))))


class Attention(torch.nn.Module):
    """ViT's self-attention: LayerNorm, nn.MultiheadAttention on [batch, tokens, d], residual."""

    def __init__(self, d, heads):
        super().__init__()
        self.norm = torch.nn.LayerNorm(d)
        self.attn = torch.nn.MultiheadAttention(d, heads, batch_first=True)

    def forward(self, x):
        y = self.norm(x)
        return x + self.attn(y, y, y, need_weights=False)[0]


def convnext_block(d):
    """torchvision's ConvNeXt block: depthwise Conv, permute to channels-last, LayerNorm, Linear, GELU, Linear,
    permute back, layer scale, residual."""
    from torchvision.models.convnext import CNBlock
    return CNBlock(d, layer_scale=0.5, stochastic_depth_prob=0.0)


def randomize(m):
    """LayerNorm's default weights are ones and zeros: draw them so a dropped Scale or B shows."""
    with torch.no_grad():
        for p in m.parameters():
            p.uniform_(-1, 1) if p.dim() == 1 else None
    return m


def conv_pool(bias, pool):
    """A 1x1 Conv 8 -> 6 then an average pool (DenseNet's transition when the pool is 2x2 stride 2)."""
    return torch.nn.Sequential(torch.nn.Conv2d(8, 6, 1, bias=bias), pool)


# name: (module, input shape, opset, {pass: expected report prefix}, tolerance)
EXPORTS = {
    "layer_norm_opset13": (torch.nn.LayerNorm(64), (2, 10, 64), 13,
                           {"fuse-layer-norm": "1 LayerNormalization from 9 nodes"}, LAYER_NORM),
    "layer_norm_2axes_opset13": (torch.nn.LayerNorm([10, 64]), (2, 10, 64), 13,
                                 {"fuse-layer-norm": "1 LayerNormalization from 9 nodes"}, LAYER_NORM),
    "layer_norm_no_affine_opset13": (torch.nn.LayerNorm(64, elementwise_affine=False), (2, 10, 64), 13,
                                     {"fuse-layer-norm": "1 LayerNormalization from 7 nodes"}, LAYER_NORM),
    "layer_norm_opset17": (torch.nn.LayerNorm(64), (2, 10, 64), 17, {"fuse-layer-norm": "no match"}, LAYER_NORM),
    "gelu_opset13": (torch.nn.GELU(), (2, 10, 64), 13, {"fuse-gelu": "1 Gelu from 5 nodes"}, GELU),
    "gelu_tanh_opset13": (torch.nn.GELU(approximate="tanh"), (2, 10, 64), 13,
                          {"fuse-gelu": "1 GeluTanh from 9 nodes"}, GELU),
    "linear_3d_opset13": (torch.nn.Linear(64, 32), (2, 10, 64), 13,
                          {"fuse-matmul-bias": "1 FusedMatMul from 2 nodes"}, MATMUL),
    "mlp_block_opset13": (Block(64), (2, 10, 64), 13,
                          {"fuse-layer-norm": "1 LayerNormalization from 9 nodes", "fuse-gelu": "1 Gelu from 5 nodes",
                           "fuse-matmul-bias": "2 FusedMatMul from 6 nodes (Add x3, Gelu x1, MatMul x2)"}, LAYER_NORM),
    "mlp_block_tanh_opset13": (Block(64, "tanh"), (2, 10, 64), 13,
                               {"fuse-gelu": "1 GeluTanh from 9 nodes",
                                "fuse-matmul-bias": "2 FusedMatMul from 6 nodes (Add x3, GeluTanh x1, MatMul x2)"},
                               LAYER_NORM),
    "convnext_block_opset13": (convnext_block(32), (1, 32, 14, 14), 13,
                               {"fuse-layer-norm": "1 LayerNormalization from 9 nodes", "fuse-gelu": "1 Gelu from 5 nodes",
                                "fuse-matmul-bias": "2 FusedMatMul from 5 nodes (Add x2, Gelu x1, MatMul x2)"},
                               LAYER_NORM),
    "convnext_block_opset17": (convnext_block(32), (1, 32, 14, 14), 17,
                               {"fuse-layer-norm": "no match", "fuse-gelu": "1 Gelu from 5 nodes",
                                "fuse-matmul-bias": "2 FusedMatMul from 5 nodes (Add x2, Gelu x1, MatMul x2)"},
                               LAYER_NORM),
    "attention_opset13": (Attention(64, 4), (1, 10, 64), 13,
                          {"fuse-layer-norm": "1 LayerNormalization from 9 nodes",
                           "fuse-matmul-bias": "1 FusedMatMul from 2 nodes (Add x1, MatMul x1)"}, LAYER_NORM),
    "attention_opset17": (Attention(64, 4), (1, 10, 64), 17,
                          {"fuse-layer-norm": "no match",
                           "fuse-matmul-bias": "1 FusedMatMul from 2 nodes (Add x1, MatMul x1)"}, LAYER_NORM),
    # torch writes avg_pool2d's counted padding as a Pad of zeros before the AveragePool.
    "avg_pool_3x3_pad1_opset13": (torch.nn.AvgPool2d(3, stride=1, padding=1), (1, 8, 10, 10), 13,
                                  {"fold-pad": "removed 1 nodes (Pad x1)"}, POOL),
    "avg_pool_ceil_pad1_opset13": (torch.nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True), (1, 8, 10, 10), 13,
                                   {"fold-pad": "no match; left alone: Pad '/Pad': AveragePool '/AveragePool' has ceil_mode"}, POOL),
    "avg_pool_whole_plane_opset13": (torch.nn.AvgPool2d(7), (1, 8, 7, 7), 13,
                                     {"global-average-pool": "1 GlobalAveragePool from 1 nodes (AveragePool x1)"}, POOL),
    "avg_pool_whole_plane_pad1_opset13": (torch.nn.AvgPool2d(7, padding=1), (1, 8, 7, 7), 13,
                                          {"fold-pad": "removed 1 nodes (Pad x1)",
                                           "global-average-pool": "no match; left alone: AveragePool '/AveragePool': "
                                                                  "its one window takes 6 of the input's 7 cells on axis 2"},
                                          POOL),
    "conv1x1_avg_pool_2x2_opset13": (conv_pool(True, torch.nn.AvgPool2d(2, 2)), (1, 8, 10, 10), 13,
                                     {"pool-first": "rewrote 2 nodes (AveragePool x1, Conv x1)"}, CONV_POOL),
    "conv1x1_bias_avg_pool_pad1_opset13": (conv_pool(True, torch.nn.AvgPool2d(3, 2, padding=1)), (1, 8, 10, 10), 13,
                                           {"pool-first": "no match; left alone: Conv '/0/Conv': has a bias, and "
                                                          "AveragePool '/1/AveragePool' may count pads in its divisor"},
                                           CONV_POOL),
}

# Models whose plan (dnnl) must move no data around its Transposes: each is a view (its producer writes the
# layout that makes it one, or its readers read its permuted layout), and no reorder step is left for them:
# name -> the number of reorder steps the plan may have (the graph input and output, where layouts change).
NO_COPIES = {"convnext_block_opset13": 2, "convnext_block_opset17": 2, "attention_opset13": 0,
             "attention_opset17": 0}


def export(module, shape, opset, path):
    torch.manual_seed(0)
    module = randomize(module).eval()
    x = torch.randn(*shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        buf = io.BytesIO()
        torch.onnx.export(module, x, buf, opset_version=opset, input_names=["x"], output_names=["y"])
    onnx.save(onnx.load_from_string(buf.getvalue()), path)
    with torch.no_grad():
        return x.numpy(), module(x).double().numpy()


def const(name, value):
    a = np.asarray(value, np.float32)
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(a, name))


def near_miss_layer_norm(kind, x):
    """torch's opset-13 LayerNorm chain with one thing changed; the graph and numpy's float64 result."""
    axes, eps, exponent, extra = [-1], np.float32(1e-5), 2.0, False
    if kind == "eps_per_column":
        eps = np.linspace(1e-5, 1e-3, x.shape[-1]).astype(np.float32)
    elif kind == "axes_not_trailing":
        axes = [1]
    elif kind == "exponent_3":
        exponent = 3.0
    elif kind == "variance_read_twice":
        extra = True
    n = helper.make_node
    nodes = [n("ReduceMean", ["x"], ["mean"], axes=axes), n("Sub", ["x", "mean"], ["d"]), const("p", exponent),
             n("Pow", ["d", "p"], ["sq"]), n("ReduceMean", ["sq"], ["var"], axes=axes), const("eps", eps),
             n("Add", ["var", "eps"], ["ve"]), n("Sqrt", ["ve"], ["sd"]), n("Div", ["d", "sd"], ["y"])]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(x.shape))]
    if extra:
        outputs.append(helper.make_tensor_value_info("var", TensorProto.FLOAT, None))
    graph = helper.make_graph(nodes, kind, [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
                              outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    x64 = x.astype(np.float64)
    d = x64 - x64.mean(axis=tuple(axes), keepdims=True)
    want = d / np.sqrt((d ** exponent).mean(axis=tuple(axes), keepdims=True) + eps.astype(np.float64))
    return model, want


def inspect_reports(cnnx, path, extra=()):
    r = subprocess.run([cnnx, "inspect", path, *extra], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr
    lines = r.stdout.split("graph passes applied:\n")[-1].split("plan (")[0].splitlines()
    reports = {}
    for line in lines:  # "  fold-pad  no match", then "    left alone: ..." lines for that pass
        if line.startswith("    left alone: "):
            reports[last] += "; left alone: " + line[len("    left alone: "):]
        elif line.strip():
            last = line.split()[0]
            reports[last] = " ".join(line.split()[1:])
    return reports, r.stdout


def check(cnnx, work, name, path, x, want, expected, tol):
    """Runs the checks on one model; returns the failure messages."""
    failures = []
    reports, text = inspect_reports(cnnx, path)
    if reports is None:
        return [f"{name}: cnnx inspect failed: {text.strip()}"]
    for pass_name, prefix in expected.items():
        got = reports.get(pass_name, "(no line)")
        if not got.startswith(prefix):
            failures.append(f"{name}: inspect reports {pass_name}: {got!r}, want {prefix!r}...")
    for pass_name, got in reports.items():  # every pass: as many near matches left alone as expected, or none
        left_alone = expected.get(pass_name, "").count("; left alone: ")
        if got.count("; left alone: ") != left_alone:
            failures.append(f"{name}: inspect reports {pass_name}: {got!r}, want {left_alone} near matches left alone")
    x_path = os.path.join(work, name + "_x.npy")
    np.save(x_path, x)
    for backend in ("dnnl", "ref"):
        for disabled in ([], list(expected)):
            out = os.path.join(work, f"{name}_{backend}_{'off' if disabled else 'on'}")
            extra = [arg for name in disabled for arg in ("--disable-pass", name)]
            why = mismatch(run_saved(cnnx, path, x_path, out, backend, extra), want, *tol)
            if why:
                failures.append(f"{name} --backend {backend}" + (f" passes off {disabled}" if disabled else "") +
                                f": {why}")
    if name in NO_COPIES:
        plan = text.split("plan (")[-1].splitlines()
        copies = [l.strip() for l in plan if " Transpose " in l and "(view: no copy)" not in l]
        reorders = [l.strip() for l in plan if "(reorder)" in l]
        if copies or len(reorders) > NO_COPIES[name]:
            failures.append(f"{name}: the plan copies around its Transposes: {copies + reorders}")
    print(f"{'ok  ' if not failures else 'FAIL'} {name}: " +
          "; ".join(f"{p}: {reports.get(p, '(no line)')}" for p in expected))
    return failures


def main():
    cnnx = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    failures = []
    for name, (module, shape, opset, expected, tol) in EXPORTS.items():
        path = os.path.join(work, name + ".onnx")
        x, want = export(module, shape, opset, path)
        failures += check(cnnx, work, name, path, x, want, expected, tol)
    rng = np.random.default_rng(0)
    for kind in ("eps_per_column", "axes_not_trailing", "exponent_3", "variance_read_twice"):
        # Exponent 3: skewed data, so the mean of d^3 is well away from 0 (its square root is taken).
        x = (rng.exponential(size=(2, 10, 64)) if kind == "exponent_3" else rng.standard_normal((2, 10, 64)))
        x = x.astype(np.float32)
        model, want = near_miss_layer_norm(kind, x)
        path = os.path.join(work, f"near_miss_{kind}.onnx")
        onnx.save(model, path)
        # Within LayerNormalization's tolerance of numpy's float64: the unfused chain is as exact.
        failures += check(cnnx, work, f"near miss {kind}", path, x, want, {"fuse-layer-norm": "no match"}, LAYER_NORM)
    for f in failures:
        print("  " + f)
    print(f"{len(EXPORTS) + 4} models, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
