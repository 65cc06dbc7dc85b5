/* cnnx C API (installed as <cnnx/cnnx_c.h>): the C++ API in plain C, for C programs and other languages.
 *
 * Every function that can fail returns a cnnx_status; on failure cnnx_last_error() gives the message
 * (thread-local, valid until the next failing call on the same thread). Null pointers where an object is
 * required return CNNX_INVALID_ARGUMENT, never crash. Objects are freed with their _free function, which
 * accepts NULL.
 *
 *   cnnx_model* model;
 *   if (cnnx_model_load("classifier.onnx", NULL, &model) != CNNX_OK) puts(cnnx_last_error());
 *   int64_t dims[4] = {1, 3, 64, 64};
 *   cnnx_tensor* x; cnnx_tensor_create_f32(dims, 4, &x);
 *   cnnx_tensor* y; cnnx_model_run(model, &x, 1, &y, 1);
 *   const float* scores = cnnx_tensor_data_f32(y);
 *
 * cnnx_model_run may be called on one model from many threads at once.
 */
#ifndef CNNX_CNNX_C_H
#define CNNX_CNNX_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cnnx_status {
  CNNX_OK = 0,
  CNNX_INVALID_ARGUMENT = 1, /* a null pointer, an index out of range, a buffer too small */
  CNNX_ERROR = 2,            /* a bad model or input, or an unsupported case: see cnnx_last_error() */
  CNNX_OUT_OF_MEMORY = 3,
} cnnx_status;

typedef enum cnnx_backend { CNNX_BACKEND_DNNL = 0, CNNX_BACKEND_REF = 1 } cnnx_backend;
/* What plans compute in (cnnx.h, Options::precision). */
typedef enum cnnx_precision { CNNX_PRECISION_FP32 = 0, CNNX_PRECISION_BF16 = 1 } cnnx_precision;

typedef struct cnnx_options {
  cnnx_backend backend;
  int threads; /* 0: up to all cores, adapting per run (cnnx.h, Options::threads); N: pinned */
  int verify;  /* nonzero: check every node against its reference kernel */
  /* Graph passes and kernels to plan without, as `cnnx run --disable-pass / --disable-kernel` (cnnx.h,
   * Options::disabled_passes / disabled_kernels): arrays of count NUL-terminated names, copied at load; NULL
   * with a count of 0 for none. A NULL array or name where a count says there are names is
   * CNNX_INVALID_ARGUMENT; an unknown name is CNNX_ERROR at load. */
  const char* const* disabled_passes;
  size_t disabled_pass_count;
  const char* const* disabled_kernels;
  size_t disabled_kernel_count;
  cnnx_precision precision; /* another value is CNNX_ERROR at load */
} cnnx_options;

typedef struct cnnx_model cnnx_model;
typedef struct cnnx_tensor cnnx_tensor;

/* The defaults the C++ API uses (no pass or kernel disabled). */
cnnx_options cnnx_options_default(void);
const char* cnnx_last_error(void);
const char* cnnx_version(void);

/* options may be NULL for the defaults. */
cnnx_status cnnx_model_load(const char* path, const cnnx_options* options, cnnx_model** model);
cnnx_status cnnx_model_load_from_bytes(const void* data, size_t size, const cnnx_options* options,
                                       cnnx_model** model);
void cnnx_model_free(cnnx_model* model);

/* Inputs and outputs. Names stay valid while the model lives. A dim of -1 is bound at run time. */
size_t cnnx_model_input_count(const cnnx_model* model);
size_t cnnx_model_output_count(const cnnx_model* model);
const char* cnnx_model_input_name(const cnnx_model* model, size_t index);  /* NULL when out of range */
const char* cnnx_model_output_name(const cnnx_model* model, size_t index);
/* Writes up to `capacity` dims and the rank; CNNX_INVALID_ARGUMENT when capacity < rank. */
cnnx_status cnnx_model_input_dims(const cnnx_model* model, size_t index, int64_t* dims, size_t capacity,
                                  size_t* rank);

/* Runs the model: inputs in order (float32 tensors); writes `output_count` new tensors the caller frees.
 * output_count must equal cnnx_model_output_count. */
cnnx_status cnnx_model_run(const cnnx_model* model, cnnx_tensor* const* inputs, size_t input_count,
                           cnnx_tensor** outputs, size_t output_count);

/* A zero-filled float32 tensor that owns its buffer. */
cnnx_status cnnx_tensor_create_f32(const int64_t* dims, size_t rank, cnnx_tensor** tensor);
/* A float32 tensor over the caller's buffer, which must outlive it (and any run using it). */
cnnx_status cnnx_tensor_wrap_f32(float* data, const int64_t* dims, size_t rank, cnnx_tensor** tensor);
void cnnx_tensor_free(cnnx_tensor* tensor);
/* NULL for a NULL tensor or one that is not float32. */
float* cnnx_tensor_data_f32(cnnx_tensor* tensor);
size_t cnnx_tensor_rank(const cnnx_tensor* tensor);
int64_t cnnx_tensor_dim(const cnnx_tensor* tensor, size_t axis); /* -1 when out of range */
int64_t cnnx_tensor_numel(const cnnx_tensor* tensor);

#ifdef __cplusplus
}
#endif

#endif /* CNNX_CNNX_C_H */
