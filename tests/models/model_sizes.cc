// One loaded cnnx::Model run at several input shapes: plans are made per input shape and cached, and every
// shape-dependent value (Shape -> Gather -> Reshape/Expand/ConstantOfShape/Range chains) must follow the input.
//
//   cnnx_model_sizes MODEL ref|dnnl OUT_DIR INPUT.npy...
//
// Loads MODEL once, runs the inputs in order and then the first one again (its plan, cached, after another
// shape's), writing OUT_DIR/output_<run>.npy for each run (runs 0..N). Exits 1 with a message on any error, or
// when the inputs do not have at least two different shapes (the test would check nothing).
#include <filesystem>
#include <iostream>
#include <set>

#include "engine/npy.h"
#include "api/cnnx.h"
#include "runtime/plan.h"

int main(int argc, char** argv) {
  if (argc < 5) {
    std::cerr << "usage: cnnx_model_sizes MODEL ref|dnnl OUT_DIR INPUT.npy...\n";
    return 2;
  }
  try {
    cnnx::Options options;
    options.backend = cnnx::parse_backend(argv[2]);
    const cnnx::Model model = cnnx::Model::load(argv[1], options);
    std::filesystem::create_directories(argv[3]);
    std::vector<std::string> files(argv + 4, argv + argc);
    std::set<std::string> shapes;
    for (const std::string& f : files) shapes.insert(cnnx::to_string(cnnx::read_npy(f).shape()));
    if (shapes.size() < 2) {
      std::cerr << "cnnx_model_sizes: the inputs all have shape " << *shapes.begin() << "; give two shapes\n";
      return 1;
    }
    files.push_back(files.front());
    for (size_t run = 0; run < files.size(); ++run) {
      cnnx::Tensor input = cnnx::read_npy(files[run]);
      cnnx::Tensor output = model.run({input}).at(0);
      std::string out = std::string(argv[3]) + "/output_" + std::to_string(run) + ".npy";
      cnnx::write_npy(out, output);
      std::cout << "run " << run << ": " << files[run] << " " << cnnx::to_string(input.shape()) << " -> "
                << cnnx::to_string(output.shape()) << " " << out << "\n";
    }
  } catch (const cnnx::Error& e) {
    std::cerr << "cnnx_model_sizes: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
