// cnnx run MODEL [INPUT ...]: runs the model and prints each output (top-K for classifier scores).
// cnnx run MODEL DIR_OR_FILES... [--batch N] [--jsonl FILE]: folder mode, one JSON line per image file.
// A detector (--task detect, or recognised: classify/detect.h) gets boxes, scores and labels per image instead.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <nlohmann/json.hpp>

#include "classify/classify.h"
#include "classify/detect.h"
#include "classify/image_files.h"
#include "tools/commands.h"
#include "tools/progress_bar.h"

namespace cnnx::tools {

namespace {

struct RunOptions : ModelArgs {
  std::vector<std::string> inputs;
  std::vector<std::string> named_inputs;
  bool verify = false;
  int threads = 0;
  std::string save_dir;
  int top = 5;
  std::string labels_file;
  ImageOverrides image;
  bool json = false;
  int64_t batch = 0;   // folder mode: images per run (0: the model's fixed batch, else 8)
  std::string jsonl;   // folder mode: where the JSON lines go ("" or "-": stdout)
  std::string task = "auto";  // auto, classify or detect
  double threshold = 0.5;     // detection: the least score reported
};

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

// The JSON lines of folder mode: `produce(emit)` emits one record per file of `files`, each written as its
// line (to --jsonl FILE or stdout), a progress bar on stderr when it is a terminal, a summary line on stderr
// at the end ("cnnx: 22 files, 11 classified, 11 errors, 412.5 img/s (batch 8)").
template <class Record, class Produce>
int write_lines(const RunOptions& o, const std::vector<std::string>& files, Produce produce, const char* done,
                const std::string& how) {
  std::ofstream file;
  const bool to_file = !o.jsonl.empty() && o.jsonl != "-";
  if (to_file) {
    file.open(o.jsonl);
    require(bool(file), "cannot write '", o.jsonl, "'");
  }
  std::ostream& out = to_file ? file : std::cout;
  ProgressBar bar(files.size());
  size_t errors = 0;
  const bool lines_on_terminal = !to_file && isatty(STDOUT_FILENO) == 1;
  produce([&](const Record& r) {
    if (lines_on_terminal) bar.clear();
    out << json_line(r) << "\n" << std::flush;
    require(bool(out), "cannot write '", to_file ? o.jsonl : "stdout", "'");
    errors += r.ok() ? 0 : 1;
    bar.advance();
  });
  bar.finish();
  std::cerr << "cnnx: " << plural(files.size(), "file") << ", " << files.size() - errors << " " << done << ", "
            << plural(errors, "error") << ", " << std::fixed << std::setprecision(1) << bar.rate() << " img/s ("
            << how << ")\n";
  return 0;
}

// Folder mode: asked for with --batch or --jsonl, or implied by a folder among the inputs.
bool folder_mode(const RunOptions& o) {
  if (o.batch > 0 || !o.jsonl.empty()) return true;
  std::error_code ec;
  return std::any_of(o.inputs.begin(), o.inputs.end(),
                     [&](const std::string& in) { return std::filesystem::is_directory(in, ec); });
}

// DIR/<output name>.npy for every output (a name's slashes made '_').
void save_outputs(const std::string& dir, const Model& model, const std::vector<Tensor>& outputs) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  require(!ec, "cannot create '", dir, "': ", ec.message());
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string file = model.outputs()[i].name;
    for (char& c : file)
      if (c == '/' || c == '\\' || c == '\0') c = '_';
    if (file.empty() || file == "." || file == "..") file = "output_" + std::to_string(i);
    write_npy((std::filesystem::path(dir) / (file + ".npy")).string(), outputs[i]);
  }
}

// Every file under the inputs, classified in batches: one JSON line each (classify/classify.h). A file that
// cannot be classified is reported on its line and the run goes on; the exit code is 0 once every file has
// its line.
int run_folder(const RunOptions& o, const Model& model) {
  ClassifyOptions co;
  co.top = o.top;
  co.batch = o.batch;
  co.image = o.image;
  co.labels = class_labels(model, o.labels_file);
  const std::vector<std::string> files = collect_files(o.inputs);
  return write_lines<ClassRecord>(
      o, files, [&](const auto& emit) { classify_files(model, files, co, emit); }, "classified",
      "batch " + std::to_string(o.batch > 0 ? o.batch : default_batch(model)));
}

DetectOptions detect_options(const RunOptions& o, const Model& model) {
  DetectOptions d;
  d.threshold = o.threshold;
  d.image = o.image;
  d.labels = class_labels(model, o.labels_file);
  return d;
}

// Folder mode for a detector: one JSON line per file (classify/detect.h), one image per run.
int run_folder_detect(const RunOptions& o, const Model& model) {
  const DetectOptions d = detect_options(o, model);
  const std::vector<std::string> files = collect_files(o.inputs);
  return write_lines<DetectRecord>(
      o, files,
      [&](const auto& emit) {
        detect_files(model, files, d, [&](const DetectRecord& r, const std::vector<Tensor>&) { emit(r); });
      },
      "run", "detect, 1 image per run");
}

// One detection record as text: the file, its size and each detection above the threshold.
void print_detections(const DetectRecord& r, double threshold) {
  std::ostringstream text;  // its own formatting state, so std::cout's stays as it was
  text << r.file << " (" << r.width << "x" << r.height << "): " << plural(r.detections.size(), "detection")
       << " with score >= " << threshold << "\n";
  for (const Detection& d : r.detections) {
    text << "  " << std::fixed << std::setprecision(4) << d.score << "  class " << std::setw(4) << d.index;
    if (!d.label.empty()) text << "  " << d.label;
    text << std::setprecision(1) << "  [" << d.box[0] << ", " << d.box[1] << ", " << d.box[2] << ", " << d.box[3]
         << "]\n";
  }
  std::cout << text.str();
}

// `cnnx run DETECTOR IMAGE...`: each image run alone, its boxes in the image's pixels. A file that cannot be
// read is an error (exit 1), as for a classifier.
int run_detect_images(const RunOptions& o, const Model& model) {
  require(o.save_dir.empty() || o.inputs.size() == 1, "--save writes one run's outputs: give one image with it");
  nlohmann::json report;
  report["model"] = o.model;
  report["backend"] = o.backend;
  report["task"] = "detect";
  report["images"] = nlohmann::json::array();
  detect_files(model, o.inputs, detect_options(o, model), [&](const DetectRecord& r, const std::vector<Tensor>& outputs) {
    require(r.ok(), r.error);
    if (!o.save_dir.empty()) save_outputs(o.save_dir, model, outputs);
    if (o.json)
      report["images"].push_back(r);
    else
      print_detections(r, o.threshold);
  });
  if (o.json) std::cout << report.dump(2) << "\n";
  return 0;
}

nlohmann::json summary(const Tensor& t) {
  nlohmann::json j;
  j["shape"] = t.shape();
  j["dtype"] = dtype_name(t.dtype());
  if (t.numel() == 0) return j;
  double lo = t.double_at(0), hi = lo, sum = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = t.double_at(i);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  j["min"] = lo;
  j["max"] = hi;
  j["mean"] = sum / double(t.numel());
  std::vector<double> head;
  for (int64_t i = 0; i < std::min<int64_t>(t.numel(), 8); ++i) head.push_back(t.double_at(i));
  j["first"] = head;
  return j;
}

int run(const RunOptions& o) {
  Options mo = engine_options(o);
  mo.threads = o.threads;
  mo.verify = o.verify;
  Model model = Model::load(o.model, mo);
  print_warnings(model);
  const bool detect = o.task == "detect" || (o.task == "auto" && looks_like_detector(model));
  if (folder_mode(o)) return detect ? run_folder_detect(o, model) : run_folder(o, model);
  if (detect && o.named_inputs.empty() && !o.inputs.empty() &&
      std::all_of(o.inputs.begin(), o.inputs.end(), [](const std::string& f) { return is_image_file(f); }))
    return run_detect_images(o, model);
  std::vector<Tensor> inputs = load_inputs(model, o.inputs, o.named_inputs, o.image);
  std::vector<std::string> labels = class_labels(model, o.labels_file);
  std::vector<Tensor> outputs = model.run(inputs);
  std::vector<std::string> names;
  for (const TensorSpec& s : model.outputs()) names.push_back(s.name);
  if (!o.save_dir.empty()) save_outputs(o.save_dir, model, outputs);

  nlohmann::json report;
  report["model"] = o.model;
  report["backend"] = o.backend;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& t = outputs[i];
    nlohmann::json out = summary(t);
    out["name"] = names[i];
    if (!detect && is_class_scores(t)) {
      int64_t classes = t.dim(1);
      require(labels.empty() || int64_t(labels.size()) >= classes, "the labels list has ", labels.size(),
              " entries but output '", names[i], "' has ", classes, " classes");
      const bool probabilities = output_is_probability(model, i);
      for (int64_t n = 0; n < t.dim(0); ++n)
        out["top"].push_back(top_classes(t.data<float>() + n * classes, classes, o.top, probabilities, labels));
    }
    report["outputs"].push_back(out);
  }
  DetectRecord found;  // detect: boxes in the pixels of the first input's last two dims
  if (detect) {
    const DetectionOutputs d = find_detection_outputs(model, outputs);
    const Tensor& x = inputs.at(0);
    found.file = o.inputs.empty() ? o.named_inputs.at(0) : o.inputs[0];
    found.width = x.rank() >= 2 ? x.dim(x.rank() - 1) : 1;
    found.height = x.rank() >= 2 ? x.dim(x.rank() - 2) : 1;
    found.detections = read_detections(model, d, outputs, o.threshold, labels, found.width, found.height,
                                       found.width, found.height);
    report["task"] = "detect";
    report["images"] = nlohmann::json::array({found});
  }
  if (o.json) {
    std::cout << report.dump(2) << "\n";
    return 0;
  }
  for (const auto& out : report["outputs"]) {
    std::cout << out["name"].get<std::string>() << ": " << out["dtype"].get<std::string>() << " "
              << to_string(out["shape"].get<Shape>()) << "\n";
    if (out.contains("top")) {
      for (size_t n = 0; n < out["top"].size(); ++n) {
        if (out["top"].size() > 1) std::cout << " [" << n << "] " << (n < o.inputs.size() ? o.inputs[n] : "") << "\n";
        for (const auto& item : out["top"][n]) {
          std::cout << "  " << std::fixed << std::setprecision(4) << item["probability"].get<double>() << "  class "
                    << std::setw(4) << item["class"].get<int64_t>();
          if (item.contains("label")) std::cout << "  " << item["label"].get<std::string>();
          std::cout << std::defaultfloat << "  (score " << item["score"].get<float>() << ")\n";
        }
      }
    } else if (out.contains("min")) {
      std::cout << "  min " << out["min"].get<double>() << "  max " << out["max"].get<double>() << "  mean "
                << out["mean"].get<double>() << "\n";
    }
  }
  if (detect) print_detections(found, o.threshold);
  return 0;
}

}  // namespace

Command add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* sub = add_model_command(app, "run", "Run a model on input files and print its outputs", *o);
  sub->add_option("inputs", o->inputs, "Input files (.npy, .pb, images), bound to the graph inputs in order; or folders and images to classify (or detect in) one by one (folder mode)");
  sub->add_option("--input", o->named_inputs, "NAME=FILE: bind a file to the input NAME");
  add_disable_options(sub, o->disabled_passes, o->disabled_kernels);
  add_backend_option(sub, o->backend, "Kernels to run");
  add_precision_option(sub, o->precision);
  sub->add_flag("--verify", o->verify, "Check every node against the reference kernel");
  add_threads_option(sub, o->threads);
  sub->add_option("--save", o->save_dir, "Write DIR/<output name>.npy for every output");
  sub->add_option("--top", o->top, "Classes to show for classifier outputs")->check(CLI::PositiveNumber);
  sub->add_option("--labels", o->labels_file, "Class names, one per line (default: the model's metadata)");
  sub->add_option("--size", o->image.size, "Image crop size: S or H,W (default: the model's input)")->delimiter(',');
  sub->add_option("--mean", o->image.mean, "Per-channel mean after scaling, e.g. 0.485,0.456,0.406")->delimiter(',');
  sub->add_option("--std", o->image.std, "Per-channel std, e.g. 0.229,0.224,0.225")->delimiter(',');
  sub->add_flag("--json", o->json, "Print one JSON object");
  sub->add_option("--batch", o->batch, "Folder mode: images per run (default: the model's fixed batch, else 8)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--jsonl", o->jsonl, "Folder mode: write the JSON lines to FILE ('-': stdout, the default)");
  sub->add_option("--task", o->task,
                  "auto (default): detection when the outputs are boxes, scores and labels (README), else "
                  "classification; classify or detect to say which")
      ->check(CLI::IsMember({"auto", "classify", "detect"}));
  sub->add_option("--threshold", o->threshold, "Detection: the least score to report (default 0.5)");
  return {sub, [o] {
            if (folder_mode(*o) && (o->json || !o->save_dir.empty() || !o->named_inputs.empty())) {
              std::cerr << "cnnx: error: --json, --save and --input do not apply to folder mode (a folder among "
                           "the inputs, --batch or --jsonl); it writes JSON lines\n";
              return 2;
            }
            return run(*o);
          }};
}

}  // namespace cnnx::tools
