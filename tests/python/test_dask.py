"""cnnx.dask on local clusters of worker processes: the records equal the cnnx program's folder mode, in the
order of the files; a worker killed in the middle of a job has its batches run again elsewhere and every
file still appears exactly once; `python3 -m cnnx classify` writes the program's JSON lines, on a cluster it
makes and on one started with `dask scheduler` / `dask worker`."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import distributed
import numpy as np
import pytest
from PIL import Image

import cnnx
import cnnx.dask


def cli_lines(cnnx_tool, model, paths, batch, out):
    subprocess.run([cnnx_tool, "run", model, *map(str, paths), "--batch", str(batch), "--jsonl", str(out)],
                   check=True, capture_output=True)
    return pathlib.Path(out).read_text().splitlines()


@pytest.fixture(scope="module")
def folder(tmp_path_factory, shapes_samples):
    root = tmp_path_factory.mktemp("dask_images")
    for i, sample in enumerate(shapes_samples * 2):
        (root / f"{i:02d}.png").write_bytes(open(sample, "rb").read())
    (root / "notes.txt").write_text("not an image")
    return root


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory):
    """Many large images (links to four 1600x1600 JPEGs), so that each batch takes a while to decode."""
    root = tmp_path_factory.mktemp("dask_big")
    rng = np.random.default_rng(0)
    originals = []
    for i in range(4):
        path = root / f"original_{i}.jpg"
        Image.fromarray(rng.integers(0, 255, (1600, 1600, 3), np.uint8)).save(path, quality=95)
        originals.append(path)
    links = root / "links"
    links.mkdir()
    for i in range(96):
        (links / f"{i:03d}.jpg").symlink_to(originals[i % 4])
    return links


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as c:
        yield c


def test_records_equal_the_cli(client, shapes_model, folder, cnnx_tool, tmp_path):
    paths = [folder / "03.png", folder]  # a file, then a folder: the records follow this order
    expected = cli_lines(cnnx_tool, shapes_model, paths, 3, tmp_path / "cli.jsonl")
    assert cnnx.dask.classify_json(paths, shapes_model, client, batch=3) == expected
    records = cnnx.dask.classify(paths, shapes_model, client=client, batch=3)
    assert records == [json.loads(line) for line in expected]
    assert records[0]["file"] == str(folder / "03.png") and "error" in records[-1]
    pids = client.run(os.getpid)
    loaded = client.run(lambda: list(cnnx.dask._models))
    assert len(set(pids.values())) == 2 and all(paths == [shapes_model] for paths in loaded.values())


def test_without_a_client(shapes_model, folder, cnnx_tool, tmp_path):
    """No client and no default one: a local cluster of worker processes is made for the call."""
    script = "import json, sys, cnnx.dask; print(json.dumps(cnnx.dask.classify(sys.argv[2:], sys.argv[1], batch=4)))"
    r = subprocess.run([sys.executable, "-c", script, shapes_model, str(folder)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    expected = cli_lines(cnnx_tool, shapes_model, [folder], 4, tmp_path / "cli.jsonl")
    assert json.loads(r.stdout) == [json.loads(line) for line in expected]


def test_a_model_with_a_fixed_batch(client, shapes_model, folder, cnnx_tool, tmp_path):
    """Tasks of 3 files on a model whose input fixes a batch of 2: each task runs in batches of 2."""
    import onnx
    model = onnx.load(shapes_model)
    for value in (model.graph.input[0], model.graph.output[0]):
        value.type.tensor_type.shape.dim[0].dim_value = 2
    fixed = str(tmp_path / "fixed.onnx")
    onnx.save(model, fixed)
    expected = cli_lines(cnnx_tool, fixed, [folder], 2, tmp_path / "cli.jsonl")
    assert cnnx.dask.classify_json([folder], fixed, client, batch=3) == expected


def test_a_killed_worker_loses_no_file(client, shapes_model, big_folder, cnnx_tool, tmp_path):
    files = cnnx.collect_files([str(big_folder)])
    expected = cli_lines(cnnx_tool, shapes_model, [big_folder], 2, tmp_path / "cli.jsonl")
    pids = client.run(os.getpid)
    result = {}
    job = threading.Thread(target=lambda: result.update(lines=cnnx.dask.classify_json(files, shapes_model, client,
                                                                                      batch=2)))
    job.start()

    def finished_batches(dask_scheduler):
        return sum(ts.state == "memory" and str(ts.key).startswith("_classify_batch")
                   for ts in dask_scheduler.tasks.values())

    deadline = time.time() + 120
    busy = {}
    while client.run_on_scheduler(finished_batches) < 2 or not busy:  # some done, one in progress to kill
        assert time.time() < deadline and job.is_alive(), "the job did not start, or ran out of batches in progress"
        time.sleep(0.05)
        busy = {w: keys for w, keys in client.processing().items() if keys}
    victim = max(busy, key=lambda w: len(busy[w]))
    os.kill(pids[victim], signal.SIGKILL)
    job.join(timeout=300)
    assert not job.is_alive()
    assert busy[victim], "the killed worker had no batch in progress"
    assert set(client.run(os.getpid).values()) != set(pids.values()), "no worker was replaced"
    lines = result["lines"]
    assert [json.loads(line)["file"] for line in lines] == files  # each file exactly once, in order
    assert lines == expected


def run_module(*args, env=None):
    environment = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "cnnx", *map(str, args)], capture_output=True, text=True,
                          env=environment, timeout=300)


def test_module_command_on_a_local_cluster(shapes_model, folder, cnnx_tool, tmp_path):
    out = tmp_path / "results.jsonl"
    r = run_module("classify", shapes_model, folder, "--workers", 2, "--batch", 4, "--out", out)
    assert r.returncode == 0, r.stderr
    cli_lines(cnnx_tool, shapes_model, [folder], 4, tmp_path / "cli.jsonl")
    assert out.read_bytes() == (tmp_path / "cli.jsonl").read_bytes()
    assert f"{len(out.read_text().splitlines())} files, 1 not classified" in r.stderr


def test_module_command_errors(shapes_model, folder, tmp_path):
    r = run_module("classify", str(tmp_path / "missing.onnx"), folder, "--workers", 1, "--out", tmp_path / "o")
    assert r.returncode == 1 and "cnnx: error: " in r.stderr and "missing.onnx" in r.stderr, r.stderr
    r = run_module("classify", shapes_model, folder)
    assert r.returncode == 2 and "--out" in r.stderr
    r = run_module("classify", shapes_model, folder, "--out", tmp_path / "no/such/folder/o.jsonl")
    assert r.returncode == 1 and "cnnx: error: cannot write" in r.stderr, r.stderr


def test_module_command_on_a_dask_scheduler(shapes_model, folder, cnnx_tool, tmp_path):
    """What the README says to do on a real cluster: `dask scheduler`, then `dask worker` on each machine."""
    scheduler_file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    scheduler = subprocess.Popen(dask + ["--scheduler-file", str(scheduler_file), "--port", "0",
                                         "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        deadline = time.time() + 60
        while not scheduler_file.exists():
            assert time.time() < deadline, "dask scheduler did not start"
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                   "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = tmp_path / "results.jsonl"
        r = run_module("classify", shapes_model, folder, "--scheduler", address, "--batch", 5, "--out", out)
        assert r.returncode == 0, r.stderr
        assert out.read_text().splitlines() == cli_lines(cnnx_tool, shapes_model, [folder], 5, tmp_path / "c.jsonl")
    finally:
        for p in (worker, scheduler):
            if p:
                p.terminate()
                p.wait(timeout=60)
