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

# cnnx_model_sizes(TEST MODEL LABELS B,S [export options...]): MODEL exported with symbolic batch, height and
# width (--dynamic-hw B,S); besides cnnx_model_parity's tests, model_sizes_<test>_<backend> runs one loaded
# cnnx::Model at the export size and at batch B, SxS (tests/models/run_sizes.cmake), each against PyTorch.
add_executable(cnnx_model_sizes ${CMAKE_CURRENT_LIST_DIR}/model_sizes.cc)
target_link_libraries(cnnx_model_sizes PRIVATE cnnx_static)
target_include_directories(cnnx_model_sizes PRIVATE ${PROJECT_SOURCE_DIR})
function(cnnx_model_sizes test model labels second_input)
  cnnx_model_parity(${test} ${model} "${labels}" --dynamic-hw ${second_input} ${ARGN})
  set(data ${CNNX_MODEL_DATA}/${test}/${model})
  foreach(backend ref dnnl)
    add_test(NAME model_sizes_${test}_${backend}
             COMMAND ${CMAKE_COMMAND} -DRUNNER=$<TARGET_FILE:cnnx_model_sizes> -DMODEL_DIR=${data}
                     -DOUT_DIR=${data}/sizes_${backend} -DNAME=${test} -DBACKEND=${backend}
                     -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/run_sizes.cmake)
    set_tests_properties(model_sizes_${test}_${backend} PROPERTIES FIXTURES_REQUIRED model_${test}
                         LABELS "${labels}" TIMEOUT 1800)
  endforeach()
endfunction()

# A small PyTorch module whose shapes come from its input (Shape -> Gather -> Range, ConstantOfShape, Expand,
# Reshape), exported with symbolic batch, height and width and run from one load at two sizes.
add_test(NAME model_export_shape_chains
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/export_shape_chains.py ${CNNX_MODEL_DATA})
set_tests_properties(model_export_shape_chains PROPERTIES FIXTURES_SETUP model_shape_chains LABELS models)
foreach(backend ref dnnl)
  add_test(NAME model_sizes_shape_chains_${backend}
           COMMAND ${CMAKE_COMMAND} -DRUNNER=$<TARGET_FILE:cnnx_model_sizes> -DMODEL_DIR=${CNNX_MODEL_DATA}/shape_chains
                   -DOUT_DIR=${CNNX_MODEL_DATA}/shape_chains/sizes_${backend} -DNAME=shape_chains -DBACKEND=${backend}
                   -P ${CMAKE_CURRENT_LIST_DIR}/run_sizes.cmake)
  set_tests_properties(model_sizes_shape_chains_${backend} PROPERTIES FIXTURES_REQUIRED model_shape_chains
                       LABELS models)
endforeach()

# TIMING-TABLE
set(CNNX_MODELS_FAST resnet18 mobilenet_v2 mobilenet_v3_small squeezenet1_1 shufflenet_v2_x1_0 mnasnet1_0
                     regnet_y_400mf efficientnet_b0 alexnet googlenet convnext_mini densenet_mini
                     efficientnet_v2_mini maxvit_mini resnext_mini swin_mini vgg_mini vit_mini wide_resnet_mini)
set(CNNX_MODELS_SLOW resnet50 densenet121 inception_v3 vgg11 convnext_tiny efficientnet_v2_s maxvit_t
                     resnext50_32x4d swin_t vit_b_16 wide_resnet50_2 regnet_x_400mf vgg11_bn)

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

# LayerNorm both ways: the default opset 13 has no LayerNormalization and torch writes it out (ReduceMean, Sub,
# Pow, Sqrt, Div, Mul, Add: convnext_mini, swin_mini, vit_mini above); opset 17 writes the op itself. Swin's
# window padding and attention masks are computed from the input size, so this variant also has symbolic
# batch, height and width and runs at 224 (batch 1) and 160 (batch 2, not a multiple of the window) from one load.
cnnx_model_sizes(swin_mini_dynamic_hw_opset17 swin_mini models 2,160 --opset 17)
# A plain CNN and shufflenet (its channel shuffle reshapes to sizes taken from Shape(x): H and W too) at two sizes.
cnnx_model_sizes(resnet18_dynamic_hw resnet18 models 2,160)
cnnx_model_sizes(shufflenet_v2_x1_0_dynamic_hw shufflenet_v2_x1_0 models 2,160)

# The lowest opset torch 1.13 writes: 7 for every CNN of the fast set (convnext needs 9, for GELU's Erf); each
# of them, densenet_mini and vgg_mini matched PyTorch at opset 7 when tried by hand. Three run here:
# mobilenet_v2 (ReLU6 as Clip-6 with min/max attributes), mobilenet_v3_small (hardswish as HardSigmoid and Mul),
# squeezenet1_1 (MaxPool-7 has no ceil_mode: torch pads the bottom and right edges instead).
foreach(model IN ITEMS mobilenet_v2 mobilenet_v3_small squeezenet1_1)
  cnnx_model_parity(${model}_opset7 ${model} models --opset 7)
endforeach()
