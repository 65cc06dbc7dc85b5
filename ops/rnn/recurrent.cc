#include "ops/rnn/recurrent.h"

#include <cmath>
#include <string>

namespace cnnx {

namespace {

constexpr int64_t kMaxHidden = int64_t(1) << 31;

std::vector<std::string> strings_attr(const Node& node, const char* name) {
  auto it = node.attrs.all().find(name);
  if (it == node.attrs.all().end()) return {};
  require(it->second.kind == Attribute::Kind::strings, "attribute ", name, " must be a list of strings");
  return it->second.strings;
}

// ONNX's defaults: RNN f = Tanh; GRU f = Sigmoid, g = Tanh; LSTM f = Sigmoid, g = h = Tanh.
std::vector<std::string> default_activations(RnnKind kind) {
  switch (kind) {
    case RnnKind::rnn: return {"Tanh"};
    case RnnKind::gru: return {"Sigmoid", "Tanh"};
    case RnnKind::lstm: return {"Sigmoid", "Tanh", "Tanh"};
  }
  return {};
}

RnnParams parse_recurrent(const Node& node, RnnKind kind) {
  RnnParams p;
  p.kind = kind;
  const bool lstm = kind == RnnKind::lstm, gru = kind == RnnKind::gru;
  require_inputs(node, 3, lstm ? 8 : 6);
  require_outputs(node, 0, lstm ? 3 : 2);
  // Every attribute any opset of the three ops has; those of other opsets or ops are refused below by name.
  node.attrs.allow_only({"activation_alpha", "activation_beta", "activations", "clip", "direction", "hidden_size",
                         "layout", "output_sequence", "linear_before_reset", "input_forget"});
  require(node.opset >= 14 || !node.attrs.has("layout"), "attribute layout needs opset 14 or newer; the model imports opset ",
          node.opset);
  require(node.opset < 7 || !node.attrs.has("output_sequence"),
          "attribute output_sequence exists only before opset 7; the model imports opset ", node.opset);
  require(gru || !node.attrs.has("linear_before_reset"), "attribute linear_before_reset is GRU's, not ", p.op_name(), "'s");
  require(!gru || node.opset >= 3 || !node.attrs.has("linear_before_reset"),
          "attribute linear_before_reset needs GRU opset 3 or newer; the model imports opset ", node.opset);
  require(lstm || !node.attrs.has("input_forget"), "attribute input_forget is LSTM's, not ", p.op_name(), "'s");
  // output_sequence (opset 1) only said whether Y is wanted; Y is written when the node has it.
  node.attrs.get_flag("output_sequence", false);

  const std::string direction = node.attrs.get_string("direction", "forward");
  if (direction == "forward") p.direction = RnnDirection::forward;
  else if (direction == "reverse") p.direction = RnnDirection::reverse;
  else if (direction == "bidirectional") p.direction = RnnDirection::bidirectional;
  else require(false, "attribute direction must be forward, reverse or bidirectional, got '", direction, "'");

  if (node.attrs.has("hidden_size")) {
    p.hidden_size = node.attrs.get_int("hidden_size", 0);
    require(p.hidden_size > 0 && p.hidden_size <= kMaxHidden, "attribute hidden_size must be in [1, ", kMaxHidden,
            "], got ", p.hidden_size);
  }
  if (node.attrs.has("clip")) {
    const float clip = node.attrs.get_float("clip", 0.f);
    require(clip > 0 && std::isfinite(clip), "attribute clip must be a positive finite threshold, got ", clip);
    p.has_clip = true;
    p.clip = clip;
  }
  const int64_t layout = node.attrs.get_int("layout", 0);
  require(layout == 0 || layout == 1, "attribute layout must be 0 or 1, got ", layout);
  p.batch_first = layout == 1;
  p.linear_before_reset = node.attrs.get_flag("linear_before_reset", false);
  p.input_forget = node.attrs.get_flag("input_forget", false);

  // activations: the kind's functions per direction; a bidirectional node given one direction's list uses it
  // for both (as ONNX Runtime does).
  std::vector<std::string> names = strings_attr(node, "activations");
  const size_t per_direction = size_t(p.functions()), directions = size_t(p.directions());
  if (names.empty()) {
    names = default_activations(kind);
    if (node.attrs.has("activation_alpha") || node.attrs.has("activation_beta"))
      require(false, "attributes activation_alpha and activation_beta need an activations list");
    if (directions == 2) {
      const std::vector<std::string> one_direction = names;
      names.insert(names.end(), one_direction.begin(), one_direction.end());
    }
  } else {
    require(names.size() == per_direction * directions || (directions == 2 && names.size() == per_direction),
            "attribute activations must list ", per_direction, " function", per_direction > 1 ? "s" : "",
            " per direction (", per_direction * directions, " for direction ", direction, "), got ", names.size());
  }
  p.activations = parse_rnn_activations(names, node.attrs.get_floats("activation_alpha"),
                                        node.attrs.get_floats("activation_beta"));
  if (p.activations.size() < per_direction * directions) {
    const std::vector<RnnActivation> one_direction = p.activations;
    p.activations.insert(p.activations.end(), one_direction.begin(), one_direction.end());
  }
  return p;
}

// The dims of input i, `rank` of them (all unknown when the input's rank is), or a message naming the input.
Shape dims_of(const std::vector<ValueInfo>& in, size_t i, size_t rank, const char* name, const std::string& want) {
  const ValueInfo& v = input(in, i);
  if (!v.rank_known) return Shape(rank, kUnknownDim);
  require(v.shape.size() == rank, "input ", name, " must be ", want, ", got shape ", to_string(v.shape));
  return v.shape;
}

// Sets `dim` from `got` when unknown; else requires them equal (unless got is unknown).
void agree(int64_t& dim, int64_t got, const char* name, const std::string& want, const Shape& shape) {
  if (got < 0) return;
  require(dim < 0 || dim == got, "input ", name, " must be ", want, ", got shape ", to_string(shape));
  dim = got;
}

// Requires `got` to be `fixed` (unless either is unknown).
void expect(int64_t fixed, int64_t got, const char* name, const std::string& want, const Shape& shape) {
  require(fixed < 0 || got < 0 || fixed == got, "input ", name, " must be ", want, ", got shape ", to_string(shape));
}

}  // namespace

RnnParams parse_lstm(const Node& node) { return parse_recurrent(node, RnnKind::lstm); }
RnnParams parse_gru(const Node& node) { return parse_recurrent(node, RnnKind::gru); }
RnnParams parse_rnn(const Node& node) { return parse_recurrent(node, RnnKind::rnn); }

RnnGeometry resolve_rnn_geometry(const RnnParams& p, const std::vector<ValueInfo>& in) {
  RnnGeometry g;
  g.D = p.directions();
  g.G = p.gates();
  g.H = p.hidden_size;
  g.T = g.N = g.I = kUnknownDim;
  const bool lstm = p.kind == RnnKind::lstm;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!present(in, i)) continue;
    if (i == kRnnSequenceLens) require_dtype(in, i, {DType::i32}, "input sequence_lens");
    else require_dtype(in, i, {DType::f32});
  }
  g.has_B = present(in, kRnnB);
  g.has_sequence_lens = present(in, kRnnSequenceLens);
  g.has_initial_h = present(in, kRnnInitialH);
  g.has_initial_c = lstm && present(in, kRnnInitialC);
  g.has_P = lstm && present(in, kRnnP);
  const std::string G = std::to_string(g.G), D = std::to_string(g.D);
  const std::string dir_note = " (num_directions " + D + ": direction is " +
                               (p.direction == RnnDirection::bidirectional ? "bidirectional" : p.direction == RnnDirection::reverse ? "reverse" : "forward") + ")";

  const std::string x_want = p.batch_first ? "[batch, seq_length, input_size] (layout 1)" : "[seq_length, batch, input_size]";
  const Shape x = dims_of(in, kRnnX, 3, "X", x_want);
  g.T = p.batch_first ? x[1] : x[0];
  g.N = p.batch_first ? x[0] : x[1];
  g.I = x[2];

  const std::string r_want = "[num_directions, " + G + "*hidden_size, hidden_size]" + dir_note;
  const Shape r = dims_of(in, kRnnR, 3, "R", r_want);
  expect(g.D, r[0], "R", r_want, r);
  agree(g.H, r[2], "R", r_want + (p.hidden_size > 0 ? " with hidden_size " + std::to_string(p.hidden_size) : ""), r);
  // Bounded so that every product of sizes below stays far from overflow (the tensors themselves are checked
  // when they are allocated).
  require(g.H <= kMaxHidden, "hidden size ", g.H, " (from R) is above ", kMaxHidden);
  if (g.H >= 0) expect(g.G * g.H, r[1], "R", r_want, r);
  else if (r[1] >= 0) {
    require(r[1] % g.G == 0, "input R must be ", r_want, ", got shape ", to_string(r));
    g.H = r[1] / g.G;
    require(g.H <= kMaxHidden, "hidden size ", g.H, " (from R) is above ", kMaxHidden);
  }

  const std::string w_want = "[num_directions, " + G + "*hidden_size, input_size]" + dir_note;
  const Shape w = dims_of(in, kRnnW, 3, "W", w_want);
  expect(g.D, w[0], "W", w_want, w);
  if (g.H < 0 && w[1] >= 0) {
    require(w[1] % g.G == 0, "input W must be ", w_want, ", got shape ", to_string(w));
    g.H = w[1] / g.G;
    require(g.H <= kMaxHidden, "hidden size ", g.H, " (from W) is above ", kMaxHidden);
  }
  if (g.H >= 0) expect(g.G * g.H, w[1], "W", w_want, w);
  agree(g.I, w[2], "W", w_want + ", input_size from X's last dim", w);

  const std::string hs = g.H >= 0 ? std::to_string(g.H) : "hidden_size";
  if (g.has_B) {
    const std::string want = "[num_directions, 2*" + G + "*hidden_size] = [" + D + ", " +
                             (g.H >= 0 ? std::to_string(2 * g.G * g.H) : "2*" + G + "*hidden_size") + "]";
    const Shape b = dims_of(in, kRnnB, 2, "B", want);
    expect(g.D, b[0], "B", want, b);
    if (g.H >= 0) expect(2 * g.G * g.H, b[1], "B", want, b);
  }
  if (g.has_sequence_lens) {
    const Shape s = dims_of(in, kRnnSequenceLens, 1, "sequence_lens", "[batch]");
    agree(g.N, s[0], "sequence_lens", "[batch], batch from X", s);
  }
  const std::string state_want = p.batch_first ? "[batch, num_directions, hidden_size] = [" : "[num_directions, batch, hidden_size] = [";
  for (size_t slot : {size_t(kRnnInitialH), size_t(kRnnInitialC)}) {
    if (slot == kRnnInitialH ? !g.has_initial_h : !g.has_initial_c) continue;
    const char* name = slot == kRnnInitialH ? "initial_h" : "initial_c";
    const std::string want = state_want + (p.batch_first ? "batch, " + D : D + ", batch") + ", " + hs + "]" +
                             (p.batch_first ? " (layout 1)" : "");
    const Shape s = dims_of(in, slot, 3, name, want);
    expect(g.D, p.batch_first ? s[1] : s[0], name, want, s);
    agree(g.N, p.batch_first ? s[0] : s[1], name, want + ", batch from X", s);
    agree(g.H, s[2], name, want, s);
  }
  if (g.has_P) {
    const std::string want = "[num_directions, 3*hidden_size] = [" + D + ", " +
                             (g.H >= 0 ? std::to_string(3 * g.H) : "3*hidden_size") + "]";
    const Shape s = dims_of(in, kRnnP, 2, "P", want);
    expect(g.D, s[0], "P", want, s);
    if (g.H >= 0) expect(3 * g.H, s[1], "P", want, s);
  }
  return g;
}

std::vector<ValueInfo> infer_recurrent(const RnnParams& p, const std::vector<ValueInfo>& in) {
  const RnnGeometry g = resolve_rnn_geometry(p, in);
  const Shape y = p.batch_first ? Shape{g.N, g.T, g.D, g.H} : Shape{g.T, g.D, g.N, g.H};
  const Shape state = p.batch_first ? Shape{g.N, g.D, g.H} : Shape{g.D, g.N, g.H};
  std::vector<ValueInfo> out{ValueInfo::of(DType::f32, y), ValueInfo::of(DType::f32, state)};
  if (p.kind == RnnKind::lstm) out.push_back(ValueInfo::of(DType::f32, state));
  return out;
}

double recurrent_flops(const RnnParams& p, const std::vector<ValueInfo>& in) {
  const RnnGeometry g = resolve_rnn_geometry(p, in);
  return 2.0 * double(g.T) * double(g.N) * double(g.D) * double(g.G) * double(g.H) * double(g.I + g.H);
}

TermsRun<RnnParams> recurrent_terms(const RnnParams& p) {
  TermsRun<RnnParams> run{p, 1};
  run.params.magnitudes = true;
  return run;
}

}  // namespace cnnx
