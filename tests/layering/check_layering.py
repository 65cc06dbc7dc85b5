#!/usr/bin/env python3
"""The folders read top-down: a file includes only from its own folder and the folders below it, and only
the oneDNN runtime (dnnl/) and *_dnnl files see oneDNN's headers; only the ONNX import sees protobuf's; only
classify/image_input.cc sees stb's (the image decoder).
Prints every offending include (file:line) and exits 1 when there is one."""
import pathlib
import re
import sys

LAYERS = ["engine", "dnnl", "ops", "passes", "runtime", "classify", "lab", "tools", "python"]  # bottom to top
ONEDNN = re.compile(r'#include [<"](oneapi/dnnl/|dnnl/dnnl_runtime\.h|ops/common/activation_dnnl\.h)')
PROTOBUF = re.compile(r'#include [<"](google/protobuf/|onnx/)')
STB = re.compile(r'#include [<"]stb/')
INCLUDE = re.compile(r'#include "([a-z_]+)/')


def main(root: pathlib.Path) -> int:
    problems = []
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*")):
            if path.suffix not in (".h", ".cc"):
                continue
            rel = path.relative_to(root).as_posix()
            sees_onednn = layer == "dnnl" or path.stem.endswith("_dnnl")
            for number, line in enumerate(path.read_text().splitlines(), 1):
                where = f"{rel}:{number}: {line.strip()}"
                m = INCLUDE.match(line)
                if m and m.group(1) in LAYERS and LAYERS.index(m.group(1)) > LAYERS.index(layer):
                    problems.append(f"{where}  ({layer}/ may not include from {m.group(1)}/, a higher layer)")
                if ONEDNN.match(line) and not sees_onednn:
                    problems.append(f"{where}  (oneDNN headers only in dnnl/ and *_dnnl files)")
                if PROTOBUF.match(line) and rel != "runtime/onnx_import.cc":
                    problems.append(f"{where}  (protobuf and ONNX headers only in runtime/onnx_import.cc)")
                if STB.match(line) and rel != "classify/image_input.cc":
                    problems.append(f"{where}  (stb, the image decoder, only in classify/image_input.cc)")
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} offending includes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")))
