# One model parity test (see models.cmake): run the CLI on one backend, then compare with PyTorch.
#   cmake -DCNNX=path/to/cnnx -DMODEL_DIR=dir -DOUT_DIR=dir -DNAME=name -DBACKEND=ref|dnnl -P run_parity.cmake
# MODEL_DIR holds model.onnx, input.npy, expected.npy, expected_f64.npy (models/export_torchvision.py).

foreach(var CNNX MODEL_DIR OUT_DIR NAME BACKEND)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_parity.cmake: -D${var}=... is required")
  endif()
endforeach()

# A stale output from an earlier run must never be compared.
file(REMOVE_RECURSE ${OUT_DIR})

string(TIMESTAMP start "%s")
execute_process(COMMAND ${CNNX} run ${MODEL_DIR}/model.onnx ${MODEL_DIR}/input.npy --backend ${BACKEND} --save ${OUT_DIR}
                RESULT_VARIABLE run_result)
string(TIMESTAMP stop "%s")
math(EXPR seconds "${stop} - ${start}")
message("${NAME}: cnnx run --backend ${BACKEND} took ${seconds} s")
if(NOT run_result EQUAL 0)
  message(FATAL_ERROR "${NAME}: cnnx run failed (${run_result})")
endif()

execute_process(COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/compare_outputs.py ${OUT_DIR}/logits.npy
                        ${MODEL_DIR}/expected.npy --expected-f64 ${MODEL_DIR}/expected_f64.npy --name ${NAME}
                RESULT_VARIABLE compare_result)
if(NOT compare_result EQUAL 0)
  message(FATAL_ERROR "${NAME}: the cnnx output does not match PyTorch's")
endif()
