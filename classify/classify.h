// Classifying image files with a model: the records `cnnx run` prints (`--json`, and one JSON line per image
// in folder mode), `cnnx.classify` returns in Python and the Dask classify writes. One place computes them,
// so the three agree.
//
//   cnnx::Model model = cnnx::Model::load("shapes.onnx");
//   for (const cnnx::ClassRecord& r : cnnx::classify_files(model, cnnx::collect_files({"photos/"})))
//     std::cout << cnnx::json_line(r) << "\n";   // {"file": ..., "top": [{"class": 3, ...}, ...]}
//
// A record's "probability" is the model's own value when the output already is a probability distribution
// (see output_is_probability), else the softmax of the scores; "score" is always the raw output value.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "classify/image_files.h"
#include "classify/image_input.h"
#include "api/cnnx.h"

namespace cnnx {

// One of the top classes of one image.
struct ClassScore {
  int64_t index = 0;         // the class: its position in the output row
  std::string label;         // its name, "" when the model has no labels
  double probability = 0;    // see the header comment
  float score = 0;           // the output value
};

// What became of one input file: its top classes, or why it has none.
struct ClassRecord {
  std::string file;
  std::vector<ClassScore> top;  // best first; empty when error is set
  std::string error;            // "" when the file was classified
  bool ok() const { return error.empty(); }
};

// {"file": F, "top": [{"class": I, "label": L, "probability": P, "score": S}, ...]} or {"file": F, "error": E};
// "label" only when there is one. For nlohmann::json's conversions (`nlohmann::json j = record;`).
void to_json(nlohmann::json& j, const ClassScore& s);
void to_json(nlohmann::json& j, const ClassRecord& r);
// The record as one line of JSON Lines (no newline), the form `cnnx run` folder mode writes: "file" first,
// then "top" or "error". Bytes of a file name that are not UTF-8 become U+FFFD.
std::string json_line(const ClassRecord& r);

// Class names: the lines of `file` when given (a file that cannot be read is a cnnx::Error), else the model's
// "cnnx.labels" metadata (newline-separated); trailing empty lines dropped; empty when there are none.
std::vector<std::string> class_labels(const Model& model, const std::string& file = "");

// True for classifier outputs: float32 [N, C] or [N, C, 1, ...] with C >= 2.
bool is_class_scores(const Tensor& t);

// Whether the model's output number `output` already is a probability distribution over the classes, so
// it is reported as it is and never softmaxed a second time. Decided from the graph, once per model: the
// output is computed by a Softmax (ONNX domain) through only Identity, Dropout, Reshape, Flatten, Squeeze
// and Unsqueeze, each batch item's values are one normalized group of that Softmax (its axis, or its axes
// from `axis` on before opset 13, cover every dim past the batch that is not 1) and the output keeps each
// item's count of values (so the reshapes keep the batch axis in place). False when a shape this needs is
// unknown at load, and for LogSoftmax (the softmax of its output is exp of it: the same probabilities).
// The values are not consulted: a row of logits may happen to be non-negative and sum to 1, and the same
// model must report the same kind of number for every image. (The graph is read by output_is_softmax,
// api/tools_facade.h.)
bool output_is_probability(const Model& model, size_t output);

// The best `k` of the `classes` scores in `row` (ties: the lower class first; NaN last), named from `labels`
// (empty, or at least `classes` names). `probabilities`: the row already holds probabilities (reported as
// they are); otherwise its softmax is reported, computed in double.
std::vector<ClassScore> top_classes(const float* row, int64_t classes, int k, bool probabilities,
                                    const std::vector<std::string>& labels);

// The batch the CLI feeds the model for these images (its first input), preprocessed as image_input.h says;
// the first bad file is a cnnx::Error naming it.
Tensor preprocess(const Model& model, const std::vector<std::string>& paths, const ImageOverrides& overrides = {});

struct ClassifyOptions {
  int top = 5;                      // classes per record
  int64_t batch = 0;                // images per run; 0: default_batch(model)
  ImageOverrides image;             // preprocessing overrides
  std::vector<std::string> labels;  // class names; empty: the model's "cnnx.labels" metadata
};

// The model's fixed batch size when its input declares one, else 8.
int64_t default_batch(const Model& model);

// Classifies `files` in batches of options.batch: each file is decoded on its own (a batch's files in
// parallel), so an unreadable, corrupt, empty or oversized image (or a folder, or a file that is not an image:
// see not_an_image) gets a record with its error and the rest of its batch still runs. `emit` is called once
// per file, in the order of `files`, as each batch completes. Folders are not expanded here: pass
// collect_files(dirs_or_files) to classify what `cnnx run MODEL DIR_OR_FILES...` does. The model must take
// one image input and have a class-scores output (the first one is used); otherwise, or when a run fails, or
// the labels are fewer than the classes, a cnnx::Error is thrown (records already emitted stay emitted).
void classify_files(const Model& model, const std::vector<std::string>& files, const ClassifyOptions& options,
                    const std::function<void(const ClassRecord&)>& emit);
// The same, returned together: one record per file, in order.
std::vector<ClassRecord> classify_files(const Model& model, const std::vector<std::string>& files,
                                        const ClassifyOptions& options = {});

}  // namespace cnnx
