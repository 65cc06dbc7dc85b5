"""Paths the Python tests need, from the environment ctest sets (tests/python/python.cmake):
CNNX_SOURCE_DIR (the repository), CNNX_TOOL (the cnnx program), CNNX_MODEL_DATA (torchvision exports).
The package itself comes from PYTHONPATH=<build>/python."""
import os
import pathlib

import pytest


def _env_path(name):
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run the Python tests through ctest (tests/python/python.cmake)")
    return pathlib.Path(value)


@pytest.fixture(scope="session")
def source_dir():
    return _env_path("CNNX_SOURCE_DIR")


@pytest.fixture(scope="session")
def cnnx_tool():
    return str(_env_path("CNNX_TOOL"))


@pytest.fixture(scope="session")
def shapes_model(source_dir):
    return str(source_dir / "models/shapes/shapes.onnx")


@pytest.fixture(scope="session")
def shapes_samples(source_dir):
    return sorted(str(p) for p in (source_dir / "models/shapes/samples").glob("*.png"))


@pytest.fixture(scope="session")
def model_data():
    return _env_path("CNNX_MODEL_DATA")
