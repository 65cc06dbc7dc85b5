#include <filesystem>

#include "engine/npy.h"
#include "engine/onnx_import.h"
#include "tools/commands.h"

namespace cnnx::tools {

namespace {

Tensor read_input_file(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".npy") return read_npy(path);
  if (ext == ".pb") return import_tensor_file(path);
  fail("input '", path, "': unsupported file type '", ext, "' (expected .npy or .pb)");
}

}  // namespace

std::vector<Tensor> load_inputs(const Model& model, const std::vector<std::string>& files,
                                const std::vector<std::string>& named) {
  std::vector<std::string> names = model.input_names();
  std::vector<Tensor> inputs(names.size());
  require(files.size() <= names.size(), "the model takes ", names.size(), " input",
          names.size() == 1 ? "" : "s", ", got ", files.size(), " files");
  for (size_t i = 0; i < files.size(); ++i) inputs[i] = read_input_file(files[i]);
  for (const std::string& pair : named) {
    size_t eq = pair.find('=');
    require(eq != std::string::npos && eq > 0, "--input takes NAME=FILE, got '", pair, "'");
    std::string name = pair.substr(0, eq);
    size_t i = 0;
    while (i < names.size() && names[i] != name) ++i;
    require(i < names.size(), "--input: the model has no input named '", name, "'");
    require(!inputs[i].defined(), "input '", name, "' is given twice");
    inputs[i] = read_input_file(pair.substr(eq + 1));
  }
  for (size_t i = 0; i < names.size(); ++i)
    require(inputs[i].defined(), "input '", names[i], "' is not given (pass a file for each input, in order, or --input ",
            names[i], "=FILE)");
  return inputs;
}

}  // namespace cnnx::tools
