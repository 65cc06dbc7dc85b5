#include "classify/classify.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <new>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

#include "api/tools_facade.h"

namespace cnnx {

namespace {

constexpr int64_t kDefaultBatch = 8;

// Softmax of one row, in double so large logits neither overflow nor lose the small probabilities.
std::vector<double> softmax(const float* scores, int64_t classes) {
  double hi = -INFINITY;
  for (int64_t i = 0; i < classes; ++i) hi = std::max(hi, double(scores[i]));
  std::vector<double> p(static_cast<size_t>(classes));
  double sum = 0;
  for (int64_t i = 0; i < classes; ++i) sum += p[size_t(i)] = std::exp(double(scores[i]) - hi);
  for (double& v : p) v /= sum;
  return p;
}

// The first output holding class scores, found on a run's outputs.
size_t scores_output(const Model& model, const std::vector<Tensor>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i)
    if (is_class_scores(outputs[i])) return i;
  fail("no output of the model holds class scores (float32 [N, C]); its first is '", model.outputs().at(0).name,
       "' ", to_string(outputs.at(0).shape()));
}

// Decodes each file into its slot of `x`, the files in parallel (one image each) on `threads`, the team the
// model runs on (run_team: its pool would otherwise spin idle through a serial decode), then packs the good
// ones from slot 0 in order. A file that fails gets its record's error instead. Returns how many decoded.
int64_t decode(const std::vector<std::string>& files, const ImagePreprocess& p, int threads, Tensor& x,
               std::vector<ClassRecord>& records) {
  const int64_t image_floats = 3 * p.height * p.width;
  const int64_t n = int64_t(files.size());
#pragma omp parallel for schedule(dynamic) num_threads(threads)
  for (int64_t i = 0; i < n; ++i) {
    ClassRecord& r = records[size_t(i)];
    r.file = files[size_t(i)];
    r.error = not_an_image(r.file);
    if (!r.ok()) continue;
    try {
      load_image(r.file, p, x.data<float>() + i * image_floats);
    } catch (const Error& e) {
      r.error = e.what();
    } catch (const std::bad_alloc&) {
      r.error = "'" + r.file + "': out of memory decoding it";
    }
  }
  int64_t good = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!records[size_t(i)].ok()) continue;
    float* data = x.data<float>();
    if (good != i) std::copy_n(data + i * image_floats, image_floats, data + good * image_floats);
    ++good;
  }
  return good;
}

}  // namespace

void to_json(nlohmann::json& j, const ClassScore& s) {
  j = nlohmann::json{{"class", s.index}, {"score", s.score}, {"probability", s.probability}};
  // A probability that is a float32 (the model's own) prints as that float, "0.5772" rather than its double
  // widening 0.5771999955177307: the same value, read back exactly.
  const float narrow = float(s.probability);
  if (double(narrow) == s.probability) j["probability"] = narrow;
  if (!s.label.empty()) j["label"] = s.label;
}

void to_json(nlohmann::json& j, const ClassRecord& r) {
  j = nlohmann::json{{"file", r.file}};
  if (r.ok())
    j["top"] = r.top;
  else
    j["error"] = r.error;
}

std::string json_line(const ClassRecord& r) {
  auto dump = [](const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); };
  // "file" first, for people reading the lines (a json object would sort "error" before it).
  return "{\"file\":" + dump(r.file) + (r.ok() ? ",\"top\":" + dump(r.top) : ",\"error\":" + dump(r.error)) + "}";
}

std::vector<std::string> class_labels(const Model& model, const std::string& file) {
  std::string text;
  if (!file.empty()) {
    std::ifstream f(file);
    require(bool(f), "cannot read labels file '", file, "'");
    text.assign(std::istreambuf_iterator<char>(f), {});
  } else {
    text = model.metadata("cnnx.labels");
  }
  std::vector<std::string> labels;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    labels.push_back(line);
  }
  while (!labels.empty() && labels.back().empty()) labels.pop_back();
  return labels;
}

bool is_class_scores(const Tensor& t) {
  if (t.dtype() != DType::f32 || t.rank() < 2 || t.dim(1) < 2) return false;
  for (int64_t d = 2; d < t.rank(); ++d)
    if (t.dim(d) != 1) return false;
  return true;
}

bool output_is_probability(const Model& model, size_t output) { return output_is_softmax(model, output); }

std::vector<ClassScore> top_classes(const float* row, int64_t classes, int k, bool probabilities,
                                    const std::vector<std::string>& labels) {
  require(labels.empty() || int64_t(labels.size()) >= classes, "the labels list has ", labels.size(),
          " entries but the output has ", classes, " classes");
  std::vector<int64_t> idx(static_cast<size_t>(classes));
  std::iota(idx.begin(), idx.end(), 0);
  size_t kk = std::min<size_t>(size_t(std::max(k, 0)), idx.size());
  // NaN sorts last so it never hides a real score.
  auto greater = [&](int64_t a, int64_t b) {
    float x = row[a], y = row[b];
    if (x != x) return false;
    if (y != y) return true;
    return x > y || (x == y && a < b);
  };
  std::partial_sort(idx.begin(), idx.begin() + long(kk), idx.end(), greater);
  std::vector<double> softmaxed = probabilities ? std::vector<double>{} : softmax(row, classes);
  std::vector<ClassScore> top;
  for (size_t i = 0; i < kk; ++i) {
    const size_t c = size_t(idx[i]);
    top.push_back({idx[i], labels.empty() ? "" : labels[c], probabilities ? double(row[c]) : softmaxed[c], row[c]});
  }
  return top;
}

Tensor preprocess(const Model& model, const std::vector<std::string>& paths, const ImageOverrides& overrides) {
  return load_images(paths, image_preprocess_for(model, 0, overrides));
}

int64_t default_batch(const Model& model) {
  const std::vector<TensorSpec>& inputs = model.inputs();
  if (!inputs.empty() && inputs[0].shape_known && !inputs[0].shape.empty() && inputs[0].shape[0] > 0)
    return inputs[0].shape[0];
  return kDefaultBatch;
}

void classify_files(const Model& model, const std::vector<std::string>& files, const ClassifyOptions& o,
                    const std::function<void(const ClassRecord&)>& emit) {
  const std::vector<TensorSpec>& inputs = model.inputs();
  require(inputs.size() == 1, "classifying images needs a model with one input; this one takes ", inputs.size());
  const TensorSpec& in = inputs[0];
  const bool fixed = in.shape_known && !in.shape.empty() && in.shape[0] > 0;
  const int64_t batch = o.batch > 0 ? o.batch : default_batch(model);
  require(!fixed || batch == in.shape[0], "input '", in.name, "' has a fixed batch of ", in.shape[0],
          "; a batch of ", batch, " cannot be fed");
  const ImagePreprocess p = image_preprocess_for(model, 0, o.image);
  const int64_t image_bytes = 3 * p.height * p.width * int64_t(sizeof(float));
  require(batch <= model.options().max_tensor_bytes / image_bytes, "a batch of ", batch, " images of ", p.height,
          "x", p.width, " is over the limit of ", model.options().max_tensor_bytes, " bytes per tensor");
  const std::vector<std::string> labels = o.labels.empty() ? class_labels(model) : o.labels;

  Tensor x(DType::f32, {batch, 3, p.height, p.width});
  for (size_t start = 0; start < files.size(); start += size_t(batch)) {
    const std::vector<std::string> chunk(files.begin() + long(start),
                                         files.begin() + long(std::min(files.size(), start + size_t(batch))));
    std::vector<ClassRecord> records(chunk.size());
    const int64_t good = decode(chunk, p, run_team(model), x, records);
    if (good > 0) {
      // A fixed batch runs whole (the slots past `good` hold earlier images or zeros, and are ignored).
      const int64_t fed = fixed ? batch : good;
      Tensor view = Tensor::borrow(DType::f32, {fed, 3, p.height, p.width}, x.raw());
      const std::vector<Tensor> outputs = model.run({view});
      const size_t out = scores_output(model, outputs);
      const Tensor& scores = outputs[out];
      require(scores.dim(0) == fed, "output '", model.outputs()[out].name, "' has ", scores.dim(0),
              " rows for a batch of ", fed, " images");
      const int64_t classes = scores.dim(1);
      const bool probabilities = output_is_probability(model, out);
      int64_t row = 0;
      for (ClassRecord& r : records)
        if (r.ok()) r.top = top_classes(scores.data<float>() + row++ * classes, classes, o.top, probabilities, labels);
    }
    for (const ClassRecord& r : records) emit(r);
  }
}

std::vector<ClassRecord> classify_files(const Model& model, const std::vector<std::string>& files,
                                        const ClassifyOptions& options) {
  std::vector<ClassRecord> records;
  classify_files(model, files, options, [&](const ClassRecord& r) { records.push_back(r); });
  return records;
}

}  // namespace cnnx
