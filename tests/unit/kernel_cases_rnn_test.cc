// Kernel cases of the rnn family (ops/rnn): LSTM, GRU, RNN. Each case runs every kernel of its op (oneDNN's RNN
// primitives) against the op's reference kernel, or checks the reason it declines; tests/unit/kernel_cases.h
// says how, and how a table is registered. The reference's values themselves are checked against ONNX's node
// tests, against formulas in tests/unit/rnn_test.cc, and against PyTorch in tests/python/test_rnn.py.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

Attribute names(std::vector<std::string> v) { return strings(std::move(v)); }

CaseInput lengths_in(std::vector<int32_t> v) { return given(make_int32_tensor(std::move(v))).constant(); }

struct Op {
  const char* type;
  int64_t gates;
};
const Op kOps[] = {{"LSTM", 4}, {"GRU", 3}, {"RNN", 1}};

// A case of `op` with T steps, batch N, input I, hidden H, D directions: X, W, R and B (in layout 0 unless
// batch_first).
KernelCase base(const Op& op, int opset, const std::string& what, int64_t D, bool batch_first = false,
                int64_t T = 3, int64_t N = 2, int64_t I = 4, int64_t H = 3) {
  KernelCase c(op.type, opset, what);
  c.attr("hidden_size", int_attr(H));
  if (D == 2) c.attr("direction", string_attr("bidirectional"));
  if (batch_first) c.attr("layout", int_attr(1));
  c.in(random_in(batch_first ? Shape{N, T, I} : Shape{T, N, I}, -2.f, 2.f))
      .in(random_in({D, op.gates * H, I}).constant())
      .in(random_in({D, op.gates * H, H}).constant())
      .in(random_in({D, 2 * op.gates * H}).constant());
  c.outputs(std::string(op.type) == "LSTM" ? 3 : 2);
  return c;
}

std::vector<KernelCase> rnn_cases() {
  std::vector<KernelCase> cases;
  for (const Op& op : kOps) {
    const bool lstm = std::string(op.type) == "LSTM", gru = std::string(op.type) == "GRU";
    for (int opset : {7, 14}) {
      cases.push_back(base(op, opset, "forward", 1));
      cases.push_back(base(op, opset, "reverse", 1).attr("direction", string_attr("reverse")));
      cases.push_back(base(op, opset, "bidirectional", 2));
    }
    cases.push_back(base(op, 14, "layout 1, bidirectional", 2, true));
    cases.push_back(base(op, 1, "opset 1, output_sequence 1", 1).attr("output_sequence", int_attr(1)));
    // No bias, no hidden_size attribute (taken from R), only Y.
    {
      KernelCase c(op.type, 14, "no B, no hidden_size, Y only");
      c.in(random_in({2, 1, 3})).in(random_in({1, op.gates * 5, 3}).constant()).in(random_in({1, op.gates * 5, 5}).constant());
      cases.push_back(c);
    }
    // Y_h only (Y omitted), with initial_h and sequence lengths 3, 0, 1 in both directions.
    {
      const int64_t D = 2, N = 3, H = 3;
      KernelCase c = base(op, 14, "sequence_lens 3, 0, 1 and initial_h, bidirectional", D, false, 3, N);
      c.in(lengths_in({3, 0, 1})).in(random_in({D, N, H}));
      if (lstm) c.in(random_in({D, N, H})).in(random_in({D, 3 * H}).constant());
      cases.push_back(c.declines("dnnl", "sequence_lens"));
      KernelCase yh = base(op, 14, "sequence_lens, Y omitted", 1, true, 4, 2);
      yh.in(lengths_in({2, 4}));
      yh.omit_output(0);
      cases.push_back(yh.declines("dnnl", "sequence_lens"));
      // initial states (and LSTM's peepholes) without sequence_lens, layout 1: oneDNN's case.
      KernelCase s = base(op, 14, "initial states, layout 1, bidirectional", D, true, 3, N);
      s.in(omitted()).in(random_in({N, D, H}));
      if (lstm) s.in(random_in({N, D, H})).in(random_in({D, 3 * H}).constant());
      cases.push_back(s);
      KernelCase y = base(op, 14, "initial_h, Y only, reverse", 1, false, 3, N);
      y.attr("direction", string_attr("reverse")).in(omitted()).in(random_in({1, N, H}));
      y.outputs(1);
      cases.push_back(y);
    }
    // clip and activation lists with parameters.
    cases.push_back(base(op, 14, "clip 0.5", 1).attr("clip", float_attr(0.5f)).declines("dnnl", "clip"));
    if (lstm) {
      cases.push_back(base(op, 14, "activations HardSigmoid, ScaledTanh, Softsign", 1)
                          .attr("activations", names({"HardSigmoid", "ScaledTanh", "Softsign"}))
                          .attr("activation_alpha", floats({0.3f, 0.8f}))
                          .attr("activation_beta", floats({0.4f, 1.2f}))
                          .declines("dnnl", "activation HardSigmoid"));
      cases.push_back(base(op, 7, "input_forget", 2).attr("input_forget", int_attr(1)).declines("dnnl", "input_forget"));
      KernelCase p = base(op, 7, "peepholes", 1);
      p.in(omitted()).in(omitted()).in(omitted()).in(random_in({1, 9}).constant());
      cases.push_back(p);
    } else if (gru) {
      cases.push_back(base(op, 14, "linear_before_reset", 2).attr("linear_before_reset", int_attr(1)));
      cases.push_back(base(op, 3, "opset 3 linear_before_reset", 1).attr("linear_before_reset", int_attr(1)));
      cases.push_back(base(op, 14, "activations per direction", 2)
                          .attr("activations", names({"Sigmoid", "Elu", "HardSigmoid", "Softplus"}))
                          .attr("activation_alpha", floats({0.5f, 0.25f}))
                          .attr("activation_beta", floats({0.6f}))
                          .declines("dnnl", "activation Elu"));
    } else {
      for (const char* f : {"Relu", "Sigmoid", "LeakyRelu"})
        cases.push_back(base(op, 14, std::string("activation ") + f, 1).attr("activations", names({f})));
      cases.push_back(base(op, 14, "LeakyRelu alpha 0.3", 1).attr("activations", names({"LeakyRelu"}))
                          .attr("activation_alpha", floats({0.3f})));
      for (const char* f : {"Affine", "ThresholdedRelu", "Elu", "Softsign", "Softplus"})
        cases.push_back(base(op, 14, std::string("activation ") + f, 1).attr("activations", names({f}))
                            .declines("dnnl", std::string("activation ") + f));
      cases.push_back(base(op, 14, "one activation list for both directions", 2).attr("activations", names({"relu"})));
      cases.push_back(base(op, 14, "directions with different activations", 2).attr("activations", names({"Tanh", "Relu"}))
                          .declines("dnnl", "different activations"));
    }
    // Empty batch and zero steps.
    cases.push_back(base(op, 14, "batch 0", 1, false, 3, 0).declines("dnnl", ""));
    cases.push_back(base(op, 14, "0 steps", 2, false, 0, 2).declines("dnnl", ""));
    // Weights that are not constants (graph inputs): the reference alone.
    KernelCase v(op.type, 14, "W and R not constant");
    v.in(random_in({3, 2, 4})).in(random_in({1, op.gates * 3, 4})).in(random_in({1, op.gates * 3, 3}));
    cases.push_back(v.declines("dnnl", "must be constants"));
  }
  return cases;
}

}  // namespace

KERNEL_CASES("LSTM, GRU, RNN", rnn_cases)
