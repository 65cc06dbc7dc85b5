# The Python module's tests (pytest, one ctest per file), run with the interpreter the module was built for
# and the package from the build tree (included from tests/CMakeLists.txt). The session tests use torchvision
# exports made by the model_export_* fixtures (tests/models/models.cmake).
set(cnnx_python_tests model session classify detect dask float16 bfloat16 rnn quantize control_flow detectors)
foreach(name IN LISTS cnnx_python_tests)
  add_test(NAME python_${name}
           COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_LIST_DIR}/test_${name}.py)
  set_tests_properties(python_${name} PROPERTIES TIMEOUT 600 LABELS python
                       ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python;CNNX_SOURCE_DIR=${PROJECT_SOURCE_DIR};CNNX_TOOL=$<TARGET_FILE:cnnx_tool>;CNNX_MODEL_DATA=${CNNX_MODEL_DATA}")
endforeach()
set_tests_properties(python_session PROPERTIES
                     FIXTURES_REQUIRED "model_mobilenet_v2;model_mobilenet_v3_small_batch2_dynamic_opset17")
# The big torchvision detectors (tests/python/test_detectors.py's slow list: 30-250 s of export each).
if(CNNX_SLOW_TESTS)
  add_test(NAME python_detectors_slow
           COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_LIST_DIR}/test_detectors.py
                   -k test_detector_slow)
  set_tests_properties(python_detectors_slow PROPERTIES TIMEOUT 3600 LABELS "python;slow"
                       ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python;CNNX_SOURCE_DIR=${PROJECT_SOURCE_DIR};CNNX_SLOW_TESTS=1")
endif()
