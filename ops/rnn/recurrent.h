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

// Tolerance (per stored value), for a float32 engine against this reference:
//   sums: each step's gate inputs are sums of K = I + H (+ 2 biases, + a peephole) products; summed in float32
//     they are off by the sum-of-products bound (ops/common/sum_of_products.h: terms_rel * sqrt(K + 2) * M,
//     M the gate's sum of |terms|; the reference's `magnitudes` mode gives, per value, the largest M among
//     the gates that made it, and OpHints::flops gives K as G*(I+H), which overstates it by G). An activation
//     passes that error on scaled by its slope (<= 1 for the default ones: sigmoid 1/4, tanh 1).
//   activations and gate arithmetic: a float32 activation is off by at most its row's tolerance in the
//     activation table (Sigmoid 5e-7 abs + 2.5e-7 rel, Tanh 2.5e-7 + 2.5e-7: ops/common/activation.cc, 4x
//     the worst measured); a stored value goes through at most four per step (LSTM's H: o and h(C); C: i and
//     g, f multiplying C), each product and sum one more rounding (u = 6e-8 of its value): per step 2e-6
//     absolute and 1e-6 relative (C's products scale with |C|; Relu/Affine outputs are unbounded).
//   carry: errors of step t-1's state reach step t through R and the gates; where the recurrence contracts
//     (gain <= 1/2 per step: sigmoid slopes <= 1/4, forget gates < 1, |R| h about |h| at the usual
//     U(-1/sqrt(H), 1/sqrt(H)) initialization) the geometric sum at most doubles the per-step budget:
//     abs 4e-6, rel 2e-6. A strongly expanding recurrence (large R, Relu/Affine with gain > 1 over many steps)
//     amplifies any float32 engine's error past this; the reference stays the exact one.
// Measured: oneDNN's LSTM on a CRNN's two bidirectional layers (tests/python/test_rnn.py) is off by at most
// 6e-8 (`cnnx check`: at most 3.5e-3 of this bound, the gate sums' terms being its largest part).
constexpr Tolerance kRecurrentTolerance{4e-6, 2e-6, kSumOfProductsTermsRel};

// The reference: per step and gate, the products summed in double, activations in double, the state kept in
// double, one rounding to float32 per stored value.
Kernel<RnnParams> recurrent_ref_kernel();
// oneDNN's lstm_forward, gru_forward, lbr_gru_forward and vanilla_rnn_forward (inference, f32) where they compute
// the same thing: constant weights, no sequence_lens, no clip, oneDNN's activations, no input_forget; declines the
// rest saying why (recurrent_dnnl.cc).
Kernel<RnnParams> recurrent_dnnl_kernel();

}  // namespace cnnx
