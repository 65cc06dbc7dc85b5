// LSTM, GRU and RNN (ONNX opsets 1, 7 and 14; one params type for the three, which share their inputs, outputs,
// directions, sequence lengths and activation lists and differ in their gates).
//
// Inputs (layout 0; layout 1, opset 14, swaps the first two dims of X, Y, initial_h, initial_c, Y_h, Y_c):
//   X [T, N, I]; W [D, G*H, I]; R [D, G*H, H]; B [D, 2*G*H] (Wb then Rb, zero when omitted);
//   sequence_lens [N] int32 (T when omitted); initial_h [D, N, H] (zero when omitted);
//   LSTM only: initial_c [D, N, H] (zero when omitted), P [D, 3*H] (peepholes i, o, f; zero when omitted).
//   G gates: LSTM 4 (i, o, f, c), GRU 3 (z, r, h), RNN 1; D = 2 for direction "bidirectional", else 1.
// Outputs (each optional): Y [T, D, N, H], Y_h [D, N, H], LSTM's Y_c [D, N, H].
//
// Semantics (the ONNX equations, per batch entry n of length L = sequence_lens[n]): the forward direction
// runs steps t = 0 .. L-1, the reverse one t = L-1 .. 0; Y at steps t >= L is 0; Y_h and Y_c are the state
// after the direction's last step (the initial state when L = 0). `clip` bounds every activation's input to
// [-clip, clip] (the gates' inputs, peephole terms included; not the input of LSTM's h(Ct)).
//   RNN:  Ht = f(Xt Wi^T + Ht-1 Ri^T + Wbi + Rbi)
//   GRU:  zt = f(Xt Wz^T + Ht-1 Rz^T + Wbz + Rbz); rt = f(Xt Wr^T + Ht-1 Rr^T + Wbr + Rbr)
//         ht = g(Xt Wh^T + (rt (.) Ht-1) Rh^T + Rbh + Wbh)            linear_before_reset = 0
//         ht = g(Xt Wh^T + rt (.) (Ht-1 Rh^T + Rbh) + Wbh)            linear_before_reset = 1
//         Ht = (1 - zt) (.) ht + zt (.) Ht-1
//   LSTM: it = f(Xt Wi^T + Ht-1 Ri^T + Pi (.) Ct-1 + Wbi + Rbi); ft = f(... f gate, Pf (.) Ct-1)
//         ft = 1 - it instead when input_forget = 1
//         ct = g(Xt Wc^T + Ht-1 Rc^T + Wbc + Rbc); Ct = ft (.) Ct-1 + it (.) ct
//         ot = f(Xt Wo^T + Ht-1 Ro^T + Po (.) Ct + Wbo + Rbo); Ht = ot (.) h(Ct)
//
// Opset differences: opset 1 has `output_sequence` (0 or 1; Y is written whenever the node has it, as ONNX
// Runtime does, so it changes nothing) and GRU-1 has no `linear_before_reset` (GRU-3 adds it); `layout`
// needs opset 14. Attributes of another opset are refused by name.
#pragma once

#include <vector>

#include "engine/op.h"
#include "ops/common/sum_of_products.h"
#include "ops/rnn/rnn_activation.h"

namespace cnnx {

enum class RnnKind { rnn, gru, lstm };
enum class RnnDirection { forward, reverse, bidirectional };

struct RnnParams : OpParams {
  RnnKind kind = RnnKind::rnn;
  RnnDirection direction = RnnDirection::forward;
  int64_t hidden_size = -1;  // the attribute, or -1 when absent (then R's last dim)
  // Per direction, the kind's functions (RNN f; GRU f, g; LSTM f, g, h): forward's, then reverse's.
  std::vector<RnnActivation> activations;
  bool has_clip = false;
  double clip = 0;              // > 0 when has_clip
  bool batch_first = false;     // layout = 1
  bool linear_before_reset = false;  // GRU
  bool input_forget = false;         // LSTM
  // Set only by OpHints::terms: the reference kernel then writes, in place of each stored value, the largest
  // sum of absolute terms among the gates that produced it (the magnitude Tolerance::terms_rel scales).
  bool magnitudes = false;

  int gates() const { return kind == RnnKind::lstm ? 4 : kind == RnnKind::gru ? 3 : 1; }
  int functions() const { return kind == RnnKind::lstm ? 3 : kind == RnnKind::gru ? 2 : 1; }
  int directions() const { return direction == RnnDirection::bidirectional ? 2 : 1; }
  const char* op_name() const { return kind == RnnKind::lstm ? "LSTM" : kind == RnnKind::gru ? "GRU" : "RNN"; }
};

// Input slots (LSTM's initial_c and P exist only for LSTM).
enum RnnInput : size_t { kRnnX = 0, kRnnW, kRnnR, kRnnB, kRnnSequenceLens, kRnnInitialH, kRnnInitialC, kRnnP };

// The sizes both kernels use, from the params and the inputs' shapes (kUnknownDim while unknown).
struct RnnGeometry {
  int64_t T = 0, N = 0, I = 0, H = 0;  // steps, batch, input size, hidden size
  int64_t D = 1, G = 1;                // directions, gates
  bool has_B = false, has_sequence_lens = false, has_initial_h = false, has_initial_c = false, has_P = false;
};

RnnParams parse_lstm(const Node& node);
RnnParams parse_gru(const Node& node);
RnnParams parse_rnn(const Node& node);
// Validates every input's element type and shape against the params, naming the input and the dims it needs.
RnnGeometry resolve_rnn_geometry(const RnnParams& p, const std::vector<ValueInfo>& in);
// Y, Y_h (and for LSTM Y_c), float32.
std::vector<ValueInfo> infer_recurrent(const RnnParams& p, const std::vector<ValueInfo>& in);
// OpHints::flops: 2 * T * N * D * G * H * (I + H), the gates' multiply-adds over every step.
double recurrent_flops(const RnnParams& p, const std::vector<ValueInfo>& in);
// OpHints::terms: the reference kernel in its `magnitudes` mode.
TermsRun<RnnParams> recurrent_terms(const RnnParams& p);

// Tolerance (per stored value): the matrix products' (ops/gemm/matrix_product.h) for the same reason. Each
// step's gate inputs are sums of K = I + H + 2 products; an engine summing them in float32 is off by the
// sum-of-products bound (terms_rel * sqrt(K + 2) * M, M the gate's sum of |terms|: the `magnitudes` mode
// gives the largest over the gates feeding the value). The activations pass that error on scaled by their
// slope (at most 1 for Sigmoid (1/4), Tanh, Relu, Softsign, Softplus, HardSigmoid's default 0.2; alpha for
// the others), and evaluating them in float32 adds a few ulps each: the 4e-5 relative and 1e-5 absolute
// (~170 and, near |y| ~ 0.25, ~40 float32 ulps) cover those roundings over the few gates that make one value
// and their carrying into the next steps through the recurrence, where the error is damped by the gates'
// slopes (sigmoid <= 1/4; an LSTM's forget gate < 1) as long as |R| H stays moderate. A strongly expanding
// recurrence (large R, or Affine/Relu activations with gain > 1 over many steps) amplifies any float32
// engine's error beyond this per-step bound; the reference then stays the exact one.
constexpr Tolerance kRecurrentTolerance{1e-5, 4e-5, kSumOfProductsTermsRel};

// The reference: per step and gate, the products summed in double, activations in double, the state kept in
// double, one rounding to float32 per stored value.
Kernel<RnnParams> recurrent_ref_kernel();
// oneDNN's lstm_forward, gru_forward, lbr_gru_forward and vanilla_rnn_forward (inference, f32) where they compute
// the same thing: constant weights, no sequence_lens, no clip, oneDNN's activations, no input_forget; declines the
// rest saying why (recurrent_dnnl.cc).
Kernel<RnnParams> recurrent_dnnl_kernel();

}  // namespace cnnx
