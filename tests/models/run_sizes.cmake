# One model at two input sizes from one load (see models.cmake): cnnx_model_sizes runs input.npy, input_2.npy and
# input.npy again on one cnnx::Model, then each output is compared with PyTorch's for that input.
#   cmake -DRUNNER=path/to/cnnx_model_sizes -DMODEL_DIR=dir -DOUT_DIR=dir -DNAME=name -DBACKEND=ref|dnnl
#         -P run_sizes.cmake
# MODEL_DIR holds model.onnx, input[_2].npy, expected[_2].npy, expected_f64[_2].npy (export_torchvision.py
# --dynamic-hw).

foreach(var RUNNER MODEL_DIR OUT_DIR NAME BACKEND)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_sizes.cmake: -D${var}=... is required")
  endif()
endforeach()

file(REMOVE_RECURSE ${OUT_DIR})
execute_process(COMMAND ${RUNNER} ${MODEL_DIR}/model.onnx ${BACKEND} ${OUT_DIR} ${MODEL_DIR}/input.npy
                        ${MODEL_DIR}/input_2.npy
                RESULT_VARIABLE run_result)
if(NOT run_result EQUAL 0)
  message(FATAL_ERROR "${NAME}: cnnx_model_sizes failed (${run_result})")
endif()

set(failed "")
foreach(run 0 1 2)
  set(suffix "")  # runs 0 and 2: input.npy; run 1: input_2.npy
  if(run EQUAL 1)
    set(suffix _2)
  endif()
  execute_process(COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/compare_outputs.py ${OUT_DIR}/output_${run}.npy
                          ${MODEL_DIR}/expected${suffix}.npy --expected-f64 ${MODEL_DIR}/expected_f64${suffix}.npy
                          --name "${NAME} run ${run} (input${suffix}.npy)"
                  RESULT_VARIABLE compare_result)
  if(NOT compare_result EQUAL 0)
    list(APPEND failed ${run})
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "${NAME}: runs ${failed} do not match PyTorch's output")
endif()
