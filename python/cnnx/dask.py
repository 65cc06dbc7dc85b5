"""Classifying many images on a Dask cluster: the records of `cnnx run MODEL DIR --jsonl FILE`, one per file,
in the order of the files, computed by batches on the cluster's workers.

    from dask.distributed import Client
    records = cnnx.dask.classify(["/data/photos"], "/models/resnet50.onnx", client=Client("tcp://sched:8786"))

Every worker process loads the model once (a per-process cache, shared by the process's threads) and runs
each batch on one core (in one run, or in runs of the model's own batch size when its input fixes one): give a worker as many threads, or a machine as many single-threaded worker
processes, as it has cores. The model file and the images must be reachable under the same paths by every
worker (a shared or copied folder; give absolute paths). Without a client, the current default client is
used, else a local cluster of single-threaded worker processes, one per core, made for the call (a script
that does this must create it under `if __name__ == "__main__":`, as Dask requires).

A worker that dies in the middle of a job loses its batches; the scheduler runs them again on other workers,
and each file's record is taken from exactly one run of its batch, so every file appears exactly once.
"""
import json
import os
import threading

import distributed

import cnnx

_models = {}
_models_lock = threading.Lock()


def _model(path):
    """This process's cnnx.Model for `path`, loaded on first use."""
    with _models_lock:
        if path not in _models:
            _models[path] = cnnx.Model(path, threads=1)
        return _models[path]


def _load(model_path):
    _model(model_path)


def preload(client, model_path):
    """Loads the model in every worker process of the client's cluster now, not with the first batches."""
    client.run(_load, os.fspath(model_path))


def _classify_batch(files, model_path, top):
    """The JSON records of `files`, classified on a worker: in one run, or in runs of the model's batch size
    when its input fixes one."""
    model = _model(model_path)
    fixed = isinstance(model.inputs[0].shape[0], int)
    return cnnx.classify_json(model, files, top=top, batch=0 if fixed else len(files))


def _default_client():
    try:
        return distributed.default_client()
    except ValueError:
        return None


def classify_json(paths, model_path, client=None, batch=16, top=5, progress=False):
    """classify()'s records as the JSON text the cnnx program writes, one string per file."""
    if batch < 1:
        raise ValueError(f"batch must be at least 1, got {batch}")
    files = cnnx.collect_files(paths)
    batches = [files[i:i + batch] for i in range(0, len(files), batch)]
    client = client or _default_client()
    if client is None:
        with distributed.LocalCluster(n_workers=os.cpu_count(), threads_per_worker=1, processes=True,
                                      dashboard_address=":0") as cluster, distributed.Client(cluster) as local:
            return classify_json(files, model_path, local, batch, top, progress)
    futures = client.map(_classify_batch, batches, model_path=os.fspath(model_path), top=top, pure=False)
    if progress:
        distributed.progress(futures)
    return [line for lines in client.gather(futures) for line in lines]


def classify(paths, model_path, client=None, batch=16, top=5):
    """Classifies the image files and folders of `paths` (folders are searched recursively, as the cnnx
    program does) with the model at `model_path`, `batch` files per task. Returns one record per file, in
    order: {"file": F, "top": [{"class": I, "label": L, "probability": P, "score": S}, ...]} or
    {"file": F, "error": MESSAGE}, the values the cnnx program's JSON lines hold."""
    return [json.loads(line) for line in classify_json(paths, model_path, client, batch, top)]
