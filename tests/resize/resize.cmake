# Resize and Upsample against PyTorch: F.interpolate exported at opsets 9 to 13, run on both backends; GridSample.
# ctest -L resize. Included from tests/CMakeLists.txt. (Kernel cases: tests/unit/kernel_cases_resize_test.cc.)
add_test(NAME resize_vs_torch
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/resize_vs_torch.py $<TARGET_FILE:cnnx_tool>
                 ${CMAKE_CURRENT_BINARY_DIR}/resize_vs_torch)
set_tests_properties(resize_vs_torch PROPERTIES LABELS resize TIMEOUT 600)
# GridSample against PyTorch: F.grid_sample in every mode, padding mode and align_corners, opset 16.
add_test(NAME grid_sample_vs_torch
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/grid_sample_vs_torch.py $<TARGET_FILE:cnnx_tool>
                 ${CMAKE_CURRENT_BINARY_DIR}/grid_sample_vs_torch)
set_tests_properties(grid_sample_vs_torch PROPERTIES LABELS resize TIMEOUT 300)
