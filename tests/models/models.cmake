# Model parity: torchvision classifiers (random weights, models/export_torchvision.py) run through the real CLI
# with --backend ref and --backend dnnl must match PyTorch's output (tests/models/compare_outputs.py has the tolerance).
# Included from tests/CMakeLists.txt:  include(${CMAKE_CURRENT_SOURCE_DIR}/models/models.cmake)
#
#   ctest -L models            the fast models
#   -DCNNX_SLOW_TESTS=ON       also registers the slow ones (LABELS "models;slow")
#
# Each model gets a fixture test model_export_<test> that exports it into the build tree at test time (skipped
# when an export with the same settings is present), and model_parity_<test> that runs
# `cnnx run model.onnx input.npy --backend ref|dnnl --save DIR` and compares DIR/logits.npy with PyTorch's.

option(CNNX_SLOW_TESTS "Register slow tests (model parity for the big torchvision models)" OFF)

get_filename_component(cnnx_export_script ${CMAKE_CURRENT_LIST_DIR}/../../models/export_torchvision.py ABSOLUTE)
set(CNNX_MODEL_DATA ${CMAKE_CURRENT_BINARY_DIR}/torchvision_models)

# cnnx_model_parity(TEST MODEL LABELS [export options...]): one exported model and its parity test.
function(cnnx_model_parity test model labels)
  set(data ${CNNX_MODEL_DATA})  # data/MODEL/{model.onnx,input.npy,expected.npy,...}; variants one level down
  if(NOT test STREQUAL model)
    set(data ${CNNX_MODEL_DATA}/${test})
  endif()
  add_test(NAME model_export_${test}
           COMMAND /usr/bin/python3 ${cnnx_export_script} ${model} --out ${data} --skip-existing ${ARGN})
  set_tests_properties(model_export_${test} PROPERTIES FIXTURES_SETUP model_${test} LABELS "${labels}"
                       TIMEOUT 1200)
  foreach(backend ref dnnl)
    add_test(NAME model_parity_${test}_${backend}
             COMMAND ${CMAKE_COMMAND} -DCNNX=$<TARGET_FILE:cnnx_tool> -DMODEL_DIR=${data}/${model}
                     -DOUT_DIR=${data}/${model}/cnnx_${backend} -DNAME=${test} -DBACKEND=${backend}
                     -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/run_parity.cmake)
    set_tests_properties(model_parity_${test}_${backend} PROPERTIES FIXTURES_REQUIRED model_${test}
                         LABELS "${labels}" TIMEOUT 1800)
  endforeach()
  # Every node of the planned graph (passes applied, oneDNN kernels) against its reference kernel.
  add_test(NAME model_check_${test}
           COMMAND cnnx_tool check ${data}/${model}/model.onnx ${data}/${model}/input.npy)
  set_tests_properties(model_check_${test} PROPERTIES FIXTURES_REQUIRED model_${test} LABELS "${labels}"
                       TIMEOUT 1800)
endfunction()

# Measured on a shared 2-core machine under load (wall time; user CPU in parentheses where it matters):
#   parity test (cnnx run --backend ref + compare): 0.7-3.5 s for the fast set; resnet50 8.5 s (2.1 s CPU),
#   densenet121 5.1 s (1.2), inception_v3 11 s (2.7), vgg11 13 s (3.2; 1.6 GB peak RSS in cnnx).
#   export (first run only; later runs find the stamp and take ~0.5 s): 22-163 s (5-19 s CPU) for the fast set;
#   resnet50 68 s (21 s CPU), densenet121 101 s (33), inception_v3 90 s (34), vgg11 64 s (23; 2.4 GB peak RSS).
# No model takes 20 s through the reference kernels; "slow" is the four whose first run (export + parity)
# costs > 20 s of CPU, the largest models by FLOPs and memory.
set(CNNX_MODELS_FAST resnet18 mobilenet_v2 mobilenet_v3_small squeezenet1_1 shufflenet_v2_x1_0 mnasnet1_0
                     regnet_y_400mf efficientnet_b0 alexnet googlenet)
set(CNNX_MODELS_SLOW resnet50 densenet121 inception_v3 vgg11)

foreach(model IN LISTS CNNX_MODELS_FAST)
  cnnx_model_parity(${model} ${model} models)
endforeach()
if(CNNX_SLOW_TESTS)
  foreach(model IN LISTS CNNX_MODELS_SLOW)
    cnnx_model_parity(${model} ${model} "models;slow")
  endforeach()
endif()

# Export variants: batch 2 with a symbolic batch dimension (shapes known only at run time; shufflenet's
# channel shuffle then goes through Shape/Gather/Reshape) at the newest opset torch 1.13 writes.
foreach(model IN ITEMS shufflenet_v2_x1_0 mobilenet_v3_small)
  cnnx_model_parity(${model}_batch2_dynamic_opset17 ${model} models --batch 2 --dynamic-batch --opset 17)
endforeach()
