#!/usr/bin/env bash
# Installs cnnx from BUILD_DIR into a temporary prefix, builds examples/embed against it with CMake
# (find_package) and the C example with pkg-config alone, and runs them on MODEL.
# Usage: embed_test.sh BUILD_DIR SOURCE_DIR MODEL
set -euo pipefail
build=$1 src=$2 model=$3
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
echo "embed example: 1 passed, 0 failed"
