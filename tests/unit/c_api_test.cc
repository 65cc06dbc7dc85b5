// The C API: status codes and messages, never a crash on null pointers or bad models; its options reach the model.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "api/cnnx.h"
#include "api/cnnx_c.h"

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

namespace {

// One fixed 64x64 RGB image for shapes.onnx (its input [1, 3, 64, 64]).
std::vector<float> fixed_image() {
  std::vector<float> image(3 * 64 * 64);
  for (size_t i = 0; i < image.size(); ++i) image[i] = float((i * 7919) % 255) / 255.f - 0.5f;
  return image;
}

// shapes.onnx's logits for fixed_image(), from a model loaded through the C API with `options`.
std::vector<float> c_api_logits(const cnnx_options& options) {
  cnnx_model* model = nullptr;
  REQUIRE_MESSAGE(cnnx_model_load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx", &options, &model) == CNNX_OK,
                  cnnx_last_error());
  int64_t dims[4] = {1, 3, 64, 64};
  std::vector<float> image = fixed_image();
  cnnx_tensor* x = nullptr;
  cnnx_tensor* y = nullptr;
  REQUIRE(cnnx_tensor_wrap_f32(image.data(), dims, 4, &x) == CNNX_OK);
  REQUIRE_MESSAGE(cnnx_model_run(model, &x, 1, &y, 1) == CNNX_OK, cnnx_last_error());
  const float* p = cnnx_tensor_data_f32(y);
  std::vector<float> logits(p, p + cnnx_tensor_numel(y));
  cnnx_tensor_free(x);
  cnnx_tensor_free(y);
  cnnx_model_free(model);
  return logits;
}

}  // namespace

TEST_CASE("C API options disable graph passes and kernels as the C++ API's do") {
  const char* passes[] = {"fuse-conv"};
  const char* kernels[] = {"dnnl"};
  cnnx_options o = cnnx_options_default();
  CHECK(o.disabled_pass_count == 0);
  CHECK(o.disabled_kernels == nullptr);
  o.threads = 1;  // a pinned team: the same bits run to run
  const std::vector<float> fast = c_api_logits(o);
  o.disabled_passes = passes;
  o.disabled_pass_count = 1;
  o.disabled_kernels = kernels;
  o.disabled_kernel_count = 1;
  const std::vector<float> slow = c_api_logits(o);

  // The same options through the C++ API give the same bits; oneDNN's fused convolutions sum in another
  // order than the unfused reference kernels, so the default plan's bits differ.
  cnnx::Options same;
  same.threads = 1;
  same.disabled_passes = {"fuse-conv"};
  same.disabled_kernels = {"dnnl"};
  const cnnx::Model model = cnnx::Model::load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx", same);
  std::vector<float> image = fixed_image();
  const cnnx::Tensor y = model.run({cnnx::Tensor::borrow(cnnx::DType::f32, {1, 3, 64, 64}, image.data())})[0];
  REQUIRE(size_t(y.numel()) == slow.size());
  CHECK(std::memcmp(y.raw(), slow.data(), y.bytes()) == 0);
  CHECK(std::memcmp(fast.data(), slow.data(), y.bytes()) != 0);
}

TEST_CASE("C API options with unreadable or unknown names are errors with messages") {
  const char* unknown_kernel[] = {"bogus"};
  const char* unknown_pass[] = {"no-such-pass"};
  const char* null_name[] = {"dnnl", nullptr};
  struct Case {
    const char* what;
    const char* const* passes;
    size_t pass_count;
    const char* const* kernels;
    size_t kernel_count;
    cnnx_status status;
    const char* message;
  };
  const Case cases[] = {
      {"null kernel array, count 1", nullptr, 0, nullptr, 1, CNNX_INVALID_ARGUMENT, "null names array"},
      {"null pass array, count 1", nullptr, 1, nullptr, 0, CNNX_INVALID_ARGUMENT, "null names array"},
      {"null kernel name", nullptr, 0, null_name, 2, CNNX_INVALID_ARGUMENT, "null name"},
      {"unknown kernel", nullptr, 0, unknown_kernel, 1, CNNX_ERROR, "unknown kernel 'bogus'"},
      {"unknown pass", unknown_pass, 1, nullptr, 0, CNNX_ERROR, "unknown graph pass 'no-such-pass'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    cnnx_options o = cnnx_options_default();
    o.disabled_passes = c.passes;
    o.disabled_pass_count = c.pass_count;
    o.disabled_kernels = c.kernels;
    o.disabled_kernel_count = c.kernel_count;
    cnnx_model* model = nullptr;
    CHECK(cnnx_model_load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx", &o, &model) == c.status);
    CHECK(model == nullptr);
    CHECK(std::string(cnnx_last_error()).find(c.message) != std::string::npos);
  }
}

TEST_CASE("C API precision: bf16 loads (float32 where it cannot run natively), an unknown value is an error") {
  cnnx_options o = cnnx_options_default();
  CHECK(o.precision == CNNX_PRECISION_FP32);
  o.precision = CNNX_PRECISION_BF16;
  cnnx_model* model = nullptr;
  REQUIRE(cnnx_model_load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx", &o, &model) == CNNX_OK);
  cnnx_model_free(model);
  o.precision = cnnx_precision(7);
  model = nullptr;
  CHECK(cnnx_model_load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx", &o, &model) == CNNX_ERROR);
  CHECK(model == nullptr);
  CHECK(std::string(cnnx_last_error()).find("unknown precision 7 (cnnx_options.precision") != std::string::npos);
}
