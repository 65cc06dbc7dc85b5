/* The C API: load a model, run it on a synthetic input, print the top class.
 * Usage: classify_c MODEL.onnx */
#include <cnnx/cnnx_c.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 2) { fprintf(stderr, "usage: classify_c MODEL.onnx\n"); return 2; }
  cnnx_model* model = NULL;
  if (cnnx_model_load(argv[1], NULL, &model) != CNNX_OK) {
    fprintf(stderr, "error: %s\n", cnnx_last_error());
    return 1;
  }
  int64_t dims[8];
  size_t rank = 0;
  cnnx_model_input_dims(model, 0, dims, 8, &rank);
  for (size_t i = 0; i < rank; ++i) if (dims[i] < 0) dims[i] = 1; /* bind the batch dim */
  cnnx_tensor* x = NULL;
  cnnx_tensor* y = NULL;
  int status = cnnx_tensor_create_f32(dims, rank, &x);
  float* px = cnnx_tensor_data_f32(x);
  for (int64_t i = 0; status == CNNX_OK && i < cnnx_tensor_numel(x); ++i) px[i] = (float)(i % 7) / 7.f;
  if (status == CNNX_OK) status = cnnx_model_run(model, &x, 1, &y, 1);
  if (status != CNNX_OK) {
    fprintf(stderr, "error: %s\n", cnnx_last_error());
  } else {
    const float* s = cnnx_tensor_data_f32(y);
    int64_t best = 0;
    for (int64_t i = 1; i < cnnx_tensor_numel(y); ++i) if (s[i] > s[best]) best = i;
    printf("class %lld\n", (long long)best);
  }
  cnnx_tensor_free(x);
  cnnx_tensor_free(y);
  cnnx_model_free(model);
  return status == CNNX_OK ? 0 : 1;
}
