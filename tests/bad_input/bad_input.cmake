# Bad-input corpus: malformed models and inputs the cnnx program must refuse with "cnnx: error: ..." and exit
# code 1, and valid edge cases it must run. Included from tests/CMakeLists.txt. The corpus is generated at
# test time (python3-onnx, numpy) into the build tree, then run_corpus.py runs every case.
set(CNNX_BAD_INPUT_CORPUS ${CMAKE_CURRENT_BINARY_DIR}/bad_input_corpus)
add_test(NAME bad_input_generate
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/make_corpus.py ${CNNX_BAD_INPUT_CORPUS})
set_tests_properties(bad_input_generate PROPERTIES FIXTURES_SETUP bad_input_corpus TIMEOUT 60)

# Sanitizer builds reserve terabytes of shadow address space, so the per-run address-space cap (which
# catches "allocates what the file only claims to hold") is off there.
if(CNNX_SANITIZE)
  set(CNNX_BAD_INPUT_MEM_LIMIT 0)
else()
  set(CNNX_BAD_INPUT_MEM_LIMIT 512)
endif()
add_test(NAME bad_input_run
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/run_corpus.py $<TARGET_FILE:cnnx_tool>
                 ${CNNX_BAD_INPUT_CORPUS} --mem-limit-mb ${CNNX_BAD_INPUT_MEM_LIMIT})
# 630 cases: ~60 s quiet, 120+ under load. GOMP_SPINCOUNT set: the tool need not start itself again per case
# (tools/omp_waiting.cc; ~40 ms each, more under the sanitizers).
set_tests_properties(bad_input_run PROPERTIES FIXTURES_REQUIRED bad_input_corpus TIMEOUT 300
                     ENVIRONMENT GOMP_SPINCOUNT=3000)
