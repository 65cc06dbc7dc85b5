"""Control flow and shapes from data. Control flow exported by PyTorch (torch 1.13, scripted modules at test time) against PyTorch's own outputs:
a data-dependent `if` (an ONNX If whose condition is computed each run), a `for` over a dim (a Loop whose trip
count the plan knows, a carried value and the loop index read in the body) and a `while` on data (a Loop
ended by its condition), each on both backends and, for the data-dependent ones, with inputs that take each
path through one loaded model.

Tolerance: none. Every op in these bodies is one correctly rounded float32 operation per element (Relu, Neg,
multiplication by a power of two, one Add, Gather, comparisons), done in the same order as PyTorch's own, so
cnnx must give PyTorch's float32 bits; a branch taken wrongly, an iteration too many or too few or a carried
value not handed on changes them by far more."""
import numpy as np
import pytest
import torch

import cnnx


class Gate(torch.nn.Module):
    def forward(self, x):
        if bool(x.sum() > 0):
            y = torch.relu(x) * 2.0
        else:
            y = 1.0 - x
        return y


class Decay(torch.nn.Module):
    def forward(self, x):
        acc = torch.zeros_like(x[0])
        for i in range(x.size(0)):
            acc = acc * 0.5 + x[i]
        return acc


class Grow(torch.nn.Module):
    """Mask R-CNN's paste loop in small: a carried value grown by a Concat per iteration (its shape changes each
    time), rows whose width comes from data (a Slice by the row's own count), a while condition on data."""
    def forward(self, x):
        out = torch.zeros(0, x.size(1))
        for i in range(x.size(0)):
            n = int((x[i] > 0).sum())
            row = torch.cat((x[i, :n] * 2.0, torch.zeros(x.size(1) - n)))
            out = torch.cat((out, row.unsqueeze(0)))
        return out


class Nested(torch.nn.Module):
    """A shape-keeping inner `for` (alone, a Loop planned once) inside an outer `for` whose carried value grows by
    a Concat: the outer Loop runs node by node, its inner Loop too, i + 1 times at outer iteration i."""
    def forward(self, x):
        out = torch.zeros(0, x.size(1))
        for i in range(x.size(0)):
            row = x[i]
            for j in range(i + 1):
                row = row * 0.5 + x[j]
            out = torch.cat((out, row.unsqueeze(0)))
        return out


class Double(torch.nn.Module):
    def forward(self, x):
        y = x
        while bool(y.abs().sum() < 100.0):
            y = y * 2.0
        return y


def export(module, example, path, opset=14):
    scripted = torch.jit.script(module)
    torch.onnx.export(scripted, (torch.from_numpy(example),), str(path), opset_version=opset, input_names=["x"],
                      output_names=["y"])
    return str(path)


def ops_of(path):
    import onnx

    return {n.op_type for n in onnx.load(path).graph.node}


def check_runs(module, op, inputs, tmp_path, backend):
    """Exports `module` scripted (on inputs[0]), checks the file holds `op`, then runs every input through one
    loaded model: equal to PyTorch, shape included."""
    path = export(module, inputs[0], tmp_path / f"{type(module).__name__}.onnx")
    assert op in ops_of(path)
    model = cnnx.Model(path, backend=backend)
    for i, x in enumerate(inputs):
        want = module(torch.from_numpy(x)).numpy()
        got = model.run({"x": x})["y"]
        assert got.shape == want.shape, f"backend={backend} input {i}: shape {got.shape}, PyTorch {want.shape}"
        np.testing.assert_array_equal(got, want, err_msg=f"backend={backend} input {i} x={x}")


@pytest.mark.parametrize("backend", ["ref", "dnnl"])
def test_data_dependent_if(tmp_path, backend):
    x = np.abs(np.random.default_rng(34).standard_normal((2, 5))).astype(np.float32)
    check_runs(Gate(), "If", [x, -x], tmp_path, backend)  # each branch, through one loaded model


@pytest.mark.parametrize("backend", ["ref", "dnnl"])
def test_for_over_a_dim(tmp_path, backend):
    x = np.random.default_rng(35).standard_normal((6, 3, 4)).astype(np.float32)
    check_runs(Decay(), "Loop", [x], tmp_path, backend)


@pytest.mark.parametrize("backend", ["ref", "dnnl"])
def test_while_on_data(tmp_path, backend):
    x = np.array([[0.25, -0.5, 1.0]], np.float32)
    check_runs(Double(), "Loop", [x * s for s in (1.0, 0.001, 200.0)], tmp_path, backend)  # 6, 16, 0 iterations


@pytest.mark.parametrize("backend", ["ref", "dnnl"])
def test_growing_carried_value(tmp_path, backend):
    rng = np.random.default_rng(36)
    xs = [rng.standard_normal((5, 4)).astype(np.float32) for _ in range(4)]
    check_runs(Grow(), "Loop", xs, tmp_path, backend)  # other counts per row each run, through one loaded model


@pytest.mark.parametrize("backend", ["ref", "dnnl"])
def test_loop_nested_in_a_growing_loop(tmp_path, backend):
    rng = np.random.default_rng(37)
    x = rng.standard_normal((5, 4)).astype(np.float32)
    path = export(Nested(), x, tmp_path / "nested.onnx")
    import onnx

    outer = [n for n in onnx.load(path).graph.node if n.op_type == "Loop"]
    assert len(outer) == 1 and any(m.op_type == "Loop" for m in outer[0].attribute[0].g.node)
    for verify in (False, True):  # verify: each body node's kept kernel against the node folded anew
        model = cnnx.Model(path, backend=backend, verify=verify)
        for run in range(2):
            xs = x if run == 0 else rng.standard_normal(x.shape).astype(np.float32)
            want = Nested()(torch.from_numpy(xs)).numpy()
            got = model.run({"x": xs})["y"]
            assert got.shape == want.shape, f"backend={backend} verify={verify} run={run}: {got.shape} vs {want.shape}"
            np.testing.assert_array_equal(got, want, err_msg=f"backend={backend} verify={verify} run={run} x={xs}")


def data_dependent_model(path):
    """y = 2 * x[x > 0] through NonZero -> Transpose -> GatherND, and z = the rows of x whose sum is positive
    (Compress): both lengths depend on x's data, which plans do not have."""
    import onnx
    from onnx import TensorProto, helper

    n = helper.make_node
    nodes = [n("Constant", [], ["zero"], value=helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0])),
             n("Constant", [], ["two"], value=helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])),
             n("Greater", ["x", "zero"], ["mask"]), n("NonZero", ["mask"], ["where"]),
             n("Transpose", ["where"], ["at"], perm=[1, 0]), n("GatherND", ["x", "at"], ["picked"]),
             n("Mul", ["picked", "two"], ["y"]),
             n("ReduceSum", ["x"], ["rows"], axes=[1], keepdims=0), n("Greater", ["rows", "zero"], ["keep"]),
             n("Compress", ["x", "keep"], ["z"], axis=0)]
    graph = helper.make_graph(nodes, "data_dependent", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
                               helper.make_tensor_value_info("z", TensorProto.FLOAT, None)])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)]), str(path))
    return str(path)


@pytest.mark.parametrize("backend", ["ref", "dnnl"])
def test_shapes_from_data(tmp_path, backend):
    """Each run gives other counts: the nodes after NonZero and Compress are planned per count (tolerance: none,
    every op here selects or doubles, which is exact)."""
    model = cnnx.Model(data_dependent_model(tmp_path / "data_dependent.onnx"), backend=backend)
    rng = np.random.default_rng(36)
    for seed in range(4):
        x = rng.standard_normal((4, 3)).astype(np.float32)
        if seed == 3:
            x = -np.abs(x)  # nothing selected: empty outputs
        got = model.run({"x": x})
        np.testing.assert_array_equal(got["y"], x[x > 0] * 2, err_msg=f"backend={backend} x={x}")
        np.testing.assert_array_equal(got["z"], x[x.sum(axis=1) > 0], err_msg=f"backend={backend} x={x}")
