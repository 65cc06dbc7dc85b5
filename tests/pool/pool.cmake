# The pooling lab (docs/pooling.md): `cnnx pool`, load-time AveragePool warnings and the spellings `cnnx inspect`
# names, from the command line; adaptive average pooling against PyTorch's own output; PyTorch's exports of
# every GAP spelling rewritten into one GlobalAveragePool. ctest -L pool
# Included from tests/CMakeLists.txt. (Unit tests: tests/unit/pool_lab_test.cc, tests/unit/adaptive_pool_test.cc.)
add_test(NAME cli_pool_lab
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/pool_lab_test.py $<TARGET_FILE:cnnx_tool>)
add_test(NAME adaptive_pool_vs_torch
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/adaptive_vs_torch.py $<TARGET_FILE:cnnx_tool>
                 ${CMAKE_CURRENT_BINARY_DIR}/adaptive_pool)
add_test(NAME torch_gap_spellings
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/torch_spellings.py $<TARGET_FILE:cnnx_tool>
                 ${CMAKE_CURRENT_BINARY_DIR}/torch_spellings)
set_tests_properties(cli_pool_lab adaptive_pool_vs_torch torch_gap_spellings PROPERTIES LABELS pool TIMEOUT 600)
