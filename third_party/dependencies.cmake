# Finds cnnx's dependencies, all Debian bookworm packages (see packages.txt, installed by install_deps.sh).
find_package(dnnl REQUIRED)                  # libdnnl-dev: DNNL::dnnl
find_package(ONNX REQUIRED)                  # libonnx-dev: onnx_proto
find_package(Protobuf REQUIRED)              # libprotobuf-dev
find_package(CLI11 REQUIRED)                 # libcli11-dev: CLI11::CLI11
find_package(nlohmann_json REQUIRED)         # nlohmann-json3-dev
find_package(OpenMP REQUIRED)                # gcc's libgomp: the threading runtime Debian's oneDNN uses
find_package(PkgConfig REQUIRED)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)   # libstb-dev: PkgConfig::STB
if(CNNX_BUILD_TESTS)
  find_package(doctest REQUIRED)             # doctest-dev: doctest::doctest
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
endif()
