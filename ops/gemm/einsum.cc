#include "ops/gemm/einsum.h"

#include <algorithm>
#include <array>

#include "ops/common/node_checks.h"

namespace cnnx {

namespace {

int label_id(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -2;
}

char label_char(int id) { return id < 26 ? char('a' + id) : char('A' + id - 26); }

// One term ("ab...c"): label ids, kEinsumEllipsis for "...". `where` names the term in messages.
std::vector<int> parse_term(const std::string& eq, const std::string& s, const std::string& where) {
  std::vector<int> term;
  bool ellipsis = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') {
      require(s.compare(i, 3, "...") == 0, "equation '", eq, "': ", where, " '", s,
              "' has a '.' that is not part of '...'");
      require(!ellipsis, "equation '", eq, "': ", where, " '", s, "' has '...' twice");
      ellipsis = true;
      term.push_back(kEinsumEllipsis);
      i += 2;
      continue;
    }
    const int id = label_id(s[i]);
    require(id >= 0, "equation '", eq, "': ", where, " '", s, "' has the character '", std::string(1, s[i]),
            "'; labels are letters a-z, A-Z");
    term.push_back(id);
  }
  return term;
}

// The dims of input `t`'s ellipsis, or empty; checks the rank against the term.
struct TermDims {
  Shape ellipsis;
  std::vector<std::pair<int, int64_t>> labels;  // (label, dim) in term order
};

TermDims split_dims(const EinsumParams& p, size_t t, const Shape& shape) {
  const std::vector<int>& term = p.terms[t];
  const bool has_ellipsis = std::count(term.begin(), term.end(), kEinsumEllipsis) > 0;
  const int64_t named = int64_t(term.size()) - (has_ellipsis ? 1 : 0);
  const int64_t rank = int64_t(shape.size());
  if (has_ellipsis)
    require(rank >= named, "equation '", p.equation, "': input ", t, " has rank ", rank, " (shape ",
            to_string(shape), ") but its term names ", named, " dims");
  else
    require(rank == named, "equation '", p.equation, "': input ", t, " has rank ", rank, " (shape ",
            to_string(shape), ") but its term names ", named, " dims");
  TermDims d;
  size_t k = 0;
  for (int label : term) {
    if (label == kEinsumEllipsis) {
      for (int64_t e = 0; e < rank - named; ++e) d.ellipsis.push_back(shape[k++]);
    } else {
      d.labels.push_back({label, shape[k++]});
    }
  }
  return d;
}

// Every label's size, and the broadcast ellipsis dims; dims may be unknown (kUnknownDim).
struct EinsumDims {
  std::array<int64_t, 52> size;
  Shape ellipsis;
};

EinsumDims collect_dims(const EinsumParams& p, const std::vector<Shape>& shapes) {
  EinsumDims r;
  r.size.fill(-2);  // not seen
  for (size_t t = 0; t < shapes.size(); ++t) {
    const TermDims d = split_dims(p, t, shapes[t]);
    for (auto [label, dim] : d.labels) {
      int64_t& s = r.size[size_t(label)];
      if (s == -2 || s == kUnknownDim) s = dim;
      else if (dim != kUnknownDim)
        require(s == dim, "equation '", p.equation, "': label '", std::string(1, label_char(label)),
                "' has size ", s, " in one place and ", dim, " in input ", t, " (shape ", to_string(shapes[t]),
                ")");
    }
    // Right-aligned broadcast of the ellipsis dims.
    if (d.ellipsis.size() > r.ellipsis.size()) r.ellipsis.insert(r.ellipsis.begin(), d.ellipsis.size() - r.ellipsis.size(), 1);
    const size_t off = r.ellipsis.size() - d.ellipsis.size();
    for (size_t i = 0; i < d.ellipsis.size(); ++i) {
      int64_t& s = r.ellipsis[off + i];
      const int64_t e = d.ellipsis[i];
      if (e == 1) continue;
      if (s == 1 || s == kUnknownDim) s = e;
      else if (e != kUnknownDim)
        require(s == e, "equation '", p.equation, "': the '...' dims of input ", t, " (shape ",
                to_string(shapes[t]), ") do not broadcast with the others (", to_string(r.ellipsis), ")");
    }
  }
  return r;
}

Shape output_shape(const EinsumParams& p, const EinsumDims& d) {
  Shape out;
  for (int label : p.output) {
    if (label == kEinsumEllipsis) out.insert(out.end(), d.ellipsis.begin(), d.ellipsis.end());
    else out.push_back(d.size[size_t(label)]);
  }
  return out;
}

}  // namespace

EinsumParams parse_einsum_equation(const std::string& equation, size_t operands) {
  EinsumParams p;
  p.equation = equation;
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq += c;
  const size_t arrow = eq.find("->");
  require(eq.find('-', arrow == std::string::npos ? 0 : arrow + 1) == std::string::npos &&
              eq.find('>', arrow == std::string::npos ? 0 : arrow + 2) == std::string::npos,
          "equation '", equation, "': '-' and '>' may only appear once, as '->'");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t comma = lhs.find(',', start);
    parts.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  require(parts.size() == operands, "equation '", equation, "' has ", parts.size(), " input term",
          parts.size() == 1 ? "" : "s", " but the node has ", operands, " input", operands == 1 ? "" : "s");
  std::array<int, 52> count{};
  bool any_ellipsis = false;
  for (size_t t = 0; t < parts.size(); ++t) {
    p.terms.push_back(parse_term(equation, parts[t], "input term " + std::to_string(t)));
    for (int label : p.terms.back()) {
      if (label == kEinsumEllipsis) any_ellipsis = true;
      else ++count[size_t(label)];
    }
  }
  if (arrow != std::string::npos) {
    p.explicit_output = true;
    const std::string rhs = eq.substr(arrow + 2);
    require(rhs.find(',') == std::string::npos, "equation '", equation, "': the output term '", rhs,
            "' has a ','; Einsum has one output");
    p.output = parse_term(equation, rhs, "the output term");
    std::array<bool, 52> seen{};
    for (int label : p.output) {
      if (label == kEinsumEllipsis) {
        require(any_ellipsis, "equation '", equation, "': the output has '...' but no input term does");
        continue;
      }
      require(!seen[size_t(label)], "equation '", equation, "': label '", std::string(1, label_char(label)),
              "' appears twice in the output");
      seen[size_t(label)] = true;
      require(count[size_t(label)] > 0, "equation '", equation, "': output label '",
              std::string(1, label_char(label)), "' is in no input term");
    }
  } else {
    if (any_ellipsis) p.output.push_back(kEinsumEllipsis);
    // ASCII order: upper case before lower case.
    for (int id = 26; id < 52; ++id)
      if (count[size_t(id)] == 1) p.output.push_back(id);
    for (int id = 0; id < 26; ++id)
      if (count[size_t(id)] == 1) p.output.push_back(id);
  }
  return p;
}

std::string einsum_equation(const std::vector<std::vector<int>>& terms, const std::vector<int>& output) {
  auto write = [](const std::vector<int>& term) {
    std::string s;
    for (int label : term) s += label == kEinsumEllipsis ? std::string("...") : std::string(1, label_char(label));
    return s;
  };
  std::string eq;
  for (size_t t = 0; t < terms.size(); ++t) eq += (t ? "," : "") + write(terms[t]);
  return eq + "->" + write(output);
}

EinsumParams parse_einsum(const Node& node) {
  check_node(node, 1, 1 << 20, {"equation"});
  require(node.attrs.has("equation"), "attribute 'equation' is required");
  return parse_einsum_equation(node.attrs.get_string("equation", ""), node.inputs.size());
}

std::vector<ValueInfo> infer_einsum(const EinsumParams& p, const std::vector<ValueInfo>& in) {
  require(in.size() == p.terms.size(), "internal error: Einsum got ", in.size(), " inputs for ", p.terms.size(),
          " terms");
  for (size_t i = 0; i < in.size(); ++i) {
    require_dtype(in, i, {DType::f32, DType::f64});
    require(in[i].dtype == in[0].dtype, "input ", i, " is ", dtype_name(in[i].dtype), " but input 0 is ",
            dtype_name(in[0].dtype));
  }
  for (const ValueInfo& v : in)
    if (!v.rank_known) return {ValueInfo::unknown(in[0].dtype)};
  std::vector<Shape> shapes;
  for (const ValueInfo& v : in) shapes.push_back(v.shape);
  const Shape out = output_shape(p, collect_dims(p, shapes));
  if (is_concrete(out)) checked_numel(out);
  return {ValueInfo::of(in[0].dtype, out)};
}

double einsum_flops(const EinsumParams& p, const std::vector<ValueInfo>& in) {
  std::vector<Shape> shapes;
  for (const ValueInfo& v : in) shapes.push_back(v.shape);
  const EinsumDims d = collect_dims(p, shapes);
  double loops = double(numel_range(d.ellipsis, 0, d.ellipsis.size()));
  for (int64_t s : d.size)
    if (s >= 0) loops *= double(s);
  return 2.0 * double(in.size() - 1) * loops;
}

EinsumAxes einsum_axes(const EinsumParams& p, const std::vector<Shape>& shapes) {
  const EinsumDims d = collect_dims(p, shapes);
  EinsumAxes ax;
  const size_t ne = d.ellipsis.size();
  for (size_t e = 0; e < ne; ++e) {
    ax.size.push_back(d.ellipsis[e]);
    ax.name.push_back("'...' dim " + std::to_string(e));
  }
  std::array<int, 52> axis_of_label;
  axis_of_label.fill(-1);
  for (int id = 0; id < 52; ++id)
    if (d.size[size_t(id)] >= 0) {
      axis_of_label[size_t(id)] = int(ax.size.size());
      ax.size.push_back(d.size[size_t(id)]);
      ax.name.push_back("label '" + std::string(1, label_char(id)) + "'");
    }
  for (size_t t = 0; t < shapes.size(); ++t) {
    const Shape& s = shapes[t];
    const std::vector<int>& term = p.terms[t];
    const bool has_ellipsis = std::count(term.begin(), term.end(), kEinsumEllipsis) > 0;
    const size_t te = s.size() - (term.size() - (has_ellipsis ? 1 : 0));  // this input's "..." dims
    std::vector<int>& axes = ax.of_input.emplace_back();
    for (int label : term) {
      if (label != kEinsumEllipsis) {
        axes.push_back(axis_of_label[size_t(label)]);
        continue;
      }
      for (size_t e = ne - te; e < ne; ++e)  // right-aligned
        axes.push_back(s[axes.size()] == 1 && ax.size[e] != 1 ? -1 : int(e));
    }
  }
  for (int label : p.output) {
    if (label != kEinsumEllipsis) {
      ax.of_output.push_back(axis_of_label[size_t(label)]);
      continue;
    }
    for (size_t e = 0; e < ne; ++e) ax.of_output.push_back(int(e));
  }
  return ax;
}

}  // namespace cnnx
