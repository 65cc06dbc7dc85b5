#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/rnn/recurrent.h"

namespace cnnx {

namespace {

// A sum and the sum of its terms' absolute values (the magnitude Tolerance::terms_rel scales).
struct Sum {
  double value = 0, magnitude = 0;
  void add(double term) {
    value += term;
    magnitude += std::fabs(term);
  }
};

// Element offsets of the tensors' layouts (layout 0, or 1: batch first).
struct Indexing {
  const RnnGeometry& g;
  bool batch_first;
  int64_t x(int64_t t, int64_t n) const { return (batch_first ? n * g.T + t : t * g.N + n) * g.I; }
  int64_t y(int64_t t, int64_t d, int64_t n) const {
    return (batch_first ? (n * g.T + t) * g.D + d : (t * g.D + d) * g.N + n) * g.H;
  }
  int64_t state(int64_t d, int64_t n) const { return (batch_first ? n * g.D + d : d * g.N + n) * g.H; }
};

// The inputs of one direction, as plain pointers (null when omitted).
struct DirectionInputs {
  const float* W;   // [G*H, I]
  const float* R;   // [G*H, H]
  const float* Wb;  // [G*H] or null
  const float* Rb;  // [G*H] or null
  const float* P;   // [3*H] (i, o, f) or null
  const RnnActivation* f;  // the direction's functions: f, then g, then h
};

double clipped(const RnnParams& p, double v) { return p.has_clip ? std::min(std::max(v, -p.clip), p.clip) : v; }

// Row `row` of a [rows, K] matrix times vector v (K values), accumulated into s.
template <class V>
void add_row_product(Sum& s, const float* m, int64_t row, int64_t K, const V* v) {
  const float* r = m + row * K;
  for (int64_t k = 0; k < K; ++k) s.add(double(r[k]) * double(v[k]));
}

// One step of one batch entry in one direction: updates h (and c), and sets mag[j] to the largest magnitude
// among the gate sums that made h[j].
void step(const RnnParams& p, const RnnGeometry& g, const DirectionInputs& in, const float* x, std::vector<double>& h,
          std::vector<double>& c, std::vector<double>& mag) {
  const int64_t H = g.H, I = g.I;
  // Xt W^T + Wb (+ Ht-1 R^T + Rb, except GRU's h gate, which reads r first) per gate row.
  auto gate_sum = [&](int gate, int64_t j, bool with_recurrence) {
    Sum s;
    const int64_t row = gate * H + j;
    add_row_product(s, in.W, row, I, x);
    if (in.Wb) s.add(in.Wb[row]);
    if (with_recurrence) {
      add_row_product(s, in.R, row, H, h.data());
      if (in.Rb) s.add(in.Rb[row]);
    }
    return s;
  };
  std::vector<double> next(size_t(H), 0.0);
  switch (p.kind) {
    case RnnKind::rnn:
      for (int64_t j = 0; j < H; ++j) {
        const Sum s = gate_sum(0, j, true);
        next[j] = in.f[0](clipped(p, s.value));
        mag[j] = s.magnitude;
      }
      break;
    case RnnKind::gru: {
      const size_t count = size_t(H);
      std::vector<double> z(count), r(count), zr_mag(count);
      for (int64_t j = 0; j < H; ++j) {
        const Sum sz = gate_sum(0, j, true), sr = gate_sum(1, j, true);
        z[j] = in.f[0](clipped(p, sz.value));
        r[j] = in.f[0](clipped(p, sr.value));
        zr_mag[j] = std::max(sz.magnitude, sr.magnitude);
      }
      std::vector<double> rh(count);  // rt (.) Ht-1, for linear_before_reset = 0
      for (int64_t k = 0; k < H; ++k) rh[k] = r[k] * h[k];
      for (int64_t j = 0; j < H; ++j) {
        Sum s = gate_sum(2, j, false);
        const int64_t row = 2 * H + j;
        if (p.linear_before_reset) {
          Sum rec;  // Ht-1 Rh^T + Rbh, scaled by rt as a whole
          add_row_product(rec, in.R, row, H, h.data());
          if (in.Rb) rec.add(in.Rb[row]);
          s.value += r[j] * rec.value;
          s.magnitude += std::fabs(r[j]) * rec.magnitude;
        } else {
          add_row_product(s, in.R, row, H, rh.data());
          if (in.Rb) s.add(in.Rb[row]);
        }
        const double hh = in.f[1](clipped(p, s.value));
        next[j] = (1 - z[j]) * hh + z[j] * h[j];
        mag[j] = std::max(zr_mag[j], s.magnitude);
      }
      break;
    }
    case RnnKind::lstm:
      for (int64_t j = 0; j < H; ++j) {
        // Gate rows: i 0, o 1, f 2, c 3; peepholes P: i, o, f.
        Sum si = gate_sum(0, j, true), so = gate_sum(1, j, true), sf = gate_sum(2, j, true), sc = gate_sum(3, j, true);
        if (in.P) {
          si.add(double(in.P[j]) * c[j]);
          sf.add(double(in.P[2 * H + j]) * c[j]);
        }
        const double i = in.f[0](clipped(p, si.value));
        const double f = p.input_forget ? 1 - i : in.f[0](clipped(p, sf.value));
        const double cc = in.f[1](clipped(p, sc.value));
        const double c_new = f * c[j] + i * cc;
        if (in.P) so.add(double(in.P[H + j]) * c_new);
        const double o = in.f[0](clipped(p, so.value));
        c[j] = c_new;
        next[j] = o * in.f[2](c_new);
        mag[j] = std::max({si.magnitude, so.magnitude, sf.magnitude, sc.magnitude});
      }
      break;
  }
  h.swap(next);
}

void recurrent_ref(const RnnParams& p, const KernelIO& io) {
  std::vector<ValueInfo> infos;
  for (const Tensor* t : io.in) infos.push_back(t ? ValueInfo::of(t->dtype(), t->shape()) : ValueInfo());
  const RnnGeometry g = resolve_rnn_geometry(p, infos);
  const Indexing at{g, p.batch_first};
  const int64_t T = g.T, N = g.N, H = g.H, G = g.G;
  auto in_data = [&](size_t i) -> const float* {
    return i < io.in.size() && io.in[i] ? io.in[i]->data<float>() : nullptr;
  };
  auto out_data = [&](size_t i) -> float* { return i < io.out.size() && io.out[i] ? io.out[i]->data<float>() : nullptr; };
  const float* X = in_data(kRnnX);
  const float* B = g.has_B ? in_data(kRnnB) : nullptr;
  const float* h0 = g.has_initial_h ? in_data(kRnnInitialH) : nullptr;
  const float* c0 = g.has_initial_c ? in_data(kRnnInitialC) : nullptr;
  const float* P = g.has_P ? in_data(kRnnP) : nullptr;
  std::vector<int64_t> lengths(size_t(N), T);
  if (g.has_sequence_lens) {
    const int32_t* s = io.in[kRnnSequenceLens]->data<int32_t>();
    for (int64_t n = 0; n < N; ++n) {
      require(s[n] >= 0 && s[n] <= T, p.op_name(), ": sequence_lens[", n, "] is ", s[n],
              ", outside [0, seq_length = ", T, "]");
      lengths[n] = s[n];
    }
  }
  float* Y = out_data(0);
  float* Y_h = out_data(1);
  float* Y_c = p.kind == RnnKind::lstm ? out_data(2) : nullptr;
  if (Y) std::fill(Y, Y + io.out[0]->numel(), 0.f);  // steps past a batch entry's length stay 0

  for (int64_t d = 0; d < g.D; ++d) {
    const bool reverse = p.direction == RnnDirection::reverse || d == 1;
    const DirectionInputs in{in_data(kRnnW) + d * G * H * g.I,
                             in_data(kRnnR) + d * G * H * H,
                             B ? B + d * 2 * G * H : nullptr,
                             B ? B + d * 2 * G * H + G * H : nullptr,
                             P ? P + d * 3 * H : nullptr,
                             p.activations.data() + d * p.functions()};
    for (int64_t n = 0; n < N; ++n) {
      std::vector<double> h(size_t(H), 0.0), c(size_t(H), 0.0), mag(size_t(H), 0.0);
      for (int64_t j = 0; j < H; ++j) {
        if (h0) h[j] = h0[at.state(d, n) + j];
        if (c0) c[j] = c0[at.state(d, n) + j];
      }
      for (int64_t s = 0; s < lengths[n]; ++s) {
        const int64_t t = reverse ? lengths[n] - 1 - s : s;
        step(p, g, in, X + at.x(t, n), h, c, mag);
        if (Y)
          for (int64_t j = 0; j < H; ++j) Y[at.y(t, d, n) + j] = float(p.magnitudes ? mag[j] : h[j]);
      }
      for (int64_t j = 0; j < H; ++j) {
        if (Y_h) Y_h[at.state(d, n) + j] = float(p.magnitudes ? mag[j] : h[j]);
        if (Y_c) Y_c[at.state(d, n) + j] = float(p.magnitudes ? mag[j] : c[j]);
      }
    }
  }
}

}  // namespace

Kernel<RnnParams> recurrent_ref_kernel() { return ref_kernel(recurrent_ref); }

}  // namespace cnnx
