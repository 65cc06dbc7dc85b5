#!/usr/bin/python3
"""Exports a small PyTorch module whose ONNX graph computes shapes from its input, with symbolic batch, height
and width, and PyTorch's outputs at two input sizes (the files of export_torchvision.py --dynamic-hw).

    export_shape_chains.py OUT_DIR      writes OUT_DIR/shape_chains/{model.onnx, input[_2].npy, expected[_2].npy,
                                        expected_f64[_2].npy}

torch.onnx.export writes each of these as a chain from Shape(x): torch.arange(w) (Shape -> Gather -> Range),
x.new_zeros(...) (-> ConstantOfShape), expand (-> Expand), flatten(2) and view(n, -1) (-> Concat -> Reshape).
A plan made for one input size and reused for another, or a shape folded at load, gives wrong sizes or values.
"""
import os
import sys

import numpy as np
import torch


class ShapeChains(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        n, _, h, w = x.shape
        y = self.conv(x)
        cols = torch.arange(w, dtype=torch.float32)                # Range over W
        rows = torch.arange(h, dtype=torch.float32).unsqueeze(1)   # Range over H
        y = y * (cols + 1.0) / w + rows / h
        y = y + x.new_zeros((n, 4, h, 1))                          # ConstantOfShape
        z = y.flatten(2)                                           # Reshape [N, 4, H*W]
        weight = torch.ones(1, 4, 1).expand(n, 4, h * w)           # Expand
        z = z * weight.cumsum(dim=2) / (h * w)
        return torch.relu(z).view(n, -1)                           # Reshape [N, 4*H*W]


def main():
    out = os.path.join(sys.argv[1], "shape_chains")
    os.makedirs(out, exist_ok=True)
    model = ShapeChains().eval()
    rng = np.random.RandomState(0)
    inputs = {"": rng.uniform(-1, 1, (1, 3, 24, 20)).astype(np.float32),
              "_2": rng.uniform(-1, 1, (2, 3, 16, 28)).astype(np.float32)}
    with torch.no_grad():
        for suffix, x in inputs.items():
            np.save(os.path.join(out, f"input{suffix}.npy"), x)
            np.save(os.path.join(out, f"expected{suffix}.npy"), model(torch.from_numpy(x)).numpy())
            f64 = model.double()(torch.from_numpy(x).double()).numpy()
            model.float()
            np.save(os.path.join(out, f"expected_f64{suffix}.npy"), f64)
        torch.onnx.export(model, torch.from_numpy(inputs[""]), os.path.join(out, "model.onnx"), opset_version=13,
                          input_names=["input"], output_names=["output"],
                          dynamic_axes={"input": {0: "batch", 2: "height", 3: "width"},
                                        "output": {0: "batch", 1: "features"}})
    print(f"shape_chains: exported to {out}")


if __name__ == "__main__":
    main()
