"""python3 -m cnnx classify MODEL DIR_OR_FILES... --out FILE.jsonl [--scheduler tcp://HOST:PORT] [--workers N]
                           [--batch N] [--top K]
python3 -m cnnx quantize MODEL --calibrate DIR_OR_IMAGES... --out OUT.onnx [--per-channel] [--method minmax]
                         [--reduce-range] [--exclude NODE...] [--threads N] [--json]

quantize writes a QDQ model calibrated on the images and prints its accuracy report (cnnx.quantize).

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
    q = sub.add_parser("quantize", help="a QDQ int8 model calibrated on images, and its accuracy report")
    q.add_argument("model", help="float32 ONNX classifier (opset 13 or later)")
    q.add_argument("--calibrate", required=True, nargs="+", metavar="DIR_OR_IMAGE", help="calibration images")
    q.add_argument("--out", required=True, help="the QDQ model to write")
    q.add_argument("--per-channel", action="store_true", help="weights scaled per output channel")
    q.add_argument("--method", default="minmax", choices=["minmax"], help="activation ranges (default minmax)")
    q.add_argument("--reduce-range", action="store_true",
                   help="7-bit weights (|w| <= 63): exact single-pass int8 on CPUs without VNNI")
    q.add_argument("--exclude", nargs="*", default=[], metavar="NODE", help="Conv nodes to leave in float32")
    q.add_argument("--threads", type=int, default=0, help="threads per run (default: all)")
    q.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)
    if args.command == "quantize":
        return args
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


def quantize(args):
    report = cnnx.quantize(args.model, args.calibrate, args.out, per_channel=args.per_channel,
                           method=args.method, reduce_range=args.reduce_range, exclude=args.exclude,
                           threads=args.threads)
    if args.json:
        print(json.dumps(report))
        return
    print(f"wrote {args.out}: {len(report['layers'])} Convs in int8; {report['images_calibration']} calibration "
          f"images, {report['images_held_back']} held back")
    print(f"top-1 agreement with float32: {report['top1_agreement']:.3f}; top-5 overlap {report['top5_overlap']:.3f}")
    print("lowest per-layer SQNR (dB):")
    for r in report["layers"][:10]:
        print(f"  {r['sqnr_db']:7.2f}  {r['node']}")


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "quantize":
        try:
            quantize(args)
        except (cnnx.Error, OSError) as e:
            print(f"cnnx: error: {e}", file=sys.stderr)
            return 1
        return 0
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
