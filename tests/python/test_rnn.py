"""Recurrent layers exported by PyTorch (torch 1.13, at test time, seeded random weights) against PyTorch's own
outputs: multi-layer bidirectional nn.LSTM, nn.GRU and nn.RNN (tanh and relu), batch_first both ways, and a small
CRNN (Conv+ReLU+MaxPool, a reshape to a sequence, a 2-layer bidirectional LSTM, a Linear head), as text
recognisers are built. Each model runs on both backends: the reference kernels, and oneDNN's RNN primitives
(which `cnnx inspect` must name for every recurrent node of these exports) with its convolutions.

Tolerances, as max|cnnx - torch| / max|torch| over each output, derived from the arithmetic:
  against PyTorch in float64 (the same module .double(), the exact function up to 2^-53): cnnx's reference
  kernels sum in double and round each stored value once to float32 (u = 2^-24 relative); a value read by the
  next step or layer carries that rounding on with gain at most ~1 (sigmoid's slope <= 1/4, tanh's <= 1, the
  weights' default init U(-1/sqrt(H), 1/sqrt(H)) keeps |R h| about |h|), so after L layers of T steps the
  error is at most ~L * T * u of the largest value: 3 * 12 * 6e-8 = 2.1e-6 for these models; 1e-5 bounds it
  with margin. On oneDNN the gate sums and convolutions are float32 sums (~sqrt(K) u of their terms' magnitude,
  K <= 4 * (32 + 16) here: ~1e-6 of a value, carried the same way), still inside 1e-5.
  against PyTorch in float32: PyTorch's own float32 error (sums of K = I + H terms per gate per step, ~sqrt(K) u
  of the terms' magnitudes, carried the same way) plus the above; 1e-4, compare_outputs.py's bound for the
  same reasons. A wrong gate order, a dropped bias or a step taken in the wrong direction moves the outputs by
  1e-2 or more."""
import os
import re
import subprocess

import numpy as np
import pytest
import torch

import cnnx

F64_TOLERANCE = 1e-5
F32_TOLERANCE = 1e-4


def export(module, example, path, opset, output_names):
    module.eval()
    torch.onnx.export(module, example, str(path), opset_version=opset, input_names=["x"], output_names=output_names)
    return str(path)


def relative_error(got, want):
    return float(np.max(np.abs(got.astype(np.float64) - want)) / max(np.max(np.abs(want)), 1e-30))


def recurrent_kernels(model_path):
    """The kernel `cnnx inspect` names for each LSTM/GRU/RNN node of the model (default backend)."""
    tool = os.environ.get("CNNX_TOOL")
    if not tool:
        pytest.fail("CNNX_TOOL is not set: run the Python tests through ctest (tests/python/python.cmake)")
    text = subprocess.run([tool, "inspect", model_path], check=True, capture_output=True, text=True).stdout
    return re.findall(r"^\s+\S+\s+(?:LSTM|GRU|RNN)\s.*kernel (\w+)", text, re.MULTILINE)


def check_against_torch(module, x, path, opset, output_names):
    model_path = export(module, torch.from_numpy(x), path, opset, output_names)
    # These exports are oneDNN's cases (constant weights, default activations, no sequence_lens or clip).
    kernels = recurrent_kernels(model_path)
    assert kernels and all(k == "dnnl" for k in kernels), kernels
    with torch.no_grad():
        want32 = module(torch.from_numpy(x))
        want64 = module.double()(torch.from_numpy(x).double())
        module.float()
    want32 = want32 if isinstance(want32, tuple) else (want32,)
    want64 = want64 if isinstance(want64, tuple) else (want64,)
    flat32, flat64 = [], []
    for a, b in zip(want32, want64):  # (output, (h, c)) -> output, h, c
        for u, v in (zip(a, b) if isinstance(a, tuple) else [(a, b)]):
            flat32.append(u.numpy())
            flat64.append(v.numpy())
    for backend in ("ref", "dnnl"):
        got = cnnx.Model(model_path, backend=backend).run({"x": x})
        for name, w32, w64 in zip(output_names, flat32, flat64):
            assert got[name].shape == w32.shape, (backend, name)
            e64, e32 = relative_error(got[name], w64), relative_error(got[name], w32)
            assert e64 <= F64_TOLERANCE, (backend, name, e64)
            assert e32 <= F32_TOLERANCE, (backend, name, e32)


class Recurrent(torch.nn.Module):
    """nn.LSTM / nn.GRU / nn.RNN returning the sequence and the final states."""

    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn

    def forward(self, x):
        return self.rnn(x)


LAYERS = [
    ("lstm", lambda bf: torch.nn.LSTM(6, 5, num_layers=2, bidirectional=True, batch_first=bf)),
    ("gru", lambda bf: torch.nn.GRU(6, 5, num_layers=2, bidirectional=True, batch_first=bf)),
    ("rnn_tanh", lambda bf: torch.nn.RNN(6, 5, num_layers=3, bidirectional=True, batch_first=bf)),
    ("rnn_relu", lambda bf: torch.nn.RNN(6, 5, num_layers=2, nonlinearity="relu", bidirectional=True, batch_first=bf)),
    ("lstm_forward", lambda bf: torch.nn.LSTM(6, 7, num_layers=1, batch_first=bf)),
]


@pytest.mark.parametrize("opset", [13, 14])
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("name,make", LAYERS, ids=[n for n, _ in LAYERS])
def test_recurrent_layers_match_pytorch(tmp_path, name, make, batch_first, opset):
    torch.manual_seed(3)
    module = Recurrent(make(batch_first))
    T, N = 7, 3
    x = np.random.default_rng(4).standard_normal((N, T, 6) if batch_first else (T, N, 6)).astype(np.float32)
    outputs = ["y", "h", "c"] if name.startswith("lstm") else ["y", "h"]
    check_against_torch(module, x, tmp_path / f"{name}.onnx", opset, outputs)


class CRNN(torch.nn.Module):
    """A text recogniser in miniature: a CNN over a [N, 1, 16, W] line image, each column a step of a 2-layer
    bidirectional LSTM, a Linear head giving per-column class scores [W/4, N, classes]."""

    def __init__(self, classes=11, hidden=16):
        super().__init__()
        conv = lambda i, o: [torch.nn.Conv2d(i, o, 3, padding=1), torch.nn.ReLU()]
        self.cnn = torch.nn.Sequential(*conv(1, 8), torch.nn.MaxPool2d(2), *conv(8, 16), torch.nn.MaxPool2d(2),
                                       *conv(16, 16), torch.nn.MaxPool2d((4, 1)))
        self.lstm = torch.nn.LSTM(16, hidden, num_layers=2, bidirectional=True)
        self.head = torch.nn.Linear(2 * hidden, classes)

    def forward(self, x):
        f = self.cnn(x)                          # [N, 16, 1, W/4]
        seq = f.squeeze(2).permute(2, 0, 1)      # [W/4, N, 16]
        out, _ = self.lstm(seq)
        return self.head(out)                    # [W/4, N, classes]


@pytest.mark.parametrize("opset", [13, 14])
def test_crnn_matches_pytorch(tmp_path, opset):
    torch.manual_seed(5)
    x = np.random.default_rng(6).standard_normal((2, 1, 16, 48)).astype(np.float32)
    check_against_torch(CRNN(), x, tmp_path / "crnn.onnx", opset, ["scores"])
