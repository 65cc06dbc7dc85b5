// Detecting objects in image files with a detector: the records `cnnx run` prints for a model whose outputs
// are detections (`--task detect`, or recognised as below), `cnnx.detect` returns in Python. The sibling of
// classify.h: one place computes them, so the program and the module agree.
//
//   cnnx::Model model = cnnx::Model::load("ssdlite.onnx");
//   for (const cnnx::DetectRecord& r : cnnx::detect_files(model, cnnx::collect_files({"photos/"})))
//     std::cout << cnnx::json_line(r) << "\n";   // {"file": ..., "width": ..., "detections": [...]}
//
// The outputs recognised as detections (find_detection_outputs), one image per run:
//   - boxes + scores + labels (torchvision's detectors, and exports that end in NonMaxSuppression and Gather):
//     boxes float [N, 4] as x1, y1, x2, y2; scores float [N]; labels integer [N] (or float, when the output's
//     name has "label" or "class" in it); each may have a leading batch dim of 1 ([1, N, 4], [1, N]). Other
//     outputs (masks, keypoints, a detection count) are ignored.
//   - one float tensor of rows [1, N, 6]: x1, y1, x2, y2, score, class (YOLO-style exports with NMS inside).
//   - one float tensor of rows [1, 1, N, 7] or [1, N, 7]: image_id, class, score, x1, y1, x2, y2, the box in
//     [0, 1] of the input's width and height (Caffe's and OpenVINO's DetectionOutput); rows whose image_id is
//     negative are padding and skipped.
//   [N, 6] and [N, 7] without the leading 1 are taken only when detection is asked for (a classifier of 6 or 7
//   classes has that shape too).
// Boxes are in the model input's pixels, except the 7-column layout's; the model's metadata
// "cnnx.box_coordinates" ("pixels" or "normalized") says otherwise. Records give them in the pixels of the
// image file: the image is resized whole to the model's input size (stretched, no crop: image_input.h,
// ImagePreprocess::whole), and each box scaled back by the file's width and height over the input's.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "classify/image_files.h"
#include "classify/image_input.h"
#include "api/cnnx.h"

namespace cnnx {

// One object found in one image.
struct Detection {
  std::array<float, 4> box{};  // x1, y1, x2, y2 in the image file's pixels (not clipped to the image)
  float score = 0;             // the model's value
  int64_t index = 0;           // the class the model gives
  std::string label;           // its name, "" when the model has no labels or none for this class
};

// What became of one input file: its detections, or why it has none.
struct DetectRecord {
  std::string file;
  int64_t width = 0, height = 0;      // the image's own size (0 when error is set)
  std::vector<Detection> detections;  // score >= the threshold, best first (ties: the model's order)
  std::string error;                  // "" when the file was run
  bool ok() const { return error.empty(); }
};

// {"box": [x1, y1, x2, y2], "class": I, "label": L, "score": S} ("label" only when there is one; the box and
// score as the shortest decimals that read back as their float32 values: 12.8, not 12.800000190734863) and
// {"file": F, "width": W, "height": H, "detections": [...]} or {"file": F, "error": E}.
void to_json(nlohmann::json& j, const Detection& d);
void to_json(nlohmann::json& j, const DetectRecord& r);
// The record as one line of JSON Lines (no newline): "file" first, then "width", "height", "detections", or
// "error". Bytes of a file name that are not UTF-8 become U+FFFD.
std::string json_line(const DetectRecord& r);

// Which outputs hold the detections, and how.
struct DetectionOutputs {
  enum class Layout { none, boxes_scores_labels, rows6, rows7 } layout = Layout::none;
  size_t boxes = 0, scores = 0, labels = 0;  // output numbers; the rows layouts use `boxes` only
  bool normalized = false;                   // boxes in [0, 1] of the input's width and height
  explicit operator bool() const { return layout != Layout::none; }
};

// The detection outputs among `outputs` (names, types and shapes; a dim < 0 is unknown, and an output whose
// shape is unknown never matches), as the header comment says. `asked`: detection was asked for, so rows
// without the leading 1 ([N, 6], [N, 7]) are taken too. The three-output layout is preferred; among several
// candidates for a role, the one whose name says it ("box", "score", "label" or "class"), else the first.
// `metadata_coordinates` is the model's "cnnx.box_coordinates" ("" when absent); another value than
// "pixels" or "normalized" is a cnnx::Error naming the key.
DetectionOutputs find_detection_outputs(const std::vector<TensorSpec>& outputs, bool asked,
                                        const std::string& metadata_coordinates = "");

// The detection outputs of a run of `model` (find_detection_outputs with asked = true on the outputs' types
// and shapes); a cnnx::Error naming each output, its type and shape when there are none.
DetectionOutputs find_detection_outputs(const Model& model, const std::vector<Tensor>& outputs);

// What `cnnx run --task auto` decides: the model takes one float image input ([3, H, W] or [N, 3, H, W], dims
// possibly unknown) and its declared outputs are detections (find_detection_outputs with asked = false).
bool looks_like_detector(const Model& model);

// The detections in one run's `outputs` (described by `d`; the model's outputs, for the names in errors),
// with score >= threshold (NaN scores never), best first; boxes scaled from the input's `input_width` x
// `input_height` pixels to the image's `image_width` x `image_height` (see the header comment). A shape the
// layout does not allow (boxes and scores of different lengths, a batch of more than one) is a cnnx::Error
// naming the output. Class names from `labels` where it has one for the class.
std::vector<Detection> read_detections(const Model& model, const DetectionOutputs& d, const std::vector<Tensor>& outputs,
                                       double threshold, const std::vector<std::string>& labels,
                                       int64_t input_width, int64_t input_height, int64_t image_width,
                                       int64_t image_height);

struct DetectOptions {
  double threshold = 0.5;           // the least score reported
  ImageOverrides image;             // preprocessing overrides
  std::vector<std::string> labels;  // class names; empty: the model's "cnnx.labels" metadata
};

// Detects objects in `files`, one image per run. Each file is decoded and preprocessed on its own (see
// detection_preprocess_for): a file that cannot be (see not_an_image, load_whole_image) gets a record with its
// error and the rest still run. `emit` is called once per file, in order, with the run's outputs (none for a
// record with an error). The model must take one float image
// input ([3, H, W], or [N, 3, H, W] with N 1 or unknown) and its outputs must be detections
// (find_detection_outputs with asked = true, on the first run's outputs); otherwise, or when a run fails, a
// cnnx::Error is thrown naming the outputs (records already emitted stay emitted).
void detect_files(const Model& model, const std::vector<std::string>& files, const DetectOptions& options,
                  const std::function<void(const DetectRecord&, const std::vector<Tensor>& outputs)>& emit);
// The same, returned together: one record per file, in order.
std::vector<DetectRecord> detect_files(const Model& model, const std::vector<std::string>& files,
                                       const DetectOptions& options = {});

}  // namespace cnnx
