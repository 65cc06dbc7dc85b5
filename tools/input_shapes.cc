// Input shapes for planning without data (`cnnx bench`, `cnnx check`, `cnnx inspect`): --shape NAME=D0,D1,... or
// the declared shape with its batch dim set to --batch; and seeded random inputs of those shapes.
#include <map>
#include <random>

#include "tools/commands.h"

namespace cnnx::tools {

namespace {

Shape parse_shape(const std::string& text, const std::string& name) {
  Shape shape;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    char* end = nullptr;
    long long v = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < 0) fail("--shape ", name, ": '", item, "' is not a non-negative integer");
    shape.push_back(v);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  checked_numel(shape);
  return shape;
}

// "--shape NAME=D0,D1,...": known dims as declared, the batch dim as `batch`, the others from the model's image
// size (cnnx.input_size, H,W) when it has one for an NCHW input, else placeholders D2, D3, ...
std::string shape_hint(const Model& model, const TensorSpec& spec, int64_t batch) {
  std::vector<std::string> image_hw;
  const std::string size = model.metadata("cnnx.input_size");
  if (spec.shape.size() == 4 && !size.empty() && size.find(',') != std::string::npos)
    image_hw = {size.substr(0, size.find(',')), size.substr(size.find(',') + 1)};
  std::string hint = "--shape " + spec.name + "=";
  for (size_t d = 0; d < spec.shape.size(); ++d) {
    if (d) hint += ",";
    if (spec.shape[d] >= 0) hint += std::to_string(spec.shape[d]);
    else if (d == 0) hint += std::to_string(batch);
    else if (!image_hw.empty() && d >= 2) hint += image_hw[d - 2];
    else hint += "D" + std::to_string(d);
  }
  return hint;
}

}  // namespace

std::vector<Shape> planning_shapes(const Model& model, const std::vector<std::string>& shape_options, int64_t batch) {
  std::map<std::string, Shape> given;
  for (const std::string& s : shape_options) {
    size_t eq = s.find('=');
    require(eq != std::string::npos && eq > 0, "--shape takes NAME=D0,D1,..., got '", s, "'");
    given[s.substr(0, eq)] = parse_shape(s.substr(eq + 1), s.substr(0, eq));
  }
  for (const auto& [name, shape] : given) {
    bool known = false;
    for (const TensorSpec& spec : model.inputs()) known = known || spec.name == name;
    require(known, "--shape: the model has no input named '", name, "'");
  }
  std::vector<Shape> shapes;
  for (const TensorSpec& spec : model.inputs()) {
    if (auto it = given.find(spec.name); it != given.end()) {
      shapes.push_back(it->second);
      continue;
    }
    require(spec.shape_known, "input '", spec.name, "' has no declared shape; give --shape ", spec.name, "=...");
    Shape shape = spec.shape;
    for (size_t d = 1; d < shape.size(); ++d)
      require(shape[d] >= 0, "input '", spec.name, "' has unknown dims ", to_string(spec.shape), ": give ",
              shape_hint(model, spec, batch));
    if (!shape.empty() && shape[0] < 0) shape[0] = batch;
    shapes.push_back(shape);
  }
  return shapes;
}

std::vector<Tensor> random_inputs(const Model& model, const std::vector<Shape>& shapes, unsigned seed,
                                  const std::string& float_only) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const TensorSpec& spec = model.inputs()[i];
    require(spec.dtype == DType::f32, "input '", spec.name, "' is ", dtype_name(spec.dtype), "; ", float_only);
    Tensor t(DType::f32, shapes[i]);
    for (int64_t j = 0; j < t.numel(); ++j) t.data<float>()[j] = uniform(rng);
    inputs.push_back(t);
  }
  return inputs;
}

}  // namespace cnnx::tools
