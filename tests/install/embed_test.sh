#!/usr/bin/env bash
# Installs cnnx from BUILD_DIR into a temporary prefix, builds examples/embed against it with CMake
# (find_package) and the C example with pkg-config alone, and runs them on MODEL; then imports the installed
# Python package from PYTHON_DIR (relative to the prefix) with PYTHON and runs MODEL there.
# Usage: embed_test.sh BUILD_DIR SOURCE_DIR MODEL PYTHON PYTHON_DIR
set -euo pipefail
build=$1 src=$2 model=$3 python=$4 python_dir=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src/examples/embed" -B "$work/embed" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log" \
  || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/embed" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/embed/classify_cpp" "$model"
"$work/embed/classify_c" "$model"
# pkg-config: the shared library alone is enough for a C program.
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
cc "$src/examples/embed/classify.c" -o "$work/classify_pc" $(pkg-config --cflags --libs cnnx) \
   -Wl,-rpath,"$work/prefix/lib"
"$work/classify_pc" "$model"
# The installed program runs too.
"$work/prefix/bin/cnnx" inspect "$model" > /dev/null
# The installed Python package, away from the build tree.
(cd "$work" && PYTHONPATH="$work/prefix/$python_dir" "$python" -c "
import sys, numpy, cnnx
assert cnnx.__file__.startswith(sys.argv[1]), cnnx.__file__
model = cnnx.Model(sys.argv[2])
print('python:', model(numpy.zeros([1 if isinstance(d, str) else d for d in model.inputs[0].shape], numpy.float32)).shape)
" "$work/prefix" "$model")
echo "embed example: 1 passed, 0 failed"
