#!/usr/bin/env python3
"""Writes the ONNX backend node tests (model.onnx + test_data_set_*/input_*.pb, output_*.pb) into OUTDIR,
using python3-onnx's own generator (what `backend-test-tools generate-data` runs).

Usage: generate_node_tests.py OUTDIR

Debian bookworm pairs onnx 1.12 with numpy 1.24, which removed the np.float/np.int/... aliases the 1.12
generators still use; they are restored (as the builtins they always were) before onnx.backend.test loads."""
import argparse
import os
import sys

import numpy as np

for alias, builtin in (("float", float), ("int", int), ("bool", bool), ("object", object), ("complex", complex),
                       ("str", str)):
    if alias not in np.__dict__:
        setattr(np, alias, builtin)

from onnx.backend.test import cmd_tools  # noqa: E402  (after the aliases)


def main():
    out = sys.argv[1]
    stamp = os.path.join(out, ".complete")
    if os.path.exists(stamp):
        return
    cmd_tools.generate_data(argparse.Namespace(output=out, op_type=None))
    open(stamp, "w").close()


if __name__ == "__main__":
    main()
