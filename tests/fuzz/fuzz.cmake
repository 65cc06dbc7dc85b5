# libFuzzer targets (CNNX_FUZZ=ON, clang; the library is then built with -fsanitize=fuzzer-no-link,address,
# undefined). Included from the top-level CMakeLists.txt. tests/fuzz/run_fuzzers.sh configures, builds,
# seeds and runs them.
foreach(target fuzz_load_plan fuzz_run_model)
  add_executable(${target} ${CMAKE_CURRENT_LIST_DIR}/${target}.cc)
  target_link_libraries(${target} PRIVATE cnnx_static)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${target} PRIVATE CNNX_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_link_options(${target} PRIVATE -fsanitize=fuzzer)
endforeach()
