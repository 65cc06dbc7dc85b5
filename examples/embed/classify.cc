// Loads a model once and classifies one input from several threads: the C++ API in a few lines.
// Usage: classify_cpp MODEL.onnx   (feeds a fixed synthetic image; prints the top class per thread)
#include <cnnx/cnnx.h>

#include <algorithm>
#include <iostream>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) { std::cerr << "usage: classify_cpp MODEL.onnx\n"; return 2; }
  try {
    cnnx::Model model = cnnx::Model::load(argv[1]);
    cnnx::Shape shape = model.inputs()[0].shape;
    for (int64_t& d : shape) d = d < 0 ? 1 : d;            // bind the batch dim
    cnnx::Tensor x(cnnx::DType::f32, shape);               // owns a zeroed buffer
    for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = float(i % 7) / 7.f;
    std::vector<std::thread> threads;
    std::vector<int64_t> best(4);
    for (size_t t = 0; t < best.size(); ++t)
      threads.emplace_back([&, t] {
        cnnx::Tensor y = model.run({x})[0];                // thread-safe on one model
        const float* s = y.data<float>();
        best[t] = std::max_element(s, s + y.numel()) - s;
      });
    for (auto& th : threads) th.join();
    for (size_t t = 0; t < best.size(); ++t) std::cout << "thread " << t << ": class " << best[t] << "\n";
    return std::all_of(best.begin(), best.end(), [&](int64_t b) { return b == best[0]; }) ? 0 : 1;
  } catch (const cnnx::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
