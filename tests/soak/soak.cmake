# Soak and concurrency (included from tests/CMakeLists.txt): one model run from 8 threads, every output
# checked against a single-threaded run and the resident set checked for growth; and 1000 load/run/unload
# cycles, which the ASan build (CNNX_SANITIZE=ON, LeakSanitizer on) checks for leaks. Longer runs:
#   BUILD/tests/cnnx_soak threads models/shapes/shapes.onnx --runs 10000     (or --seconds 600)
add_executable(cnnx_soak ${CMAKE_CURRENT_LIST_DIR}/soak_test.cc)
target_link_libraries(cnnx_soak PRIVATE cnnx_static)
target_include_directories(cnnx_soak PRIVATE ${PROJECT_SOURCE_DIR})
set(CNNX_SOAK_MODEL ${PROJECT_SOURCE_DIR}/models/shapes/shapes.onnx)
add_test(NAME soak_threads COMMAND cnnx_soak threads ${CNNX_SOAK_MODEL} --threads 8 --seconds 4)
add_test(NAME soak_load_cycles COMMAND cnnx_soak cycles ${CNNX_SOAK_MODEL} --cycles 1000)
set_tests_properties(soak_threads soak_load_cycles PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
