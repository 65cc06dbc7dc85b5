#!/usr/bin/env python3
"""The folders read top-down: a file includes only from its own folder and the folders below it
(engine, dnnl, ops, passes, api, runtime, then the front ends classify, lab, tools, python).

The API is sealed: api/ holds the public headers (cnnx.h, cnnx_c.h, installed as <cnnx/...>), the C API's
implementation and the tools facade (tools_facade.h, for cnnx's own front ends, implemented in runtime/).
  - api/ includes only api/ and the engine value types that are part of the contract, installed with it
    (Tensor, DType, Shape, Error, Backend, limits: CONTRACT below); the facade also re-exports the two headers
    in FACADE_EXPORTS (the pooling lab's geometry and the attributes it is read from; api/tools_facade.h says
    why).
  - Front ends (classify/, lab/, tools/, python/) include only api/, plus their own folder and the front ends
    below them (tools/ uses classify/ and lab/): never engine/, dnnl/, ops/, passes/ or runtime/ directly.
  - runtime/ implements the API and the facade, so it may include api/; nothing below runtime/ may.
No thread_local state in engine/, dnnl/, ops/ or passes/: what a kernel uses while it compiles or runs comes
in its contexts (engine/kernel.h: CompileContext, RunContext).
Besides: only the oneDNN runtime (dnnl/) and *_dnnl files see oneDNN's headers; only the ONNX import sees
protobuf's; only classify/image_input.cc sees stb's (the image decoder).

Prints every offending include (file:line) and exits 1 when there is one. `--self-test` runs the check on
fixture trees, one clean and one per kind of breach, and exits 1 unless it passes the clean one and fails
each breach as expected."""
import pathlib
import re
import sys
import tempfile

LAYERS = ["engine", "dnnl", "ops", "passes", "api", "runtime", "classify", "lab", "tools", "python"]  # bottom to top
FRONT_ENDS = ["classify", "lab", "tools", "python"]
CONTRACT = {"engine/backend.h", "engine/dtype.h", "engine/error.h", "engine/limits.h", "engine/shape.h",
            "engine/tensor.h", "engine/precision.h"}
FACADE = "api/tools_facade.h"
FACADE_EXPORTS = {"engine/attributes.h", "ops/pool/pool_geometry.h"}
ONEDNN = re.compile(r'#include [<"](oneapi/dnnl/|dnnl/dnnl_runtime\.h|ops/common/activation_dnnl\.h)')
PROTOBUF = re.compile(r'#include [<"](google/protobuf/|onnx/)')
STB = re.compile(r'#include [<"]stb/')
INCLUDE = re.compile(r'#include "(([a-z_]+)/[^"]*)"')
THREAD_LOCAL = re.compile(r'\s*(static\s+)?thread_local\b')
NO_THREAD_LOCAL = {"engine", "dnnl", "ops", "passes"}


def check_include(layer: str, rel: str, target: str, folder: str):
    """Why `rel` (in `layer`) may not include `target` (in `folder`), or None."""
    if folder not in LAYERS or folder == layer:
        return None
    if LAYERS.index(folder) > LAYERS.index(layer):
        return f"{layer}/ may not include from {folder}/, a higher layer"
    if layer in FRONT_ENDS and folder not in FRONT_ENDS and folder != "api":
        return f"front ends include only the API and the tools facade (api/), not {folder}/"
    if layer == "api" and target not in CONTRACT and not (rel == FACADE and target in FACADE_EXPORTS):
        return "api/ includes only api/ and the engine value types of the contract" + (
            " (and, in the facade, its re-exports)" if rel == FACADE else "")
    return None


def check(root: pathlib.Path) -> list:
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
                why = m and check_include(layer, rel, m.group(1), m.group(2))
                if why:
                    problems.append(f"{where}  ({why})")
                if ONEDNN.match(line) and not sees_onednn:
                    problems.append(f"{where}  (oneDNN headers only in dnnl/ and *_dnnl files)")
                if PROTOBUF.match(line) and rel != "runtime/onnx_import.cc":
                    problems.append(f"{where}  (protobuf and ONNX headers only in runtime/onnx_import.cc)")
                if THREAD_LOCAL.match(line) and layer in NO_THREAD_LOCAL:
                    problems.append(f"{where}  (no thread_local state below runtime/: kernels get theirs in their "
                                    "contexts, engine/kernel.h)")
                if STB.match(line) and rel != "classify/image_input.cc":
                    problems.append(f"{where}  (stb, the image decoder, only in classify/image_input.cc)")
    return problems


def main(root: pathlib.Path) -> int:
    problems = check(root)
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} offending lines")
    return 1 if problems else 0


# A tree that keeps every rule, shaped like cnnx's: file -> its includes.
CLEAN_TREE = {
    "engine/tensor.h": [],
    "engine/graph.h": ['"engine/tensor.h"'],
    "engine/attributes.h": ['"engine/tensor.h"'],
    "dnnl/dnnl_runtime.h": ["<oneapi/dnnl/dnnl.hpp>"],
    "ops/pool/pool_geometry.h": ['"engine/attributes.h"'],
    "ops/pool/pool_dnnl.cc": ['"dnnl/dnnl_runtime.h"', '"ops/pool/pool_geometry.h"'],
    "passes/pass.h": ['"engine/graph.h"'],
    "api/cnnx.h": ['"engine/tensor.h"'],
    "api/cnnx_c.cc": ['"api/cnnx.h"'],
    "api/tools_facade.h": ['"api/cnnx.h"', '"engine/attributes.h"', '"ops/pool/pool_geometry.h"'],
    "runtime/plan.h": ['"api/cnnx.h"', '"engine/graph.h"', '"passes/pass.h"'],
    "runtime/tools_facade.cc": ['"api/tools_facade.h"', '"runtime/plan.h"'],
    "runtime/onnx_import.cc": ["<onnx/onnx_pb.h>"],
    "classify/image_input.cc": ['"api/cnnx.h"', "<stb/stb_image.h>"],
    "classify/classify.h": ['"api/cnnx.h"', '"classify/image_input.h"'],
    "classify/image_input.h": ['"api/cnnx.h"'],
    "lab/gap.cc": ['"api/tools_facade.h"'],
    "tools/commands.h": ['"api/cnnx.h"', '"api/tools_facade.h"', '"classify/classify.h"', '"lab/gap.h"'],
    "python/module.cc": ['"api/tools_facade.h"', '"classify/classify.h"'],
}

# One breach each: the file added to the clean tree, its include, and a word the complaint must hold.
BREACHES = [
    ("tools/inspect.cc", '"runtime/plan.h"', "front ends include only"),
    ("tools/bench.cc", '"dnnl/prepared_weights.h"', "front ends include only"),
    ("python/module2.cc", '"engine/graph.h"', "front ends include only"),
    ("classify/probability.cc", '"ops/softmax/softmax.h"', "front ends include only"),
    ("lab/explain.cc", '"passes/pass.h"', "front ends include only"),
    ("lab/tensor_user.h", '"engine/tensor.h"', "front ends include only"),  # the contract comes through api/
    ("classify/upward.cc", '"tools/commands.h"', "a higher layer"),
    ("api/leak.h", '"engine/graph.h"', "api/ includes only"),
    ("api/above.h", '"runtime/plan.h"', "a higher layer"),
    ("api/geometry.h", '"ops/pool/pool_geometry.h"', "api/ includes only"),  # re-exports are the facade's alone
    ("engine/api_user.h", '"api/cnnx.h"', "a higher layer"),
    ("passes/api_user.cc", '"api/tools_facade.h"', "a higher layer"),
    ("ops/pool/pool.cc", "<oneapi/dnnl/dnnl.hpp>", "oneDNN"),
    ("tools/proto.cc", "<onnx/onnx_pb.h>", "protobuf"),
    ("dnnl/stream.cc", "=thread_local dnnl::stream stream;", "thread_local"),
    ("engine/packing.cc", "=static thread_local int depth = 0;", "thread_local"),
]


def write_tree(root: pathlib.Path, files: dict):
    for rel, includes in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        # "=LINE" is a line as it is; anything else an include.
        path.write_text("// fixture\n" + "".join(f"{i[1:] if i.startswith('=') else '#include ' + i}\n" for i in includes))


def self_test() -> int:
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        clean = pathlib.Path(tmp) / "clean"
        write_tree(clean, CLEAN_TREE)
        got = check(clean)
        if got:
            failures.append(f"the clean tree gave {got}")
        for n, (rel, include, word) in enumerate(BREACHES):
            root = pathlib.Path(tmp) / f"breach{n}"
            write_tree(root, {**CLEAN_TREE, rel: [include]})
            got = check(root)
            want = f"{rel}:2: " + (include[1:] if include.startswith("=") else f"#include {include}")
            if len(got) != 1 or not got[0].startswith(want) or word not in got[0]:
                failures.append(f"{rel} including {include}: expected one complaint '{want} ...({word}...)', got {got}")
    for f in failures:
        print("FAIL", f)
    print(f"layering self-test: {len(BREACHES) + 1 - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")))
