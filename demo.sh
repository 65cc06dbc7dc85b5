#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds cnnx (the program and the Python module), and classifies a
# bundled image with the bundled model. Extra arguments go to `cnnx run` (e.g. ./demo.sh --json).
set -euo pipefail
cd "$(dirname "$0")"
bash third_party/install_deps.sh
build=${CNNX_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$build.configure.log" \
  || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j2 --target cnnx_tool cnnx_python   # the program and the Python module
"$build/cnnx" run models/shapes/shapes.onnx models/shapes/samples/star_1.png "$@"
