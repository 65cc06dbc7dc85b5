"""onnxruntime's common subset, on cnnx: a script written for onnxruntime on a CPU classifier runs with its
import changed (`import cnnx as ort`):

    sess = cnnx.InferenceSession("model.onnx", providers=["CPUExecutionProvider"])
    x_name = sess.get_inputs()[0].name                    # NodeArg: .name, .shape, .type
    scores = sess.run(None, {x_name: x})[0]

What cnnx reads from SessionOptions is intra_op_num_threads (threads per run, 0 = up to all
cores, adapting as cnnx.Model's threads=0 does; N pins the team) and graph_optimization_level:
ORT_DISABLE_ALL runs the graph as the file writes it (every cnnx graph pass off, as onnxruntime turns off
its own: no fusions or rewrites; constant subgraphs are still computed once), any other level runs all of
cnnx's passes. One session config entry of cnnx's own: add_session_config_entry("cnnx.precision", "bf16")
computes as cnnx.Model's precision="bf16" does ("fp32", the default, or "bf16"; another value is a ValueError
naming the entry). The other onnxruntime settings are accepted and change nothing: cnnx runs one node at a
time. Only the CPU provider exists; asking for another is a ValueError.
"""
import enum

from ._cnnx import Error, Model, TensorInfo as NodeArg, graph_passes

CPU_PROVIDER = "CPUExecutionProvider"
PRECISION_CONFIG_KEY = "cnnx.precision"  # SessionOptions.add_session_config_entry: "fp32" or "bf16"


class GraphOptimizationLevel(enum.IntEnum):
    ORT_DISABLE_ALL = 0
    ORT_ENABLE_BASIC = 1
    ORT_ENABLE_EXTENDED = 2
    ORT_ENABLE_ALL = 99


class ExecutionMode(enum.IntEnum):
    ORT_SEQUENTIAL = 0
    ORT_PARALLEL = 1


class SessionOptions:
    """onnxruntime's SessionOptions; cnnx uses intra_op_num_threads and graph_optimization_level."""

    def __init__(self):
        self.intra_op_num_threads = 0
        self.inter_op_num_threads = 0
        self.graph_optimization_level = GraphOptimizationLevel.ORT_ENABLE_ALL
        self.execution_mode = ExecutionMode.ORT_SEQUENTIAL
        self.log_severity_level = 2
        self.log_verbosity_level = 0
        self.logid = ""
        self.enable_profiling = False
        self.enable_mem_pattern = True
        self.enable_cpu_mem_arena = True
        self.optimized_model_filepath = ""
        self._config = {}

    def add_session_config_entry(self, key, value):
        self._config[key] = value

    def get_session_config_entry(self, key):
        return self._config[key]


class RunOptions:
    """onnxruntime's RunOptions (accepted; cnnx reads none of it)."""

    def __init__(self):
        self.log_severity_level = 2
        self.log_verbosity_level = 0
        self.logid = ""
        self.terminate = False


def get_available_providers():
    return [CPU_PROVIDER]


def get_all_providers():
    return [CPU_PROVIDER]


def get_device():
    return "CPU"


def _check_providers(providers):
    for provider in providers or []:
        name = provider[0] if isinstance(provider, (tuple, list)) else provider
        if name != CPU_PROVIDER:
            raise ValueError(f"cnnx runs on the CPU only: provider {name!r} is not available "
                             f"(available: {get_available_providers()})")


class InferenceSession:
    """onnxruntime's InferenceSession over a cnnx.Model (the `model` attribute)."""

    def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None, **kwargs):
        _check_providers(providers)
        self._options = sess_options if sess_options is not None else SessionOptions()
        level = self._options.graph_optimization_level
        passes_off = graph_passes() if level == GraphOptimizationLevel.ORT_DISABLE_ALL else []
        precision = self._options._config.get(PRECISION_CONFIG_KEY, "fp32")
        if precision not in ("fp32", "bf16"):
            raise ValueError(f"session config entry '{PRECISION_CONFIG_KEY}': unknown precision {precision!r} "
                             "(expected 'fp32' or 'bf16')")
        self.model = Model(path_or_bytes, threads=self._options.intra_op_num_threads, disable_passes=passes_off,
                           precision=precision)
        self._model_path = None if isinstance(path_or_bytes, bytes) else path_or_bytes
        self._output_index = {o.name: i for i, o in enumerate(self.model.outputs)}

    def get_inputs(self):
        return self.model.inputs

    def get_outputs(self):
        return self.model.outputs

    def get_overridable_initializers(self):
        return []

    def get_modelmeta(self):
        return self.model.modelmeta

    def get_providers(self):
        return [CPU_PROVIDER]

    def get_provider_options(self):
        return {CPU_PROVIDER: {}}

    def set_providers(self, providers=None, provider_options=None):
        _check_providers(providers)

    def get_session_options(self):
        return self._options

    def run(self, output_names, input_feed, run_options=None):
        """The outputs named (all when output_names is None or empty), in that order, as numpy arrays."""
        outputs = self.model.run_list(input_feed)
        if not output_names:
            return outputs
        for name in output_names:
            if name not in self._output_index:
                raise Error(f"the model has no output named '{name}'")
        return [outputs[self._output_index[name]] for name in output_names]

    def end_profiling(self):
        return ""
