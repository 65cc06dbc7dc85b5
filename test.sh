#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds cnnx with its tests, and runs every test with ctest.
# Extra arguments go to ctest (e.g. ./test.sh -R node_tests). CNNX_SLOW_TESTS=ON adds the slow model tests;
# CNNX_SANITIZE=ON builds with AddressSanitizer + UndefinedBehaviorSanitizer (use another CNNX_BUILD_DIR);
# CNNX_BUILD_TARGETS="a b" builds only those targets (what the tests chosen with -R need).
set -euo pipefail
cd "$(dirname "$0")"
bash third_party/install_deps.sh
build=${CNNX_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCNNX_BUILD_TESTS=ON \
      -DCNNX_SLOW_TESTS="${CNNX_SLOW_TESTS:-OFF}" -DCNNX_SANITIZE="${CNNX_SANITIZE:-OFF}" > "$build.configure.log" || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j2 ${CNNX_BUILD_TARGETS:+--target $CNNX_BUILD_TARGETS}
ctest --test-dir "$build" --output-on-failure -j2 "$@"
