#include <filesystem>

#include "classify/image_input.h"
#include "tools/commands.h"

namespace cnnx::tools {

namespace {

Tensor read_tensor_file(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".npy") return read_npy(path);
  if (ext == ".pb") return read_tensor_proto_file(path);
  fail("input '", path, "': unsupported file type '", ext, "' (expected .npy, .pb, .png, .jpg or .bmp)");
}

}  // namespace

std::vector<Tensor> load_inputs(const Model& model, const std::vector<std::string>& files,
                                const std::vector<std::string>& named, const ImageOverrides& overrides) {
  std::vector<std::string> names;
  for (const TensorSpec& s : model.inputs()) names.push_back(s.name);
  std::vector<Tensor> inputs(names.size());
  size_t next = 0;
  for (size_t i = 0; i < files.size();) {
    require(next < names.size(), "the model takes ", names.size(), " input", names.size() == 1 ? "" : "s",
            "; '", files[i], "' is one too many");
    if (is_image_file(files[i])) {
      std::vector<std::string> batch;
      while (i < files.size() && is_image_file(files[i])) batch.push_back(files[i++]);
      inputs[next] = load_images(batch, image_preprocess_for(model, next, overrides));
    } else {
      inputs[next] = read_tensor_file(files[i++]);
    }
    ++next;
  }
  for (const std::string& pair : named) {
    size_t eq = pair.find('=');
    require(eq != std::string::npos && eq > 0, "--input takes NAME=FILE, got '", pair, "'");
    std::string name = pair.substr(0, eq), file = pair.substr(eq + 1);
    size_t i = 0;
    while (i < names.size() && names[i] != name) ++i;
    require(i < names.size(), "--input: the model has no input named '", name, "'");
    require(!inputs[i].defined(), "input '", name, "' is given twice");
    inputs[i] = is_image_file(file) ? load_images({file}, image_preprocess_for(model, i, overrides))
                                    : read_tensor_file(file);
  }
  for (size_t i = 0; i < names.size(); ++i)
    require(inputs[i].defined(), "input '", names[i], "' is not given (pass a file for each input, in order, or --input ",
            names[i], "=FILE)");
  return inputs;
}

}  // namespace cnnx::tools
