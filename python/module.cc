// The extension module cnnx._cnnx: cnnx::Model (api/cnnx.h) for Python. The package's __init__.py
// re-exports it as cnnx.Model and builds the onnxruntime-style InferenceSession on it (cnnx/session.py).
//
// A run converts its inputs (python/arrays.h) under the GIL, releases the GIL while the model runs, and
// hands out outputs that keep their buffers alive; one Model may run from many Python threads at once.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "api/tools_facade.h"
#include "classify/classify.h"
#include "classify/detect.h"
#include "python/arrays.h"

namespace py = pybind11;
using namespace py::literals;

namespace cnnx::python {
namespace {

// A graph input or output as onnxruntime's NodeArg shows it, plus its numpy dtype.
struct TensorInfo {
  std::string name;
  py::object shape;  // list of int, str (a named symbolic dim) or None (an unnamed one); None when unknown
  std::string type;  // "tensor(float)"
  py::object dtype;  // numpy's dtype; None for bfloat16, which numpy lacks

  explicit TensorInfo(const TensorSpec& s) : name(s.name), type(onnx_type_name(s.dtype)) {
    dtype = s.dtype == DType::bf16 ? py::none() : py::object(numpy_dtype(s.dtype));
    if (!s.shape_known) return;
    py::list dims;
    for (size_t d = 0; d < s.shape.size(); ++d) {
      if (s.shape[d] >= 0)
        dims.append(s.shape[d]);
      else if (!s.dim_names[d].empty())
        dims.append(s.dim_names[d]);
      else
        dims.append(py::none());
    }
    shape = dims;
  }
};

// onnxruntime's ModelMetadata: what the model file says about itself.
struct ModelMetadata {
  std::string producer_name, graph_name, domain, description, graph_description;
  int64_t version = 0;
  std::map<std::string, std::string> custom_metadata_map;
};

// A loaded model and its settings, as Python sees it.
class PyModel {
 public:
  PyModel(const py::object& path_or_bytes, int threads, const std::string& backend, bool verify,
          std::vector<std::string> disable_passes, std::vector<std::string> disable_kernels,
          const std::string& precision)
      : model_(load(path_or_bytes, options(threads, backend, verify, std::move(disable_passes),
                                           std::move(disable_kernels), precision))) {
    const PrecisionReport p = precision_report(model_);
    if (p.used != p.requested && PyErr_WarnEx(PyExc_RuntimeWarning, p.why.c_str(), 1) != 0)
      throw py::error_already_set();
  }

  const Model& model() const { return model_; }

  std::vector<TensorInfo> inputs() const { return infos(model_.inputs()); }
  std::vector<TensorInfo> outputs() const { return infos(model_.outputs()); }

  ModelMetadata modelmeta() const {
    const ModelReport g = model_report(model_);
    return {g.producer, g.graph_name, g.domain, g.description, g.graph_description, g.model_version, g.metadata};
  }

  // Outputs in outputs() order. `info`, when given, gets what the run did.
  std::vector<py::array> run_list(const py::dict& feeds, RunInfo* info) const {
    std::vector<py::object> keep_alive;
    std::vector<Tensor> inputs = input_tensors(feeds, keep_alive);
    std::vector<Tensor> outputs;
    RunInfo ran;
    {
      py::gil_scoped_release release;
      outputs = model_.run(inputs, &ran);
    }
    if (info) *info = ran;
    std::vector<py::array> arrays;
    for (Tensor& t : outputs) arrays.push_back(output_array(std::move(t)));
    return arrays;
  }

  py::dict run(const py::dict& feeds, RunInfo* info) const {
    std::vector<py::array> arrays = run_list(feeds, info);
    py::dict out;
    for (size_t i = 0; i < arrays.size(); ++i) out[py::str(model_.outputs()[i].name)] = arrays[i];
    return out;
  }

  // model(x) for a one-input model: the output, or a tuple of the outputs in order.
  py::object call(const py::object& x) const {
    std::vector<py::array> arrays = run_list(single_feed(x), nullptr);
    if (arrays.size() == 1) return arrays[0];
    return py::tuple(py::cast(arrays));
  }

  std::vector<NodeCheck> check(const py::object& feeds_or_array) const {
    py::dict feeds =
        py::isinstance<py::dict>(feeds_or_array) ? py::dict(feeds_or_array) : single_feed(feeds_or_array);
    std::vector<py::object> keep_alive;
    std::vector<Tensor> inputs = input_tensors(feeds, keep_alive);
    py::gil_scoped_release release;
    return model_.check(inputs);
  }

 private:
  static Options options(int threads, const std::string& backend, bool verify, std::vector<std::string> passes,
                         std::vector<std::string> kernels, const std::string& precision) {
    Options o;
    o.threads = threads;
    o.backend = parse_backend(backend);
    o.precision = parse_precision(precision);
    o.verify = verify;
    o.disabled_passes = std::move(passes);
    o.disabled_kernels = std::move(kernels);
    return o;
  }

  // From bytes (the model itself), or a path as str or os.PathLike. Parsing runs without the GIL.
  static Model load(const py::object& path_or_bytes, const Options& options) {
    if (py::isinstance<py::bytes>(path_or_bytes)) {
      std::string_view bytes = path_or_bytes.cast<std::string_view>();
      py::gil_scoped_release release;
      return Model::load_from_bytes(bytes.data(), bytes.size(), options);
    }
    std::string path = py::module_::import("os").attr("fspath")(path_or_bytes).cast<std::string>();
    py::gil_scoped_release release;
    return Model::load(path, options);
  }

  static std::vector<TensorInfo> infos(const std::vector<TensorSpec>& specs) {
    return {specs.begin(), specs.end()};
  }

  py::dict single_feed(const py::object& x) const {
    const std::vector<TensorSpec>& specs = model_.inputs();
    if (specs.size() != 1)
      fail("the model takes ", specs.size(), " inputs: call run({name: array, ...}) instead");
    py::dict feeds;
    feeds[py::str(specs[0].name)] = x;
    return feeds;
  }

  // The feeds in inputs() order, each read as python/arrays.h says. Unknown and missing names are errors
  // naming them, as in Model::run.
  std::vector<Tensor> input_tensors(const py::dict& feeds, std::vector<py::object>& keep_alive) const {
    const std::vector<TensorSpec>& specs = model_.inputs();
    std::vector<Tensor> inputs;
    for (const TensorSpec& s : specs) {
      py::str name(s.name);
      require(feeds.contains(name), "input '", s.name, "' is not given");
      inputs.push_back(input_tensor(s, py::object(feeds[name]), keep_alive));
    }
    if (feeds.size() != specs.size())
      for (const auto& [key, value] : feeds) {
        std::string name = py::str(key);
        bool known = false;
        for (const TensorSpec& s : specs) known = known || s.name == name;
        require(known, "the model has no input named '", name, "'");
      }
    return inputs;
  }

  Model model_;
};

// The batch the cnnx program feeds `model` for these image files.
py::array preprocess_images(const PyModel& model, const std::vector<std::string>& paths) {
  Tensor batch;
  {
    py::gil_scoped_release release;
    batch = preprocess(model.model(), paths);
  }
  return output_array(std::move(batch));
}

// The records of `cnnx run MODEL FILES... --jsonl`, as the JSON text it writes: one line per file, in order.
std::vector<std::string> classify_json(const PyModel& model, const std::vector<std::string>& files, int top,
                                       int64_t batch) {
  require(top >= 1, "top must be at least 1, got ", top);
  require(batch >= 0, "batch must be >= 0, got ", batch);
  ClassifyOptions options;
  options.top = top;
  options.batch = batch;
  std::vector<std::string> lines;
  py::gil_scoped_release release;
  classify_files(model.model(), files, options, [&](const ClassRecord& r) { lines.push_back(json_line(r)); });
  return lines;
}

// The records of `cnnx run DETECTOR FILES... --jsonl` (--task detect), as the JSON text it writes: one line per
// file, in order.
std::vector<std::string> detect_json(const PyModel& model, const std::vector<std::string>& files, double threshold) {
  DetectOptions options;
  options.threshold = threshold;
  std::vector<std::string> lines;
  py::gil_scoped_release release;
  detect_files(model.model(), files, options,
               [&](const DetectRecord& r, const std::vector<Tensor>&) { lines.push_back(json_line(r)); });
  return lines;
}

std::string repr(const TensorInfo& t) {
  return "TensorInfo(name=" + py::repr(py::str(t.name)).cast<std::string>() +
         ", shape=" + py::repr(t.shape).cast<std::string>() + ", type='" + t.type + "')";
}

std::string repr(const NodeCheck& c) {
  return detail::concat("NodeCheck(node='", c.node, "', op_type='", c.op_type, "', kernel='", c.kernel,
                        "', max_abs=", c.max_abs, ", max_rel=", c.max_rel, ", tol_abs=", c.tol_abs,
                        ", tol_rel=", c.tol_rel, ", within=", c.within ? "True" : "False", ")");
}

}  // namespace
}  // namespace cnnx::python

PYBIND11_MODULE(_cnnx, m) {
  using namespace cnnx::python;
  m.doc() = "cnnx: a minimal CNN inference engine (the compiled part of the cnnx package)";
  m.attr("__version__") = CNNX_VERSION;
  py::register_exception<cnnx::Error>(m, "Error", PyExc_RuntimeError);

  py::class_<TensorInfo>(m, "TensorInfo", "A graph input or output (onnxruntime's NodeArg)")
      .def_readonly("name", &TensorInfo::name)
      .def_readonly("shape", &TensorInfo::shape, "ints, str for a named symbolic dim, None for an unnamed one")
      .def_readonly("type", &TensorInfo::type, "'tensor(float)', 'tensor(int64)', ...")
      .def_readonly("dtype", &TensorInfo::dtype, "the numpy dtype (None for bfloat16, which numpy lacks)")
      .def("__repr__", [](const TensorInfo& t) { return repr(t); });

  py::class_<ModelMetadata>(m, "ModelMetadata", "What the model file says about itself (onnxruntime's ModelMetadata)")
      .def_readonly("producer_name", &ModelMetadata::producer_name)
      .def_readonly("graph_name", &ModelMetadata::graph_name)
      .def_readonly("domain", &ModelMetadata::domain)
      .def_readonly("description", &ModelMetadata::description)
      .def_readonly("graph_description", &ModelMetadata::graph_description)
      .def_readonly("version", &ModelMetadata::version)
      .def_readonly("custom_metadata_map", &ModelMetadata::custom_metadata_map);

  py::class_<cnnx::NodeCheck>(m, "NodeCheck", "One node's output against its reference kernel's (cnnx check)")
      .def_readonly("node", &cnnx::NodeCheck::node)
      .def_readonly("op_type", &cnnx::NodeCheck::op_type)
      .def_readonly("kernel", &cnnx::NodeCheck::kernel)
      .def_readonly("max_abs", &cnnx::NodeCheck::max_abs)
      .def_readonly("max_rel", &cnnx::NodeCheck::max_rel)
      .def_readonly("tol_abs", &cnnx::NodeCheck::tol_abs)
      .def_readonly("tol_rel", &cnnx::NodeCheck::tol_rel)
      .def_readonly("within", &cnnx::NodeCheck::within)
      .def_readonly("detail", &cnnx::NodeCheck::detail)
      .def("__repr__", [](const cnnx::NodeCheck& c) { return repr(c); });

  py::class_<cnnx::RunInfo>(m, "RunInfo", R"(What one run did, filled in by Model.run(..., run_info=info).

threads  the team it ran with (1: the calling thread alone; see Model's threads))")
      .def(py::init<>())
      .def_readonly("threads", &cnnx::RunInfo::threads)
      .def("__repr__", [](const cnnx::RunInfo& r) { return "RunInfo(threads=" + std::to_string(r.threads) + ")"; });

  py::class_<PyModel>(m, "Model", R"(An ONNX model loaded and validated once; runs from many threads.

Model(path_or_bytes, threads=0, backend="dnnl", verify=False, disable_passes=[], disable_kernels=[],
      precision="fp32")
  threads  threads per run (0: up to all cores, one while other runs are in flight or the machine is busy;
  N: pinned); backend "dnnl" (oneDNN, reference kernels where it declines) or "ref" (reference kernels
  only); verify  run the reference kernel beside every node and raise cnnx.Error
  naming the first node beyond its op's tolerance; disable_passes, disable_kernels  graph passes and
  kernels ("OP:KERNEL" or "KERNEL") to plan without, as `cnnx run --disable-pass / --disable-kernel`;
  precision "fp32" or "bf16" (as `cnnx run --precision`: where bf16 cannot run, float32 with a
  RuntimeWarning; precision_used and precision_note say what runs).)")
      .def(py::init<const py::object&, int, const std::string&, bool, std::vector<std::string>,
                    std::vector<std::string>, const std::string&>(),
           "path_or_bytes"_a, "threads"_a = 0, "backend"_a = "dnnl", "verify"_a = false,
           "disable_passes"_a = std::vector<std::string>{}, "disable_kernels"_a = std::vector<std::string>{},
           "precision"_a = "fp32")
      .def_property_readonly("inputs", &PyModel::inputs, "the inputs to feed, in order (TensorInfo)")
      .def_property_readonly("outputs", &PyModel::outputs, "what run() returns, in order (TensorInfo)")
      .def_property_readonly("metadata", [](const PyModel& p) { return model_report(p.model()).metadata; },
                             "the model's metadata_props as a dict")
      .def_property_readonly("modelmeta", &PyModel::modelmeta, "producer, graph name, ... (ModelMetadata)")
      .def_property_readonly("threads", [](const PyModel& p) { return p.model().options().threads; })
      .def_property_readonly("backend", [](const PyModel& p) { return cnnx::backend_name(p.model().options().backend); })
      .def_property_readonly("verify", [](const PyModel& p) { return p.model().options().verify; })
      .def_property_readonly("precision", [](const PyModel& p) { return cnnx::precision_name(p.model().options().precision); },
                             "the precision asked for")
      .def_property_readonly("precision_used", [](const PyModel& p) { return cnnx::precision_name(precision_report(p.model()).used); },
                             "what the plans compute in")
      .def_property_readonly("precision_note", [](const PyModel& p) { return precision_report(p.model()).why; },
                             "how bf16 runs, or why it does not")
      .def_property_readonly("disable_passes", [](const PyModel& p) { return p.model().options().disabled_passes; })
      .def_property_readonly("disable_kernels", [](const PyModel& p) { return p.model().options().disabled_kernels; })
      .def("run", &PyModel::run, "feeds"_a, "run_info"_a = nullptr,
           "Runs on {input name: array}; returns {output name: array}. A RunInfo given as run_info gets what the "
           "run did (its threads)")
      .def("run_list", &PyModel::run_list, "feeds"_a, "run_info"_a = nullptr,
           "Runs on {input name: array}; returns the outputs in order. run_info: as for run")
      .def("__call__", &PyModel::call, "x"_a,
           "Runs a one-input model on x; returns its output (a tuple of them when it has several)")
      .def("check", &PyModel::check, "inputs"_a,
           "Runs the model and the reference kernel beside every node that did not run it (a dict of inputs, "
           "or one array for a one-input model); returns one NodeCheck per such node, as `cnnx check` prints");

  m.def("graph_passes", &cnnx::graph_pass_names,
        "The names of every graph pass, in the order they run: what Model's disable_passes takes (all of them: "
        "the graph as the file writes it)");
  m.def("collect_files", &cnnx::collect_files, "paths"_a,
        "The files `cnnx run MODEL DIR_OR_FILES...` classifies: folders replaced by every file below them "
        "(sorted by name, recursively), other paths kept as given");
  m.def("preprocess", &preprocess_images, "model"_a, "paths"_a,
        "The float32 batch the cnnx program feeds the model for these image files (resize, crop, normalize as "
        "the model's metadata says); the first bad file is a cnnx.Error naming it");
  m.def("classify_json", &classify_json, "model"_a, "files"_a, "top"_a = 5, "batch"_a = 0,
        "The JSON lines `cnnx run MODEL FILES... --jsonl` writes, one per file in order (folders are not "
        "expanded); batch 0: the model's fixed batch, else 8");
  m.def("detect_json", &detect_json, "model"_a, "files"_a, "threshold"_a = 0.5,
        "The JSON lines `cnnx run MODEL FILES... --task detect --jsonl` writes, one per file in order (folders are "
        "not expanded)");
  m.def("looks_like_detector", [](const PyModel& p) { return cnnx::looks_like_detector(p.model()); }, "model"_a,
        "Whether `cnnx run` takes the model for a detector without --task: one float image input and outputs "
        "that are boxes, scores and labels (README, \"Detection\")");
}
