// cnnx check MODEL [INPUT ...]: runs the model with the chosen backend and the reference kernel beside every
// node, prints a per-node table (op, kernel, max abs and rel error, the largest error as a fraction of its
// element's tolerance, the tolerance) and exits 1 when any node is beyond its op's tolerance. Without input
// files, float inputs are filled with seeded uniform [-1, 1) values (shapes from --shape, or the declared ones
// with the batch dim set to --batch).
// cnnx check MODEL [INPUT ... | IMAGES | DIR] --precision bf16: the accuracy cost of bfloat16 instead: the
// model run in float32 and in bfloat16 (emulated where the CPU cannot run it: PrecisionReport) on the same
// inputs; per output the max abs and relative error, top-1 agreement and top-5 overlap over the images when
// the first output is class scores (a folder: every image below it, in batches, a progress bar on stderr), and
// the nodes where the error grows most (on the first batch). Exits 0: it measures, it does not judge.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>

#include "classify/classify.h"
#include "classify/image_files.h"
#include "tools/commands.h"
#include "tools/progress_bar.h"

namespace cnnx::tools {

namespace {

struct CheckOptions : ModelArgs {
  std::vector<std::string> inputs;
  std::vector<std::string> shapes;  // NAME=D0,D1,...
  int64_t batch = 1;
  unsigned seed = 1;
};

// Top-1 agreement and top-5 overlap of two batches of class scores, summed over the rows.
struct Agreement {
  int64_t rows = 0, top1 = 0, top5 = 0;  // top5: classes in both top-5s, summed
  void add(const Tensor& want, const Tensor& got) {
    if (!is_class_scores(want) || want.shape() != got.shape()) return;
    const int64_t n = want.shape()[0], classes = want.numel() / n;
    const int k = int(std::min<int64_t>(5, classes));
    for (int64_t r = 0; r < n; ++r) {
      const auto a = top_classes(want.data<float>() + r * classes, classes, k, true, {});
      const auto b = top_classes(got.data<float>() + r * classes, classes, k, true, {});
      ++rows;
      top1 += a[0].index == b[0].index ? 1 : 0;
      for (const ClassScore& x : a)
        top5 += std::any_of(b.begin(), b.end(), [&](const ClassScore& y) { return y.index == x.index; }) ? 1 : 0;
    }
  }
};

void print_errors(const std::vector<ValueError>& rows, bool nodes) {
  for (const ValueError& e : rows) {
    std::cout << "  " << std::left << std::setw(32) << e.name;
    if (nodes) std::cout << std::setw(20) << e.op_type << std::setw(6) << e.precision;
    std::cout << std::right << std::scientific << std::setprecision(2) << std::setw(12) << e.max_abs << std::setw(12)
              << e.rel;
    if (nodes) std::cout << std::setw(12) << e.growth;
    std::cout << std::defaultfloat << "\n";
  }
}

// --precision bf16: the report described at the top.
int check_precision(const CheckOptions& o) {
  ModelArgs fp32 = o;
  fp32.precision = "fp32";
  Model reference = Model::load(o.model, engine_options(fp32));
  Model asked = Model::load(o.model, engine_options(o));
  print_warnings(asked);
  const PrecisionReport precision = precision_report(asked);
  Model other = precision.used == Precision::bf16 ? asked : bfloat16_emulated(reference);
  std::cout << "bfloat16 against float32: " << precision_report(other).why << "\n";
  std::error_code ec;
  const bool folder = std::any_of(o.inputs.begin(), o.inputs.end(),
                                  [&](const std::string& in) { return std::filesystem::is_directory(in, ec); });
  std::vector<std::vector<Tensor>> batches;  // inputs of each run (one run unless a folder)
  std::vector<std::string> images;
  if (folder) {
    for (const std::string& f : collect_files(o.inputs))
      if (not_an_image(f).empty()) images.push_back(f);
    require(!images.empty(), "no image files under the inputs given");
  } else {
    batches.push_back(o.inputs.empty() ? random_inputs(reference, planning_shapes(reference, o.shapes, o.batch), o.seed,
                                                       "cnnx check makes only float32 inputs, pass input files")
                                       : load_inputs(reference, o.inputs, {}));
  }
  const size_t per_run = size_t(default_batch(reference));
  const size_t runs = folder ? (images.size() + per_run - 1) / per_run : 1;
  ProgressBar bar(folder ? images.size() : 0);
  Agreement agree;
  std::vector<ValueError> outputs;
  std::vector<ValueError> nodes;
  for (size_t r = 0; r < runs; ++r) {
    std::vector<Tensor> inputs;
    size_t count = 0;
    if (folder) {
      const size_t from = r * per_run;
      count = std::min(per_run, images.size() - from);
      const std::vector<std::string> batch(images.begin() + long(from), images.begin() + long(from + count));
      inputs = {preprocess(reference, batch)};
    } else {
      inputs = batches[0];
    }
    PrecisionComparison c = compare_precisions(reference, other, inputs);
    if (r == 0) nodes = c.nodes;
    if (outputs.empty()) outputs = c.outputs;
    for (size_t i = 0; i < outputs.size() && i < c.outputs.size(); ++i) {
      outputs[i].max_abs = std::max(outputs[i].max_abs, c.outputs[i].max_abs);
      outputs[i].rel = std::max(outputs[i].rel, c.outputs[i].rel);
    }
    if (!c.reference.empty()) agree.add(c.reference[0], c.other[0]);
    bar.advance(count);
  }
  bar.finish();
  std::cout << "outputs" << std::setw(52) << "max abs" << std::setw(12) << "max rel (of max |fp32|)\n";
  print_errors(outputs, false);
  if (agree.rows > 0)
    std::cout << std::fixed << std::setprecision(4) << "top-1 agreement: " << agree.top1 << "/" << agree.rows << " ("
              << double(agree.top1) / double(agree.rows) << "), top-5 overlap: "
              << double(agree.top5) / double(5 * agree.rows) << " (mean of |top-5 fp32 & top-5 bf16| / 5)\n"
              << std::defaultfloat;
  std::sort(nodes.begin(), nodes.end(), [](const ValueError& a, const ValueError& b) { return a.growth > b.growth; });
  if (nodes.size() > 10) nodes.resize(10);
  std::cout << "nodes where the error grows most (rel: max error / max |fp32| of the value; growth: rel minus that "
               "of its inputs)\n  "
            << std::left << std::setw(32) << "value" << std::setw(20) << "op" << std::setw(6) << "prec" << std::right
            << std::setw(12) << "max abs" << std::setw(12) << "rel" << std::setw(12) << "growth\n";
  print_errors(nodes, true);
  return 0;
}

int check(const CheckOptions& o) {
  if (o.precision != "fp32") return check_precision(o);
  Model model = Model::load(o.model, engine_options(o));
  print_warnings(model);
  std::vector<Tensor> inputs =
      o.inputs.empty() ? random_inputs(model, planning_shapes(model, o.shapes, o.batch), o.seed,
                                       "cnnx check makes only float32 inputs, pass input files")
                       : load_inputs(model, o.inputs, {});
  std::vector<NodeCheck> checks = model.check(inputs);
  std::cout << std::left << std::setw(32) << "node" << std::setw(20) << "op" << std::setw(8) << "kernel"
            << std::right << std::setw(12) << "max abs" << std::setw(12) << "max rel" << std::setw(10) << "of tol"
            << "  tolerance (abs+rel[+terms_rel*sqrt(K+2)*sum|terms|])" << "\n";
  int beyond = 0;
  for (const NodeCheck& c : checks) {
    std::cout << std::left << std::setw(32) << c.node << std::setw(20) << c.op_type << std::setw(8) << c.kernel
              << std::right << std::scientific << std::setprecision(2) << std::setw(12) << c.max_abs
              << std::setw(12) << c.max_rel << std::setw(10) << c.max_ratio << "  " << c.tol_abs << "+" << c.tol_rel;
    if (c.tol_terms_rel > 0) std::cout << "+" << c.tol_terms_rel << "*sqrt(K+2)*sum|terms|";
    std::cout << std::defaultfloat << (c.within ? "" : "  BEYOND: " + c.detail) << "\n";
    beyond += c.within ? 0 : 1;
  }
  std::cout << checks.size() << " nodes checked against the reference kernels, " << beyond << " beyond tolerance\n";
  return beyond ? 1 : 0;
}

}  // namespace

Command add_check_command(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* sub = add_model_command(
      app, "check", "Compare every node's kernel with the reference kernel, or (--precision bf16) bfloat16 with float32", *o);
  sub->add_option("inputs", o->inputs,
                  "Input files (default: seeded random float inputs); with --precision bf16 also a folder of images");
  add_disable_options(sub, o->disabled_passes, o->disabled_kernels);
  add_backend_option(sub, o->backend, "Kernels to check");
  add_precision_option(sub, o->precision);
  add_shape_options(sub, o->shapes, o->batch, "a random input", " of random inputs", CLI::NonNegativeNumber);
  sub->add_option("--seed", o->seed, "Seed for random inputs");
  return {sub, [o] { return check(*o); }};
}

}  // namespace cnnx::tools
