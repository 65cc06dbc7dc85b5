#include "api/cnnx_c.h"

#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "api/cnnx.h"

struct cnnx_model {
  cnnx::Model model;
};
struct cnnx_tensor {
  cnnx::Tensor tensor;
};

namespace {

thread_local std::string last_error;

cnnx_status set_error(cnnx_status status, const std::string& message) {
  last_error = message;
  return status;
}

// Runs f, turning exceptions into status codes.
template <class F>
cnnx_status guarded(F f) {
  try {
    f();
    return CNNX_OK;
  } catch (const cnnx::Error& e) {
    return set_error(CNNX_ERROR, e.what());
  } catch (const std::bad_alloc&) {
    return set_error(CNNX_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return set_error(CNNX_ERROR, e.what());
  }
}

std::vector<std::string> names(const char* const* array, size_t count) {
  std::vector<std::string> out;
  for (size_t i = 0; i < count; ++i) out.emplace_back(array[i]);
  return out;
}

// The integer a C caller stored in an enum field: C lets it hold any int, but in C++ loading a value outside the
// enum's range as the enum type is undefined, so the bytes are read as the underlying type.
template <class E>
long long stored_value(const E& field) {
  std::underlying_type_t<E> v;
  std::memcpy(&v, &field, sizeof v);
  return static_cast<long long>(v);
}

cnnx::Options to_options(const cnnx_options* o) {
  cnnx::Options out;
  if (!o) return out;
  const long long backend = stored_value(o->backend), precision = stored_value(o->precision);
  if (backend != CNNX_BACKEND_DNNL && backend != CNNX_BACKEND_REF) cnnx::fail("unknown backend ", backend);
  out.backend = backend == CNNX_BACKEND_DNNL ? cnnx::Backend::dnnl : cnnx::Backend::ref;
  if (precision != CNNX_PRECISION_FP32 && precision != CNNX_PRECISION_BF16)
    cnnx::fail("unknown precision ", precision, " (cnnx_options.precision: CNNX_PRECISION_FP32 or CNNX_PRECISION_BF16)");
  out.precision = precision == CNNX_PRECISION_BF16 ? cnnx::Precision::bf16 : cnnx::Precision::f32;
  out.threads = o->threads;
  out.verify = o->verify != 0;
  out.disabled_passes = names(o->disabled_passes, o->disabled_pass_count);
  out.disabled_kernels = names(o->disabled_kernels, o->disabled_kernel_count);
  return out;
}

// Why a names array cannot be read (a null array or name where the count says there are names), or null.
const char* invalid_names(const char* const* array, size_t count) {
  if (count == 0) return nullptr;
  if (!array) return "null names array with a nonzero count";
  for (size_t i = 0; i < count; ++i)
    if (!array[i]) return "null name in a names array";
  return nullptr;
}

// Checked before to_options, which reads the arrays.
const char* invalid_options(const cnnx_options* o) {
  if (!o) return nullptr;
  if (const char* why = invalid_names(o->disabled_passes, o->disabled_pass_count)) return why;
  return invalid_names(o->disabled_kernels, o->disabled_kernel_count);
}

cnnx::Shape to_shape(const int64_t* dims, size_t rank) {
  return cnnx::Shape(dims, dims + rank);
}

}  // namespace

extern "C" {

cnnx_options cnnx_options_default(void) {
  cnnx::Options d;
  return {d.backend == cnnx::Backend::dnnl ? CNNX_BACKEND_DNNL : CNNX_BACKEND_REF, d.threads, d.verify ? 1 : 0,
          nullptr, 0, nullptr, 0, CNNX_PRECISION_FP32};
}

const char* cnnx_last_error(void) { return last_error.c_str(); }

const char* cnnx_version(void) { return CNNX_VERSION; }

cnnx_status cnnx_model_load(const char* path, const cnnx_options* options, cnnx_model** model) {
  if (!path || !model) return set_error(CNNX_INVALID_ARGUMENT, "cnnx_model_load: null path or model pointer");
  *model = nullptr;
  if (const char* why = invalid_options(options))
    return set_error(CNNX_INVALID_ARGUMENT, std::string("cnnx_model_load: ") + why);
  return guarded([&] { *model = new cnnx_model{cnnx::Model::load(path, to_options(options))}; });
}

cnnx_status cnnx_model_load_from_bytes(const void* data, size_t size, const cnnx_options* options,
                                       cnnx_model** model) {
  if (!data || !model) return set_error(CNNX_INVALID_ARGUMENT, "cnnx_model_load_from_bytes: null data or model pointer");
  *model = nullptr;
  if (const char* why = invalid_options(options))
    return set_error(CNNX_INVALID_ARGUMENT, std::string("cnnx_model_load_from_bytes: ") + why);
  return guarded([&] { *model = new cnnx_model{cnnx::Model::load_from_bytes(data, size, to_options(options))}; });
}

void cnnx_model_free(cnnx_model* model) { delete model; }

size_t cnnx_model_input_count(const cnnx_model* model) { return model ? model->model.inputs().size() : 0; }
size_t cnnx_model_output_count(const cnnx_model* model) { return model ? model->model.outputs().size() : 0; }

const char* cnnx_model_input_name(const cnnx_model* model, size_t index) {
  if (!model || index >= model->model.inputs().size()) return nullptr;
  return model->model.inputs()[index].name.c_str();
}

const char* cnnx_model_output_name(const cnnx_model* model, size_t index) {
  if (!model || index >= model->model.outputs().size()) return nullptr;
  return model->model.outputs()[index].name.c_str();
}

cnnx_status cnnx_model_input_dims(const cnnx_model* model, size_t index, int64_t* dims, size_t capacity, size_t* rank) {
  if (!model || !rank || (!dims && capacity))
    return set_error(CNNX_INVALID_ARGUMENT, "cnnx_model_input_dims: null pointer");
  if (index >= model->model.inputs().size())
    return set_error(CNNX_INVALID_ARGUMENT, "cnnx_model_input_dims: input index out of range");
  const cnnx::Shape& shape = model->model.inputs()[index].shape;
  *rank = shape.size();
  if (capacity < shape.size()) return set_error(CNNX_INVALID_ARGUMENT, "cnnx_model_input_dims: dims buffer too small");
  for (size_t i = 0; i < shape.size(); ++i) dims[i] = shape[i];
  return CNNX_OK;
}

cnnx_status cnnx_model_run(const cnnx_model* model, cnnx_tensor* const* inputs, size_t input_count,
                           cnnx_tensor** outputs, size_t output_count) {
  if (!model || (!inputs && input_count) || !outputs)
    return set_error(CNNX_INVALID_ARGUMENT, "cnnx_model_run: null pointer");
  if (output_count != model->model.outputs().size())
    return set_error(CNNX_INVALID_ARGUMENT, "cnnx_model_run: the model has " +
                                                std::to_string(model->model.outputs().size()) + " outputs, " +
                                                std::to_string(output_count) + " requested");
  std::vector<cnnx::Tensor> in;
  for (size_t i = 0; i < input_count; ++i) {
    if (!inputs[i]) return set_error(CNNX_INVALID_ARGUMENT, "cnnx_model_run: input " + std::to_string(i) + " is null");
    in.push_back(inputs[i]->tensor);
  }
  for (size_t i = 0; i < output_count; ++i) outputs[i] = nullptr;
  return guarded([&] {
    std::vector<cnnx::Tensor> out = model->model.run(in);
    for (size_t i = 0; i < output_count; ++i) outputs[i] = new cnnx_tensor{out[i]};
  });
}

cnnx_status cnnx_tensor_create_f32(const int64_t* dims, size_t rank, cnnx_tensor** tensor) {
  if ((!dims && rank) || !tensor) return set_error(CNNX_INVALID_ARGUMENT, "cnnx_tensor_create_f32: null pointer");
  *tensor = nullptr;
  return guarded([&] { *tensor = new cnnx_tensor{cnnx::Tensor(cnnx::DType::f32, to_shape(dims, rank))}; });
}

cnnx_status cnnx_tensor_wrap_f32(float* data, const int64_t* dims, size_t rank, cnnx_tensor** tensor) {
  if (!data || (!dims && rank) || !tensor) return set_error(CNNX_INVALID_ARGUMENT, "cnnx_tensor_wrap_f32: null pointer");
  *tensor = nullptr;
  return guarded([&] { *tensor = new cnnx_tensor{cnnx::Tensor::borrow(cnnx::DType::f32, to_shape(dims, rank), data)}; });
}

void cnnx_tensor_free(cnnx_tensor* tensor) { delete tensor; }

float* cnnx_tensor_data_f32(cnnx_tensor* tensor) {
  if (!tensor || tensor->tensor.dtype() != cnnx::DType::f32) return nullptr;
  return static_cast<float*>(tensor->tensor.raw());
}

size_t cnnx_tensor_rank(const cnnx_tensor* tensor) { return tensor ? size_t(tensor->tensor.rank()) : 0; }

int64_t cnnx_tensor_dim(const cnnx_tensor* tensor, size_t axis) {
  if (!tensor || axis >= size_t(tensor->tensor.rank())) return -1;
  return tensor->tensor.dim(int64_t(axis));
}

int64_t cnnx_tensor_numel(const cnnx_tensor* tensor) { return tensor ? tensor->tensor.numel() : 0; }

}  // extern "C"
