// oneDNN's RNN primitives for LSTM (lstm_forward), GRU (gru_forward; lbr_gru_forward for linear_before_reset)
// and RNN (vanilla_rnn_forward), forward inference in f32, written like oneDNN's examples/primitives/lstm.cpp.
//
// Conventions shifted between ONNX and oneDNN (one layer, L = 1):
//   X [T, N, I] is src_layer `tnc` (layout 1, [N, T, I]: the same dims through strides);
//   W [D, G*H, I] and R [D, G*H, H] are weights_layer/_iter `ldigo` [1, D, I, G, H]: copied once at compile
//   time with the gates in oneDNN's order (LSTM: ONNX i, o, f, c -> oneDNN i, f, c~, o; GRU z, r, h -> u, r, o,
//   the same), then reordered into the layout the primitive picks;
//   B [D, 2*G*H] (Wb then Rb) is bias `ldgo` [1, D, G, H] = Wb + Rb, except lbr_gru's [1, D, 4, H]: u and r
//   take Wb + Rb, o takes Wbh, and the fourth gate Rbh, which oneDNN adds inside r (.) (h Rh^T + Rbh) as ONNX does;
//   P [D, 3*H] (i, o, f) is weights_peephole `ldgo` [1, D, 3, H] in oneDNN's order i, f, o;
//   initial_h/initial_c and Y_h/Y_c [D, N, H] are src_iter/dst_iter(_c) `ldnc` [1, D, N, H] (layout 1 through
//   strides). Initial states the node omits are oneDNN's zero descriptor (zero state), but an LSTM takes both
//   or neither: one of the pair omitted is a zero state in the run's workspace. Final states are always asked
//   for; those the node omits land in the workspace.
//   Y [T, D, N, H] is dst_layer `tnc` [T, N, D*H] when D = 1 (layout 1 through strides); bidirectional
//   (bidirectional_concat) writes [T, N, 2H] into the run's workspace, and the kernel copies it into Y's order.
//
// Declines (the reason says which): weights, recurrence weights, bias or peepholes that are not constants (they
// are prepared once), sequence_lens (oneDNN runs every batch entry for all T steps), clip, activations other
// than the defaults (RNN: Tanh, Relu, LeakyRelu, Sigmoid, which vanilla_rnn_forward has), input_forget.
#include <cstring>

#include "dnnl/primitive_kernel.h"
#include "ops/rnn/recurrent.h"

namespace cnnx {

namespace {

using namespace dnnl;

// Which ONNX gate row block (of G) oneDNN's gate g reads.
int64_t onnx_gate(const RnnParams& p, int64_t g) {
  static const int64_t lstm[4] = {0, 2, 3, 1};  // oneDNN i, f, c~, o <- ONNX i, o, f, c
  return p.kind == RnnKind::lstm ? lstm[g] : g;
}

// A strided f32 descriptor over dims listed in oneDNN's order.
memory::desc strided(const memory::dims& dims, const memory::dims& strides) {
  return memory::desc(dims, dt::f32, strides);
}

// The reason the case is not oneDNN's, or "".
std::string declines(const RnnParams& p, const KernelArgs& a) {
  if (p.magnitudes) return "computes magnitudes (the reference's job)";
  if (present(a.in, kRnnSequenceLens)) return "sequence_lens (oneDNN runs every batch entry for all steps)";
  const std::string why = dnnl_declines_inputs(a.in);
  if (!why.empty()) return why;
  for (size_t i : {size_t(kRnnW), size_t(kRnnR), size_t(kRnnB), size_t(kRnnP)})
    if (present(a.in, i) && !a.in[i].constant && (p.kind == RnnKind::lstm || i != kRnnP))
      return "W, R, B and P must be constants (the kernel prepares them once in oneDNN's layout)";
  if (p.has_clip) return "clip (oneDNN 2.6's RNN primitives do not clip)";
  if (p.input_forget) return "input_forget (oneDNN's LSTM has no coupled input and forget gates)";
  for (size_t k = 0; k < p.activations.size(); ++k) {
    const RnnActivation& f = p.activations[k];
    const size_t role = k % size_t(p.functions());
    bool fine = false;
    if (p.kind == RnnKind::rnn)
      fine = f.kind == RnnActivationKind::tanh || f.kind == RnnActivationKind::relu ||
             f.kind == RnnActivationKind::leaky_relu || f.kind == RnnActivationKind::sigmoid;
    else
      fine = role == 0 ? f.kind == RnnActivationKind::sigmoid : f.kind == RnnActivationKind::tanh;
    if (!fine)
      return std::string("activation ") + rnn_activation_name(f.kind) + " (oneDNN's " + p.op_name() +
             (p.kind == RnnKind::rnn ? " has Tanh, Relu, LeakyRelu and Sigmoid)" : " has only the default activations)");
  }
  if (p.kind == RnnKind::rnn) {
    const RnnActivationKind k0 = p.activations[0].kind;
    for (const RnnActivation& f : p.activations)
      if (f.kind != k0 || f.alpha != p.activations[0].alpha)
        return "directions with different activations (vanilla_rnn_forward takes one)";
  }
  return "";
}

class RecurrentDnnl : public CompiledKernel {
 public:
  void run(const KernelIO& io) const override {
    const Tensor* h0 = has_h0_ ? io.in[kRnnInitialH] : nullptr;
    const Tensor* c0 = has_c0_ ? io.in[kRnnInitialC] : nullptr;
    Tensor* Y = !io.out.empty() ? io.out[0] : nullptr;
    Tensor* Y_h = io.out.size() > 1 ? io.out[1] : nullptr;
    Tensor* Y_c = lstm_ && io.out.size() > 2 ? io.out[2] : nullptr;
    // The workspace: dst_layer when it is not Y itself (bidirectional, or Y omitted), then a zero state for an
    // LSTM state the node lacks when it has the other (oneDNN takes both or neither), then where final states
    // the node does not want go (the primitive always gives them: whether an output is omitted is known
    // for sure only when it runs).
    const bool direct = Y && D_ == 1;
    const size_t layer_bytes = direct ? 0 : round_up(prim_dst_md_.get_size());
    const size_t state_bytes = round_up(state_md_.get_size());
    DnnlWorkspace workspace(io.context, layer_bytes + 2 * state_bytes);
    char* layer = workspace.data();
    char* zero_state = workspace.data() + layer_bytes;
    char* unwanted_state = zero_state + state_bytes;
    if (src_states_ && (!h0 || !c0)) std::memset(zero_state, 0, state_bytes);
    DnnlArgs args{{DNNL_ARG_SRC_LAYER, dnnl_wrap(src_layer_md_, *io.in[kRnnX])},
                  {DNNL_ARG_WEIGHTS_LAYER, weights_layer_},
                  {DNNL_ARG_WEIGHTS_ITER, weights_iter_},
                  {DNNL_ARG_BIAS, bias_},
                  {DNNL_ARG_DST_LAYER, direct ? dnnl_wrap(dst_layer_md_, *Y) : DnnlMemoryArg(prim_dst_md_, layer)}};
    if (peephole_) args.insert({DNNL_ARG_WEIGHTS_PEEPHOLE, peephole_});
    auto state = [&](const Tensor* t, char* instead) {
      return t ? dnnl_wrap(state_md_, *t) : DnnlMemoryArg(state_md_, instead);
    };
    if (src_states_) {
      args.insert({DNNL_ARG_SRC_ITER, state(h0, zero_state)});
      if (lstm_) args.insert({DNNL_ARG_SRC_ITER_C, state(c0, zero_state)});
    }
    args.insert({DNNL_ARG_DST_ITER, state(Y_h, unwanted_state)});
    if (lstm_) args.insert({DNNL_ARG_DST_ITER_C, state(Y_c, unwanted_state)});
    prim_.execute(io.context, args);
    if (Y && !direct) {  // [T, N, D*H] -> Y [T, D, N, H] (layout 1: [N, T, D, H])
      const float* from = reinterpret_cast<const float*>(layer);
      float* y = Y->data<float>();
      for (int64_t t = 0; t < T_; ++t)
        for (int64_t n = 0; n < N_; ++n)
          for (int64_t d = 0; d < D_; ++d) {
            const int64_t to = batch_first_ ? ((n * T_ + t) * D_ + d) * H_ : ((t * D_ + d) * N_ + n) * H_;
            std::memcpy(y + to, from + ((t * N_ + n) * D_ + d) * H_, size_t(H_) * sizeof(float));
          }
    }
  }

  static size_t round_up(size_t bytes) { return (bytes + 63) / 64 * 64; }

  DnnlPrimitive prim_;
  memory::desc src_layer_md_, dst_layer_md_, prim_dst_md_, state_md_;
  memory weights_layer_, weights_iter_, bias_, peephole_;
  std::shared_ptr<void> owned_[4];  // the prepared weights' buffers
  int64_t T_ = 0, N_ = 0, D_ = 1, H_ = 0;
  bool batch_first_ = false, lstm_ = false;
  bool has_h0_ = false, has_c0_ = false;
  bool src_states_ = false;  // the primitive takes initial states
};

// The plain ldigo copy of W or R ([D, G*H, K] in ONNX's gate order) in oneDNN's gate order.
std::vector<float> ldigo(const RnnParams& p, const Tensor& w, int64_t D, int64_t G, int64_t H, int64_t K) {
  std::vector<float> out(size_t(D * K * G * H));
  const float* src = w.data<float>();
  for (int64_t d = 0; d < D; ++d)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t g = 0; g < G; ++g)
        for (int64_t o = 0; o < H; ++o)
          out[size_t(((d * K + k) * G + g) * H + o)] = src[(d * G * H + onnx_gate(p, g) * H + o) * K + k];
  return out;
}

// `plain` (described by `from`) reordered once into a buffer of `to`, owned through `owner`.
memory prepare(const std::vector<float>& plain, const memory::desc& from, const memory::desc& to,
               const CompileContext& context, std::shared_ptr<void>& owner) {
  OwnedMemory prepared(to, context);
  memory source(from, dnnl_engine(), const_cast<float*>(plain.data()));
  stream s(dnnl_engine());
  reorder(source, prepared.memory).execute(s, source, prepared.memory);
  s.wait();
  owner = prepared.buffer;
  return prepared.memory;
}

Compiled compile_recurrent(const std::shared_ptr<const RnnParams>& params, const KernelArgs& a) {
  const RnnParams& p = *params;
  const std::string why = declines(p, a);
  if (!why.empty()) return Compiled::decline(why);
  const RnnGeometry g = resolve_rnn_geometry(p, a.in);
  return compile_or_refuse([&]() -> Compiled {
    const memory::dim T = g.T, N = g.N, I = g.I, H = g.H, D = g.D, G = g.G;
    const bool lbr = p.kind == RnnKind::gru && p.linear_before_reset, lstm = p.kind == RnnKind::lstm;
    auto k = std::make_unique<RecurrentDnnl>();
    k->T_ = T, k->N_ = N, k->D_ = D, k->H_ = H, k->batch_first_ = p.batch_first, k->lstm_ = lstm;
    // X as tnc; layout 1 ([N, T, I]) through strides.
    k->src_layer_md_ = p.batch_first ? strided({T, N, I}, {I, T * I, 1}) : memory::desc({T, N, I}, dt::f32, tag::tnc);
    // Y as tnc [T, N, H] when D = 1 (Y [T, 1, N, H], or [N, T, 1, H] through strides).
    k->dst_layer_md_ = p.batch_first ? strided({T, N, H}, {H, T * H, 1}) : memory::desc({T, N, H}, dt::f32, tag::tnc);
    // What the primitive writes: Y's view when D = 1 (a workspace of the same size when Y is omitted), else a
    // plain tnc workspace [T, N, 2H] that run() copies into Y.
    k->prim_dst_md_ = D == 1 ? k->dst_layer_md_ : memory::desc({T, N, D * H}, dt::f32, tag::tnc);
    // States as ldnc [1, D, N, H]; layout 1 ([N, D, H]) through strides.
    k->state_md_ = p.batch_first ? strided({1, D, N, H}, {D * N * H, H, D * H, 1})
                                 : memory::desc({1, D, N, H}, dt::f32, tag::ldnc);
    k->has_h0_ = present(a.in, kRnnInitialH);
    k->has_c0_ = lstm && present(a.in, kRnnInitialC);
    k->src_states_ = k->has_h0_ || k->has_c0_;
    const memory::desc src_iter = k->src_states_ ? k->state_md_ : memory::desc();
    const memory::desc src_iter_c = lstm && k->src_states_ ? k->state_md_ : memory::desc();
    const memory::desc dst_iter = k->state_md_;
    const memory::desc dst_iter_c = lstm ? k->state_md_ : memory::desc();
    const memory::desc wl_any({1, D, I, G, H}, dt::f32, tag::any), wi_any({1, D, H, G, H}, dt::f32, tag::any);
    const memory::dim bias_gates = lbr ? G + 1 : G;
    const memory::desc bias_md({1, D, bias_gates, H}, dt::f32, tag::ldgo);
    const bool peepholes = lstm && present(a.in, kRnnP);
    const memory::desc peephole_md = peepholes ? memory::desc({1, D, 3, H}, dt::f32, tag::ldgo) : memory::desc();
    const rnn_direction direction = p.direction == RnnDirection::bidirectional ? rnn_direction::bidirectional_concat
                                    : p.direction == RnnDirection::reverse    ? rnn_direction::unidirectional_right2left
                                                                              : rnn_direction::unidirectional_left2right;
    const prop_kind inference = prop_kind::forward_inference;
    primitive_desc_base pd;
    memory::desc wl_md, wi_md;
    if (lstm) {
      lstm_forward::primitive_desc lpd(
          lstm_forward::desc(inference, direction, k->src_layer_md_, src_iter, src_iter_c, wl_any, wi_any, peephole_md,
                             bias_md, k->prim_dst_md_, dst_iter, dst_iter_c),
          dnnl_attr(), dnnl_engine());
      wl_md = lpd.weights_layer_desc(), wi_md = lpd.weights_iter_desc();
      pd = lpd;
    } else if (lbr) {
      lbr_gru_forward::primitive_desc gpd(
          lbr_gru_forward::desc(inference, direction, k->src_layer_md_, src_iter, wl_any, wi_any, bias_md,
                                k->prim_dst_md_, dst_iter),
          dnnl_attr(), dnnl_engine());
      wl_md = gpd.weights_layer_desc(), wi_md = gpd.weights_iter_desc();
      pd = gpd;
    } else if (p.kind == RnnKind::gru) {
      gru_forward::primitive_desc gpd(gru_forward::desc(inference, direction, k->src_layer_md_, src_iter, wl_any,
                                                        wi_any, bias_md, k->prim_dst_md_, dst_iter),
                                      dnnl_attr(), dnnl_engine());
      wl_md = gpd.weights_layer_desc(), wi_md = gpd.weights_iter_desc();
      pd = gpd;
    } else {
      const RnnActivation& f = p.activations[0];
      // ONNX LeakyRelu(alpha) is oneDNN's eltwise_relu with alpha as the negative slope; Relu is slope 0.
      const algorithm act = f.kind == RnnActivationKind::tanh      ? algorithm::eltwise_tanh
                            : f.kind == RnnActivationKind::sigmoid ? algorithm::eltwise_logistic
                                                                   : algorithm::eltwise_relu;
      const float alpha = f.kind == RnnActivationKind::leaky_relu ? float(f.alpha) : 0.f;
      vanilla_rnn_forward::primitive_desc vpd(
          vanilla_rnn_forward::desc(inference, act, direction, k->src_layer_md_, src_iter, wl_any, wi_any, bias_md,
                                    k->prim_dst_md_, dst_iter, rnn_flags::undef, alpha),
          dnnl_attr(), dnnl_engine());
      wl_md = vpd.weights_layer_desc(), wi_md = vpd.weights_iter_desc();
      pd = vpd;
    }
    k->prim_ = DnnlPrimitive(pd);
    // Weights in oneDNN's gate order, reordered once into the layouts the primitive picked.
    const Tensor& W = *a.in[kRnnW].constant;
    const Tensor& R = *a.in[kRnnR].constant;
    k->weights_layer_ = prepare(ldigo(p, W, D, G, H, I), memory::desc({1, D, I, G, H}, dt::f32, tag::ldigo), wl_md,
                                a.context, k->owned_[0]);
    k->weights_iter_ = prepare(ldigo(p, R, D, G, H, H), memory::desc({1, D, H, G, H}, dt::f32, tag::ldigo), wi_md,
                               a.context, k->owned_[1]);
    std::vector<float> bias(size_t(D * bias_gates * H), 0.f);
    if (present(a.in, kRnnB)) {
      const float* b = a.in[kRnnB].constant->data<float>();
      for (int64_t d = 0; d < D; ++d)
        for (int64_t gate = 0; gate < G; ++gate)
          for (int64_t o = 0; o < H; ++o) {
            const float* wb = b + d * 2 * G * H + onnx_gate(p, gate) * H + o;
            const float* rb = wb + G * H;
            float& to = bias[size_t((d * bias_gates + gate) * H + o)];
            if (lbr && gate == 2) {  // o takes Wbh; the extra gate Rbh
              to = *wb;
              bias[size_t((d * bias_gates + 3) * H + o)] = *rb;
            } else {
              to = float(double(*wb) + double(*rb));
            }
          }
    }
    k->bias_ = prepare(bias, bias_md, bias_md, a.context, k->owned_[2]);
    if (peepholes) {
      std::vector<float> ph(size_t(D * 3 * H));
      const float* src = a.in[kRnnP].constant->data<float>();
      static const int64_t onnx_peephole[3] = {0, 2, 1};  // oneDNN i, f, o <- ONNX i, o, f
      for (int64_t d = 0; d < D; ++d)
        for (int64_t gate = 0; gate < 3; ++gate)
          for (int64_t o = 0; o < H; ++o) ph[size_t((d * 3 + gate) * H + o)] = src[(d * 3 + onnx_peephole[gate]) * H + o];
      k->peephole_ = prepare(ph, peephole_md, peephole_md, a.context, k->owned_[3]);
    }
    return std::unique_ptr<CompiledKernel>(std::move(k));
  });
}

}  // namespace

Kernel<RnnParams> recurrent_dnnl_kernel() { return {"dnnl", compile_recurrent}; }

}  // namespace cnnx
