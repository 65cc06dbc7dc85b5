// The oneDNN pooling kernels against the reference kernels (the oracle), within each op's declared tolerance,
// on random data over a case table of windows; and the cases they must decline, with their reason.
#include <doctest/doctest.h>


#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("dnnl AveragePool and MaxPool match the reference over windows, pads, ceil_mode and 1-3 spatial dims") {
  struct Case {
    const char* what;
    Shape x;
    std::vector<int64_t> kernel;
    const char* auto_pad;
    std::vector<int64_t> strides, dilations, pads;  // attributes; empty = not given
    bool ceil_mode;
    bool overhangs;  // a ceil_mode window reaches past input + pads (worked out by hand per axis)
  };
  const Case cases[] = {
      {"1-D default", {2, 3, 9}, {3}, "NOTSET", {}, {}, {}, false, false},
      {"1-D strided, asymmetric pads", {1, 2, 10}, {4}, "NOTSET", {3}, {}, {2, 1}, false, false},
      // out = ceil(7/2)+1 = 5, window 4 at [8, 11) > 10
      {"1-D ceil, overhang", {1, 2, 10}, {3}, "NOTSET", {2}, {}, {}, true, true},
      // extent 4, padded 13: out = ceil(9/2)+1 = 6, window 5 at [9, 13) > 12
      {"1-D dilated ceil, overhang", {1, 2, 12}, {2}, "NOTSET", {2}, {3}, {1, 0}, true, true},
      {"2-D pads 1", {1, 3, 5, 6}, {3, 3}, "NOTSET", {}, {}, {1, 1, 1, 1}, false, false},
      {"2-D asymmetric pads, stride 2", {2, 2, 7, 5}, {3, 3}, "NOTSET", {2, 2}, {}, {1, 0, 2, 1}, false, false},
      // out = ceil(1/2)+1 = 2, window 1 at [2, 5) > 4
      {"2-D ceil, overhang", {1, 1, 4, 4}, {3, 3}, "NOTSET", {2, 2}, {}, {}, true, true},
      // (7-3)/2 exact: ceil_mode changes nothing
      {"2-D ceil, exact", {1, 2, 7, 7}, {3, 3}, "NOTSET", {2, 2}, {}, {}, true, false},
      // H: out 4, window 3 at [5, 8) > 6+1; W: (9-3)/2 exact
      {"2-D ceil with pads, overhang along H only", {1, 2, 6, 7}, {3, 3}, "NOTSET", {2, 2}, {}, {1, 1, 1, 1},
       true, true},
      // ceil gives 3 windows, the last would start at 4 (in the right padding) and is dropped
      {"2-D ceil, dropped window", {1, 1, 4, 4}, {2, 2}, "NOTSET", {2, 2}, {}, {0, 0, 1, 1}, true, false},
      {"2-D dilations 2x3", {1, 2, 9, 8}, {3, 2}, "NOTSET", {}, {2, 3}, {0, 1, 0, 1}, false, false},
      // H: extent 3, out 5, window 4 at [8, 11) > 10; W: (9-3)/3 exact
      {"2-D dilated strided ceil, overhang", {1, 2, 10, 9}, {2, 2}, "NOTSET", {2, 3}, {2, 2}, {}, true, true},
      {"2-D SAME_UPPER stride 2 (odd total pad)", {1, 3, 8, 7}, {4, 4}, "SAME_UPPER", {2, 2}, {}, {}, false, false},
      {"2-D SAME_LOWER stride 2", {1, 3, 8, 7}, {4, 4}, "SAME_LOWER", {2, 2}, {}, {}, false, false},
      {"2-D SAME_UPPER with ceil_mode (ignored)", {1, 2, 9, 6}, {3, 2}, "SAME_UPPER", {2, 2}, {}, {}, true, false},
      {"2-D VALID stride 3", {1, 2, 10, 11}, {3, 2}, "VALID", {3, 3}, {}, {}, false, false},
      {"2-D 32 channels", {2, 32, 14, 14}, {3, 3}, "NOTSET", {2, 2}, {}, {1, 1, 1, 1}, false, false},
      {"2-D squeezenet-like 3x3 stride 2 ceil", {1, 64, 55, 55}, {3, 3}, "NOTSET", {2, 2}, {}, {}, true, false},
      {"2-D kernel larger than input, padded", {1, 2, 2, 3}, {4, 4}, "NOTSET", {}, {}, {2, 1, 1, 2}, false, false},
      {"3-D default", {1, 2, 4, 5, 6}, {2, 3, 3}, "NOTSET", {}, {}, {}, false, false},
      {"3-D strided, asymmetric pads, dilated", {2, 2, 6, 7, 5}, {3, 2, 2}, "NOTSET", {2, 1, 2}, {1, 2, 1},
       {1, 0, 1, 0, 1, 1}, false, false},
      // D: out 3, window 2 at [4, 6) > 5; H exact; W: out 4, window 3 at [6, 8) > 7
      {"3-D ceil, overhang", {1, 2, 5, 6, 7}, {2, 2, 2}, "NOTSET", {2, 2, 2}, {}, {}, true, true},
  };
  struct Variant {
    const char* op;
    int opset;
    int count_include_pad;  // -1: MaxPool (no such attribute)
  };
  // AveragePool-19 has dilations; MaxPool-12 is its newest.
  const Variant variants[] = {{"AveragePool", 19, 0}, {"AveragePool", 19, 1}, {"MaxPool", 12, -1}};
  uint32_t seed = 1;
  for (const Case& c : cases) {
    for (const Variant& v : variants) {
      CAPTURE(c.what);
      CAPTURE(str(c.x));
      CAPTURE(str(c.kernel));
      CAPTURE(c.auto_pad);
      CAPTURE(str(c.strides));
      CAPTURE(str(c.dilations));
      CAPTURE(str(c.pads));
      CAPTURE(c.ceil_mode);
      CAPTURE(c.overhangs);
      CAPTURE(v.op);
      CAPTURE(v.count_include_pad);
      Attributes a;
      a.set("kernel_shape", ints(c.kernel));
      a.set("auto_pad", string_attr(c.auto_pad));
      if (!c.strides.empty()) a.set("strides", ints(c.strides));
      if (!c.dilations.empty()) a.set("dilations", ints(c.dilations));
      if (!c.pads.empty()) a.set("pads", ints(c.pads));
      if (c.ceil_mode) a.set("ceil_mode", int_attr(1));
      if (v.count_include_pad >= 0) a.set("count_include_pad", int_attr(v.count_include_pad));
      const Tensor x = random_tensor(c.x, seed++);
      const std::string why = dnnl_declines(v.op, a, {x}, v.opset);
      if (v.count_include_pad == 1 && c.overhangs) {
        CHECK(contains(why, "ceil_mode window overhangs the padding"));
      } else {
        CHECK(why == "");
        if (why.empty()) CHECK(dnnl_vs_ref(v.op, a, {x}, v.opset) == "");
      }
    }
  }
}

TEST_CASE("dnnl GlobalAveragePool and GlobalMaxPool match the reference over 1-3 spatial dims") {
  const Shape shapes[] = {{2, 3, 7}, {1, 4, 5, 6}, {1, 3, 1, 1}, {1, 8, 56, 56}, {1, 2, 3, 4, 5}};
  uint32_t seed = 100;
  for (const Shape& x_shape : shapes) {
    for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"}) {
      CAPTURE(str(x_shape));
      CAPTURE(op);
      const Tensor x = random_tensor(x_shape, seed++);
      CHECK(dnnl_declines(op, {}, {x}, 1) == "");
      CHECK(dnnl_vs_ref(op, {}, {x}, 1) == "");
    }
  }
}

TEST_CASE("dnnl MaxPool declines the Indices output, not storage_order alone") {
  Attributes a;
  a.set("kernel_shape", ints({2, 2}));
  a.set("storage_order", int_attr(1));
  const Tensor x = random_tensor({1, 2, 5, 5}, 7);
  CHECK(contains(dnnl_declines("MaxPool", a, {x}, 12, {}, {1, 2}), "Indices"));
  CHECK(dnnl_declines("MaxPool", a, {x}, 12, {}, {1, -1}) == "");  // Indices omitted
  CHECK(dnnl_declines("MaxPool", a, {x}, 12, {}, {1}) == "");
  CHECK(dnnl_vs_ref("MaxPool", a, {x}, 12) == "");
}

TEST_CASE("dnnl pooling declines what it cannot run") {
  Attributes a;
  a.set("kernel_shape", ints({2, 2, 2, 2}));
  CAPTURE("4 spatial dims");
  CHECK(contains(dnnl_declines("MaxPool", a, {random_tensor({1, 1, 3, 3, 3, 3}, 1)}, 12), "spatial dims"));
  CHECK(contains(dnnl_declines("AveragePool", a, {random_tensor({1, 1, 3, 3, 3, 3}, 1)}, 19), "spatial dims"));
  CHECK(contains(dnnl_declines("GlobalMaxPool", {}, {random_tensor({1, 1, 3, 3, 3, 3}, 1)}, 1), "spatial dims"));
  CAPTURE("uint8");
  Attributes b;
  b.set("kernel_shape", ints({2, 2}));
  CHECK(contains(dnnl_declines("MaxPool", b, {Tensor(DType::u8, {1, 1, 4, 4})}, 12), "not float32"));
}
