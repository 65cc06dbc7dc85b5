"""python3 -m cnnx classify MODEL DIR_OR_FILES... --out FILE.jsonl [--scheduler tcp://HOST:PORT] [--workers N]
                           [--batch N] [--top K]

Classifies every image under the folders (and the files) given on a Dask cluster (cnnx.dask) and writes one
JSON line per file to FILE, as `cnnx run MODEL DIR --jsonl FILE` does. --scheduler uses a running cluster
(`dask scheduler`, `dask worker tcp://HOST:8786` on each machine); without it a local cluster of --workers
single-threaded worker processes (default: one per core) is made for the run. Dask's progress bar is shown.
Errors print `cnnx: error: ...` and exit 1; usage errors exit 2.
"""
import argparse
import json
import os
import sys

import distributed

import cnnx
import cnnx.dask


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python3 -m cnnx", description="cnnx on a Dask cluster")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("classify", help="classify image folders on a Dask cluster, one JSON line per file")
    c.add_argument("model", help="ONNX classifier (reachable under this path by every worker)")
    c.add_argument("paths", nargs="+", metavar="DIR_OR_FILE", help="image folders (searched recursively) and files")
    c.add_argument("--out", required=True, help="the JSON lines file to write")
    c.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. tcp://10.0.0.1:8786")
    c.add_argument("--workers", type=int, help="worker processes of the local cluster (default: one per core)")
    c.add_argument("--batch", type=int, default=16, help="images per task (default 16)")
    c.add_argument("--top", type=int, default=5, help="classes per image (default 5)")
    args = p.parse_args(argv)
    if (args.workers is not None and args.workers < 1) or args.batch < 1 or args.top < 1:
        p.error("--workers, --batch and --top must be at least 1")
    if args.scheduler and args.workers is not None:
        p.error("--workers is for the local cluster; a cluster given by --scheduler has its own workers")
    return args


def classify(args, out):
    if args.scheduler:
        cluster, client = None, distributed.Client(args.scheduler)
    else:
        cluster = distributed.LocalCluster(n_workers=args.workers or os.cpu_count(), threads_per_worker=1,
                                           processes=True, dashboard_address=":0")
        client = distributed.Client(cluster)
    try:
        lines = cnnx.dask.classify_json(args.paths, os.path.abspath(args.model), client, args.batch, args.top,
                                        progress=True)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    for line in lines:
        out.write(line + "\n")
    errors = sum("error" in json.loads(line) for line in lines)
    print(f"\n{len(lines)} files, {errors} not classified (see their \"error\"), written to {args.out}",
          file=sys.stderr)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        out = open(args.out, "w")  # before the work: a path that cannot be written fails at once
    except OSError as e:
        print(f"cnnx: error: cannot write '{args.out}': {e.strerror}", file=sys.stderr)
        return 1
    with out:
        try:
            classify(args, out)
        except cnnx.Error as e:
            print(f"cnnx: error: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
