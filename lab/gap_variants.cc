#include "lab/gap_variants.h"

namespace cnnx::lab {

namespace {

// The domain of PyTorch's ATen fallback ops, as torch.onnx writes it (ops/pool/adaptive_pool.h).
constexpr const char* kAtenDomain = "org.pytorch.aten";

// A model reading "x" of `shape` at `opset`; nodes are named by their op type.
ModelSketch graph_over(const Shape& shape, int opset) {
  ModelSketch b(opset);
  b.input("x", shape);
  return b;
}

}  // namespace

std::vector<GapVariant> gap_variants(const Shape& shape) {
  const size_t k = shape.size() - 2;
  std::vector<int64_t> spatial_axes, spatial(shape.begin() + 2, shape.end());
  for (size_t d = 2; d < shape.size(); ++d) spatial_axes.push_back(int64_t(d));
  const std::string axes = list_string(spatial_axes);
  std::vector<GapVariant> v;
  {
    ModelSketch b = graph_over(shape, 13);
    b.node("GlobalAveragePool", {"x"}, {"y"}, "GlobalAveragePool").output("y");
    v.push_back({"GlobalAveragePool", b.build()});
  }
  {
    Attributes a;
    a.set("kernel_shape", ints_attr(spatial));
    ModelSketch b = graph_over(shape, 13);
    b.node("AveragePool", {"x"}, {"y"}, "AveragePool", a).output("y");
    v.push_back({"AveragePool(kernel_shape=" + list_string(spatial) + ")", b.build()});
  }
  {
    Attributes a;
    a.set("axes", ints_attr(spatial_axes));
    ModelSketch b = graph_over(shape, 13);
    b.node("ReduceMean", {"x"}, {"y"}, "ReduceMean", a).output("y");
    v.push_back({"ReduceMean(axes=" + axes + ", keepdims=1)", b.build()});
  }
  {
    Attributes a;
    a.set("keepdims", int_attr(0));
    ModelSketch b = graph_over(shape, 18);
    b.ints("axes", spatial_axes).node("ReduceMean", {"x", "axes"}, {"y"}, "ReduceMean", a).output("y");
    v.push_back({"ReduceMean-18(axes input " + axes + ", keepdims=0)", b.build()});
  }
  {
    Attributes a;
    a.set("axes", ints_attr({-1}));
    a.set("keepdims", int_attr(0));
    ModelSketch b = graph_over(shape, 13);
    b.ints("shape", {0, 0, -1})
        .node("Reshape", {"x", "shape"}, {"flat"}, "Reshape")
        .node("ReduceMean", {"flat"}, {"y"}, "ReduceMean", a)
        .output("y");
    v.push_back({"Reshape(N,C,-1) -> ReduceMean(axes=[-1], keepdims=0)", b.build()});
  }
  {
    const std::string op = "adaptive_avg_pool" + std::to_string(k) + "d";
    ModelSketch b = graph_over(shape, 13);
    b.opset(kAtenDomain, 1);
    b.ints("size", std::vector<int64_t>(k, 1)).node(op, {"x", "size"}, {"y"}, op, {}, kAtenDomain).output("y");
    v.push_back({"aten::" + op + "(output_size=1)", b.build()});
  }
  return v;
}

}  // namespace cnnx::lab
