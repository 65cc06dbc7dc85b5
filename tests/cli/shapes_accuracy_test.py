#!/usr/bin/env python3
"""The bundled classifier, run by cnnx (not PyTorch) on freshly generated held-out images: accuracy >= 95%.
Images go through cnnx's own PNG decoding and preprocessing (the model's metadata), in batches.
Usage: shapes_accuracy_test.py CNNX SOURCE_DIR [COUNT] [BACKEND]"""
import csv
import json
import os
import subprocess
import sys
import tempfile

THRESHOLD = 0.95


def main():
    cnnx, src = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    backend = sys.argv[4] if len(sys.argv) > 4 else "dnnl"
    model = os.path.join(src, "models/shapes/shapes.onnx")
    tmp = tempfile.mkdtemp()
    subprocess.run(["/usr/bin/python3", os.path.join(src, "models/shapes/train_shapes.py"), "--write-test-set", tmp,
                    "--count", str(count)], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(tmp, "expected.csv")) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == count, f"expected {count} test images, the generator wrote {len(rows)}"
    correct, wrong = 0, []
    batch = 50
    for start in range(0, len(rows), batch):
        chunk = rows[start:start + batch]
        pngs = [os.path.join(tmp, os.path.splitext(r["file"])[0] + ".png") for r in chunk]
        r = subprocess.run([cnnx, "run", model, *pngs, "--json", "--top", "1", "--backend", backend],
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            print(f"FAIL: cnnx exited {r.returncode}: {r.stderr.strip()}")
            print("0 passed, 1 failed")
            sys.exit(1)
        tops = json.loads(r.stdout)["outputs"][0]["top"]
        for row, top, png in zip(chunk, tops, pngs):
            if top[0]["label"] == row["label"]:
                correct += 1
            else:
                wrong.append(f"{os.path.basename(png)}: want {row['label']}, got {top[0]['label']} "
                             f"(p={top[0]['probability']:.3f})")
    accuracy = correct / len(rows)
    for w in wrong[:10]:
        print("  misclassified", w)
    ok = accuracy >= THRESHOLD
    print(f"shapes classifier via cnnx ({backend}): {correct}/{len(rows)} = {accuracy:.4f} "
          f"(threshold {THRESHOLD})")
    print(f"{1 if ok else 0} passed, {0 if ok else 1} failed")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
