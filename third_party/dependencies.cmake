# Finds cnnx's dependencies, all Debian bookworm packages (see packages.txt, installed by install_deps.sh).
find_package(dnnl REQUIRED)                  # libdnnl-dev: DNNL::dnnl
find_package(ONNX REQUIRED)                  # libonnx-dev: onnx_proto
find_package(Protobuf REQUIRED)              # libprotobuf-dev
find_package(CLI11 REQUIRED)                 # libcli11-dev: CLI11::CLI11
find_package(nlohmann_json REQUIRED)         # nlohmann-json3-dev
find_package(OpenMP REQUIRED)                # gcc's libgomp: the threading runtime Debian's oneDNN uses
find_package(PkgConfig REQUIRED)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)   # libstb-dev: PkgConfig::STB
# Debian's python3 (the one python3-numpy, -torch, -onnx, -pybind11 and -distributed install into), not a
# pyenv or venv python3 that may come first on PATH: the module is built for it and the tests run with it.
# -DPython3_EXECUTABLE=... picks another interpreter (it then needs numpy, and pybind11 for the build).
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "The Python the cnnx module is built for")
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter Development.Module)   # python3, python3-dev
set(PYBIND11_FINDPYTHON ON)                  # pybind11 uses the Python3 found above
find_package(pybind11 REQUIRED CONFIG)       # pybind11-dev: pybind11_add_module
if(CNNX_BUILD_TESTS)
  find_package(doctest REQUIRED)             # doctest-dev: doctest::doctest
endif()
