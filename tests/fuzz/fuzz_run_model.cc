// libFuzzer target: one fixed, valid model (CNNX_FUZZ_MODEL, default models/shapes/shapes.onnx;
// run_fuzzers.sh uses make_seeds.py's tiny_cnn.onnx, whose free N, H, W make fuzzed shapes reach every
// conv and pool's window arithmetic) run on fuzzed input tensors. The bytes are
//   [mode] [dims...] [element bytes...]
// mode bit 0: 0 = the spec's shape with each unknown dim 1 + (next byte % 12); 1 = a free shape: rank
//             (next byte % 6), each dim (next byte % 8), zero included, so wrong ranks/dims are tried too;
// mode bit 1: backend ref (0) or dnnl (1); bit 2: verify mode (dnnl beside ref per node);
// mode bit 3: feed int64 instead of the spec's element type (must be refused by name).
// The element bytes fill every input in order, repeated when short (so NaN, Inf and denormals occur).
// Any cnnx::Error is accepted; a crash, sanitizer report or other exception is a finding.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "tests/fuzz/fuzz_support.h"

namespace {

struct Models {
  std::unique_ptr<cnnx::Model> ref, dnnl, verify;
};
Models* models = nullptr;

class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t next() { return pos_ < size_ ? data_[pos_++] : 0; }
  const uint8_t* rest() const { return data_ + pos_; }
  size_t rest_size() const { return size_ - pos_; }

 private:
  const uint8_t* data_;
  size_t size_, pos_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* env = std::getenv("CNNX_FUZZ_MODEL");
  std::string path = env && *env ? env : CNNX_SOURCE_DIR "/models/shapes/shapes.onnx";
  models = new Models;
  models->ref = std::make_unique<cnnx::Model>(cnnx::Model::load(path, cnnx::fuzz::fuzz_options(cnnx::Backend::ref)));
  cnnx::Options dnnl = cnnx::fuzz::fuzz_options(cnnx::Backend::dnnl);
  models->dnnl = std::make_unique<cnnx::Model>(cnnx::Model::load(path, dnnl));
  dnnl.verify = true;
  models->verify = std::make_unique<cnnx::Model>(cnnx::Model::load(path, dnnl));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes bytes(data, size);
  uint8_t mode = bytes.next();
  const cnnx::Model& model = !(mode & 2) ? *models->ref : (mode & 4) ? *models->verify : *models->dnnl;

  std::vector<cnnx::Shape> shapes;
  for (const cnnx::TensorSpec& spec : model.inputs()) {
    cnnx::Shape shape;
    if (!(mode & 1) && spec.shape_known) {
      shape = spec.shape;
      for (int64_t& d : shape)
        if (d < 0) d = 1 + bytes.next() % 12;
    } else {
      shape.resize(bytes.next() % 6);
      for (int64_t& d : shape) d = bytes.next() % 8;
    }
    shapes.push_back(shape);
  }
  std::vector<cnnx::Tensor> inputs;
  size_t filled = 0;  // bytes of element data consumed so far, cycling over rest()
  for (size_t i = 0; i < shapes.size(); ++i) {
    cnnx::DType dtype = (mode & 8) ? cnnx::DType::i64 : model.inputs()[i].dtype;
    int64_t numel = 1;
    for (int64_t d : shapes[i]) numel *= d;
    if (numel > cnnx::fuzz::kMaxInputElements) return 0;
    cnnx::Tensor t(dtype, shapes[i]);
    auto* dst = static_cast<uint8_t*>(t.raw());
    if (bytes.rest_size() > 0)
      for (size_t b = 0; b < t.bytes(); ++b, ++filled) dst[b] = bytes.rest()[filled % bytes.rest_size()];
    inputs.push_back(t);
  }
  try {
    std::vector<cnnx::Tensor> outputs = model.run(inputs);
    // The outputs must have the shapes the plan promised (a read of every element catches a short buffer).
    volatile float sink = 0;
    for (const cnnx::Tensor& y : outputs)
      if (y.dtype() == cnnx::DType::f32)
        for (int64_t k = 0; k < y.numel(); ++k) sink = sink + y.data<float>()[k];
  } catch (const cnnx::Error&) {
  }
  return 0;
}
