// The C API: status codes and messages, never a crash on null pointers or bad models.
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "runtime/cnnx_c.h"

TEST_CASE("C API calls with null pointers return an error status") {
  cnnx_model* model = nullptr;
  cnnx_tensor* tensor = nullptr;
  int64_t dims[2] = {2, 3};
  size_t rank = 0;
  struct Case { const char* call; cnnx_status status; };
  const Case cases[] = {
      {"load(NULL path)", cnnx_model_load(nullptr, nullptr, &model)},
      {"load(NULL out)", cnnx_model_load("x.onnx", nullptr, nullptr)},
      {"load_from_bytes(NULL data)", cnnx_model_load_from_bytes(nullptr, 10, nullptr, &model)},
      {"input_dims(NULL model)", cnnx_model_input_dims(nullptr, 0, dims, 2, &rank)},
      {"run(NULL model)", cnnx_model_run(nullptr, &tensor, 1, &tensor, 1)},
      {"tensor_create(NULL dims)", cnnx_tensor_create_f32(nullptr, 2, &tensor)},
      {"tensor_create(NULL out)", cnnx_tensor_create_f32(dims, 2, nullptr)},
      {"tensor_wrap(NULL data)", cnnx_tensor_wrap_f32(nullptr, dims, 2, &tensor)},
  };
  for (const Case& c : cases) {
    CAPTURE(c.call);
    CHECK(c.status == CNNX_INVALID_ARGUMENT);
    CHECK(std::strlen(cnnx_last_error()) > 0);
  }
  CHECK(cnnx_model_input_count(nullptr) == 0);
  CHECK(cnnx_model_input_name(nullptr, 0) == nullptr);
  CHECK(cnnx_tensor_data_f32(nullptr) == nullptr);
  CHECK(cnnx_tensor_dim(nullptr, 0) == -1);
  cnnx_model_free(nullptr);
  cnnx_tensor_free(nullptr);
}

TEST_CASE("C API reports bad models and bad tensors with messages") {
  cnnx_model* model = nullptr;
  const char junk[] = "this is not a protobuf";
  CHECK(cnnx_model_load_from_bytes(junk, sizeof junk, nullptr, &model) == CNNX_ERROR);
  CHECK(model == nullptr);
  CHECK(std::string(cnnx_last_error()).find("not a valid ONNX") != std::string::npos);
  CHECK(cnnx_model_load("/nonexistent/model.onnx", nullptr, &model) == CNNX_ERROR);
  CHECK(std::string(cnnx_last_error()).find("/nonexistent/model.onnx") != std::string::npos);

  cnnx_tensor* t = nullptr;
  int64_t negative[2] = {2, -3};
  CHECK(cnnx_tensor_create_f32(negative, 2, &t) == CNNX_ERROR);
  CHECK(t == nullptr);
  int64_t dims[2] = {2, 3};
  float buffer[6] = {1, 2, 3, 4, 5, 6};
  REQUIRE(cnnx_tensor_wrap_f32(buffer, dims, 2, &t) == CNNX_OK);
  CHECK(cnnx_tensor_data_f32(t) == buffer);
  CHECK(cnnx_tensor_rank(t) == 2);
  CHECK(cnnx_tensor_dim(t, 1) == 3);
  CHECK(cnnx_tensor_dim(t, 2) == -1);
  CHECK(cnnx_tensor_numel(t) == 6);
  cnnx_tensor_free(t);
}
