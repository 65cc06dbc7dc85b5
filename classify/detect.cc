#include "classify/detect.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cmath>
#include <cctype>
#include <new>
#include <optional>
#include <nlohmann/json.hpp>

#include "classify/classify.h"

namespace cnnx {

namespace {

bool is_integer(DType t) { return t == DType::i64 || t == DType::i32 || t == DType::i8 || t == DType::u8; }

bool name_has(const std::string& name, std::initializer_list<const char*> words) {
  std::string lower = name;
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return lower.find(w) != std::string::npos; });
}

// Dims equal where both are known.
bool same_dims(const Shape& a, const Shape& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] >= 0 && b[i] >= 0 && a[i] != b[i]) return false;
  return true;
}

bool one_or_unknown(int64_t dim) { return dim < 0 || dim == 1; }

// [N, last] or [1, N, last] (a leading dim 1 or unknown); `last` known.
bool is_rows(const TensorSpec& s, int64_t last) {
  if (!s.shape_known || !is_floating(s.dtype) || s.shape.empty() || s.shape.back() != last) return false;
  return s.shape.size() == 2 || (s.shape.size() == 3 && one_or_unknown(s.shape[0]));
}

// The candidate for a role: the first whose name says it, else the first.
std::optional<size_t> pick(const std::vector<size_t>& candidates, const std::vector<TensorSpec>& outputs,
                           std::initializer_list<const char*> words) {
  if (candidates.empty()) return std::nullopt;
  for (size_t i : candidates)
    if (name_has(outputs[i].name, words)) return i;
  return candidates.front();
}

// The value at `i` of an output whose elements are read as numbers (any element type).
double at(const Tensor& t, int64_t i) { return t.double_at(i); }

int64_t class_of(double v) { return std::isfinite(v) && std::fabs(v) < 9.0e15 ? int64_t(std::llround(v)) : -1; }

// The double whose shortest decimal form is the float's (12.8f prints as 12.8, not 12.800000190734863); it
// reads back as the same float.
double shortest(float v) {
  if (!std::isfinite(v)) return double(v);
  char text[32];
  const std::to_chars_result end = std::to_chars(text, text + sizeof text - 1, v);
  *end.ptr = '\0';
  return std::strtod(text, nullptr);
}

}  // namespace

void to_json(nlohmann::json& j, const Detection& d) {
  j = nlohmann::json{{"box", {shortest(d.box[0]), shortest(d.box[1]), shortest(d.box[2]), shortest(d.box[3])}},
                     {"class", d.index},
                     {"score", shortest(d.score)}};
  if (!d.label.empty()) j["label"] = d.label;
}

void to_json(nlohmann::json& j, const DetectRecord& r) {
  j = nlohmann::json{{"file", r.file}};
  if (r.ok()) {
    j["width"] = r.width;
    j["height"] = r.height;
    j["detections"] = r.detections;
  } else {
    j["error"] = r.error;
  }
}

std::string json_line(const DetectRecord& r) {
  auto dump = [](const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); };
  // "file" first, as in classify.h's records.
  if (!r.ok()) return "{\"file\":" + dump(r.file) + ",\"error\":" + dump(r.error) + "}";
  return "{\"file\":" + dump(r.file) + ",\"width\":" + std::to_string(r.width) + ",\"height\":" +
         std::to_string(r.height) + ",\"detections\":" + dump(r.detections) + "}";
}

DetectionOutputs find_detection_outputs(const std::vector<TensorSpec>& outputs, bool asked,
                                        const std::string& metadata_coordinates) {
  require(metadata_coordinates.empty() || metadata_coordinates == "pixels" || metadata_coordinates == "normalized",
          "cnnx.box_coordinates must be 'pixels' or 'normalized', got '", metadata_coordinates, "'");
  DetectionOutputs d;
  std::vector<size_t> boxes;
  for (size_t i = 0; i < outputs.size(); ++i)
    if (is_rows(outputs[i], 4)) boxes.push_back(i);
  // Boxes first by name, then the first whose scores and labels are there.
  std::stable_partition(boxes.begin(), boxes.end(), [&](size_t i) { return name_has(outputs[i].name, {"box"}); });
  for (size_t b : boxes) {
    const Shape row(outputs[b].shape.begin(), outputs[b].shape.end() - 1);  // [N] or [1, N]
    std::vector<size_t> scores, labels;
    for (size_t i = 0; i < outputs.size(); ++i) {
      const TensorSpec& s = outputs[i];
      if (i == b || !s.shape_known || !same_dims(s.shape, row)) continue;
      if (is_integer(s.dtype) || (is_floating(s.dtype) && name_has(s.name, {"label", "class"})))
        labels.push_back(i);
      else if (is_floating(s.dtype))
        scores.push_back(i);
    }
    const std::optional<size_t> score = pick(scores, outputs, {"score", "conf", "prob"});
    const std::optional<size_t> label = pick(labels, outputs, {"label", "class"});
    if (score && label) {
      d.layout = DetectionOutputs::Layout::boxes_scores_labels;
      d.boxes = b;
      d.scores = *score;
      d.labels = *label;
      break;
    }
  }
  for (size_t i = 0; i < outputs.size() && !d; ++i) {
    const TensorSpec& s = outputs[i];
    const bool seven = s.shape_known && s.shape.size() == 4 && one_or_unknown(s.shape[0]) &&
                       one_or_unknown(s.shape[1]) && is_floating(s.dtype) && s.shape[3] == 7;  // [1, 1, N, 7]
    for (int64_t last : {6, 7})
      if (!d && is_rows(s, last) && (asked || s.shape.size() == 3)) {
        d.layout = last == 6 ? DetectionOutputs::Layout::rows6 : DetectionOutputs::Layout::rows7;
        d.boxes = i;
      }
    if (!d && seven) {
      d.layout = DetectionOutputs::Layout::rows7;
      d.boxes = i;
    }
  }
  d.normalized = metadata_coordinates.empty() ? d.layout == DetectionOutputs::Layout::rows7
                                              : metadata_coordinates == "normalized";
  return d;
}

namespace {

// The model's one image input: float32, [3, H, W] or [N, 3, H, W] (dims possibly unknown); "" or why not.
std::string not_an_image_input(const Model& model) {
  const std::vector<TensorSpec>& in = model.inputs();
  if (in.size() != 1) return "detecting objects in images needs a model with one input; this one takes " + std::to_string(in.size());
  const TensorSpec& s = in[0];
  const size_t rank = s.shape_known ? s.shape.size() : 0;
  const bool image = (rank == 3 || rank == 4) && (s.shape[rank - 3] < 0 || s.shape[rank - 3] == 3);
  if (s.dtype != DType::f32 || !image)
    return "input '" + s.name + "' is " + dtype_name(s.dtype) + " " +
           (s.shape_known ? to_string(s.shape) : std::string("of unknown shape")) +
           ": detection feeds float32 images, [3, H, W] or [N, 3, H, W]";
  if (rank == 4 && s.shape[0] > 1)
    return "input '" + s.name + "' has a fixed batch of " + std::to_string(s.shape[0]) +
           ": detection runs one image per run";
  return "";
}

std::string describe_outputs(const Model& model, const std::vector<Tensor>& outputs) {
  std::string text;
  for (size_t i = 0; i < outputs.size(); ++i)
    text += (i ? ", '" : "'") + model.outputs()[i].name + "' " + dtype_name(outputs[i].dtype()) + " " +
            to_string(outputs[i].shape());
  return text;
}

}  // namespace

DetectionOutputs find_detection_outputs(const Model& model, const std::vector<Tensor>& outputs) {
  std::vector<TensorSpec> ran = model.outputs();
  require(ran.size() == outputs.size(), "the model has ", ran.size(), " outputs; a run gave ", outputs.size());
  for (size_t i = 0; i < ran.size(); ++i) {
    ran[i].dtype = outputs[i].dtype();
    ran[i].shape = outputs[i].shape();
    ran[i].shape_known = true;
  }
  const DetectionOutputs d = find_detection_outputs(ran, true, model.metadata("cnnx.box_coordinates"));
  require(bool(d), "the model's outputs are not detections: ", describe_outputs(model, outputs),
          " (cnnx takes boxes [N, 4] with scores [N] and integer labels [N], or one tensor of rows [N, 6] or "
          "[1, N, 6] (x1, y1, x2, y2, score, class) or [1, 1, N, 7] (image, class, score, x1, y1, x2, y2); see the "
          "README, \"Detection\")");
  return d;
}

bool looks_like_detector(const Model& model) {
  return not_an_image_input(model).empty() &&
         bool(find_detection_outputs(model.outputs(), false, model.metadata("cnnx.box_coordinates")));
}

std::vector<Detection> read_detections(const Model& model, const DetectionOutputs& d, const std::vector<Tensor>& outputs,
                                       double threshold, const std::vector<std::string>& labels,
                                       int64_t input_width, int64_t input_height, int64_t image_width,
                                       int64_t image_height) {
  using Layout = DetectionOutputs::Layout;
  require(std::isfinite(threshold), "the score threshold must be a finite number, got ", threshold);
  auto name = [&](size_t i) { return "output '" + model.outputs().at(i).name + "' "; };
  const Tensor& main = outputs.at(d.boxes);
  // One image per run: a leading batch dim must be 1.
  require(main.rank() == 2 || (main.dim(0) == 1 && (main.rank() < 4 || main.dim(1) == 1)),
          name(d.boxes), to_string(main.shape()), " holds a batch of ", main.dim(0), "; detection runs one image per run");
  const int64_t columns = d.layout == Layout::boxes_scores_labels ? 4 : d.layout == Layout::rows6 ? 6 : 7;
  const int64_t n = main.numel() / columns;
  if (d.layout == Layout::boxes_scores_labels)
    for (size_t i : {d.scores, d.labels})
      require(outputs.at(i).numel() == n, name(i), to_string(outputs[i].shape()), " has ", outputs[i].numel(),
              " values for the ", n, " boxes of ", name(d.boxes), to_string(main.shape()));
  const double sx = d.normalized ? double(image_width) : double(image_width) / double(input_width);
  const double sy = d.normalized ? double(image_height) : double(image_height) / double(input_height);
  std::vector<Detection> found;
  for (int64_t r = 0; r < n; ++r) {
    double score, cls, x1, y1, x2, y2;
    const int64_t o = r * columns;
    if (d.layout == Layout::boxes_scores_labels) {
      score = at(outputs[d.scores], r);
      cls = at(outputs[d.labels], r);
      x1 = at(main, o), y1 = at(main, o + 1), x2 = at(main, o + 2), y2 = at(main, o + 3);
    } else if (d.layout == Layout::rows6) {
      x1 = at(main, o), y1 = at(main, o + 1), x2 = at(main, o + 2), y2 = at(main, o + 3);
      score = at(main, o + 4), cls = at(main, o + 5);
    } else {
      if (at(main, o) < 0) continue;  // padding rows of DetectionOutput
      cls = at(main, o + 1), score = at(main, o + 2);
      x1 = at(main, o + 3), y1 = at(main, o + 4), x2 = at(main, o + 5), y2 = at(main, o + 6);
    }
    if (!(score >= threshold)) continue;  // NaN scores too
    Detection det;
    det.box = {float(x1 * sx), float(y1 * sy), float(x2 * sx), float(y2 * sy)};
    det.score = float(score);
    det.index = class_of(cls);
    if (det.index >= 0 && det.index < int64_t(labels.size())) det.label = labels[size_t(det.index)];
    found.push_back(det);
  }
  std::stable_sort(found.begin(), found.end(), [](const Detection& a, const Detection& b) { return a.score > b.score; });
  return found;
}

void detect_files(const Model& model, const std::vector<std::string>& files, const DetectOptions& o,
                  const std::function<void(const DetectRecord&, const std::vector<Tensor>&)>& emit) {
  const std::string why = not_an_image_input(model);
  require(why.empty(), why);
  require(std::isfinite(o.threshold), "the score threshold must be a finite number, got ", o.threshold);
  const TensorSpec& in = model.inputs()[0];
  const ImagePreprocess p = detection_preprocess_for(model, 0, o.image);
  const std::vector<std::string> labels = o.labels.empty() ? class_labels(model) : o.labels;
  DetectionOutputs d;
  for (const std::string& file : files) {
    DetectRecord r;
    r.file = file;
    r.error = not_an_image(file);
    Tensor x;
    std::vector<Tensor> outputs;
    if (r.ok()) {
      try {
        x = load_whole_image(file, p, r.width, r.height);
        require(x.bytes() <= size_t(model.options().max_tensor_bytes), "'", file, "' is ", r.width, "x", r.height,
                " pixels: over the limit of ", model.options().max_tensor_bytes, " bytes per tensor");
      } catch (const Error& e) {
        r.error = e.what();
      } catch (const std::bad_alloc&) {
        r.error = "'" + file + "': out of memory decoding it";
      }
    }
    if (r.ok()) {
      const int64_t H = x.dim(1), W = x.dim(2);
      if (in.shape_known && in.shape.size() == 4) x = x.reshaped({1, 3, H, W});
      outputs = model.run({x});
      if (!d) d = find_detection_outputs(model, outputs);
      r.detections = read_detections(model, d, outputs, o.threshold, labels, W, H, r.width, r.height);
    }
    emit(r, outputs);
  }
}

std::vector<DetectRecord> detect_files(const Model& model, const std::vector<std::string>& files,
                                       const DetectOptions& options) {
  std::vector<DetectRecord> records;
  detect_files(model, files, options, [&](const DetectRecord& r, const std::vector<Tensor>&) { records.push_back(r); });
  return records;
}

}  // namespace cnnx
