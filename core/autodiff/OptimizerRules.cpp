#include "autodiff/OptimizerRules.h"

#include "autodiff/AdjointBuilder.h"

#include <cmath>

namespace tempo {

namespace {

using Kind = OptimizerSpec::Kind;

std::string numberText(double v) { return numberString(v); }

/// The atoms reading `node` one iteration earlier: `dim - 1`, every other dimension at itself.
std::vector<IndexAtom> previousIteration(const Graph& g, NodeId node, const std::string& dim) {
  std::vector<IndexAtom> atoms;
  for (const std::string& d : g.node(node).domain)
    atoms.push_back(IndexAtom::point(d == dim ? IndexExpr::dim(d) - 1 : IndexExpr::dim(d)));
  return atoms;
}

/// A state recurrent over `dim`: `first` at dim == 0, else `step(previous)`,
/// where `previous` is the state one iteration earlier.
template <class Step>
NodeId recurrentState(AdjointBuilder& b, const std::string& dim, NodeId first, Step step) {
  Graph& g = b.graph();
  const TensorType type = g.node(first).type;
  NodeId state = b.typed(OpKind::Merge, type, {});
  NodeId previous = b.typed(OpKind::Identity, type, {AdjointInput::through(state, previousIteration(g, state, dim))});
  NodeId next = step(previous);
  Condition atFirst = Condition::of({{IndexExpr::dim(dim), Constraint::Rel::Eq, IndexExpr(0)}});
  b.connect(state, 0, AdjointInput{first, {}, true, atFirst});
  b.connect(state, 1, AdjointInput::at(next));
  return state;
}

}  // namespace

std::optional<Kind> optimizerFromName(std::string_view name) {
  if (name == "sgd") return Kind::Sgd;
  if (name == "adam") return Kind::Adam;
  if (name == "adamw") return Kind::AdamW;
  return std::nullopt;
}

std::string_view optimizerName(Kind kind) {
  switch (kind) {
    case Kind::Sgd: return "sgd";
    case Kind::Adam: return "adam";
    case Kind::AdamW: return "adamw";
  }
  return "?";
}

OptimizerSpec defaultOptimizer(Kind kind) {
  OptimizerSpec s;
  s.kind = kind;
  if (kind == Kind::AdamW) s.weightDecay = 0.01;
  return s;
}

std::vector<std::string> optimizerArguments(Kind kind) {
  if (kind == Kind::Sgd) return {"lr", "momentum", "weight_decay", "clip_norm"};
  return {"lr", "betas", "eps", "weight_decay", "clip_norm"};
}

bool isRequiredArgument(Kind kind, const std::string& name) { return kind == Kind::Sgd && name == "lr"; }

bool isPairArgument(const std::string& name) { return name == "betas"; }

std::string setHyperParameter(OptimizerSpec& spec, const std::string& name, const std::vector<double>& values) {
  size_t expected = isPairArgument(name) ? 2 : 1;
  if (values.size() != expected)
    return expected == 2 ? name + "= needs two numbers, e.g. " + name + "=(0.9, 0.999)" : name + "= needs one number";
  for (double v : values)
    if (!std::isfinite(v)) return name + "= must be a finite number";
  double v = values[0];
  if (name == "lr") {
    if (v <= 0) return "lr= must be positive, not " + numberText(v);
    spec.lr = v;
  } else if (name == "momentum") {
    if (v < 0) return "momentum= cannot be negative, not " + numberText(v);
    spec.momentum = v;
  } else if (name == "betas") {
    for (double b : values)
      if (b < 0 || b >= 1) return "each of betas= must be in [0, 1), not " + numberText(b);
    spec.beta1 = values[0];
    spec.beta2 = values[1];
  } else if (name == "eps") {
    if (v <= 0) return "eps= must be positive, not " + numberText(v);
    spec.eps = v;
  } else if (name == "weight_decay") {
    if (v < 0) return "weight_decay= cannot be negative, not " + numberText(v);
    spec.weightDecay = v;
  } else if (name == "clip_norm") {
    if (v <= 0) return "clip_norm= must be positive, not " + numberText(v);
    spec.clipNorm = v;
  } else {
    return "unknown hyperparameter '" + name + "'";
  }
  return "";
}

NodeId IterationScalars::step(DType dtype) {
  if (auto it = steps_.find(dtype); it != steps_.end()) return it->second;
  AdjointBuilder b(g_, {dim_}, loc_);
  OpAttrs a;
  a.index = IndexExpr::dim(dim_) + 1;
  return steps_[dtype] = b.typed(OpKind::EvalIndex, TensorType{dtype, {}}, {}, a);
}

NodeId IterationScalars::biasCorrection(DType dtype, double beta) {
  auto key = std::make_pair(dtype, beta);
  if (auto it = corrections_.find(key); it != corrections_.end()) return it->second;
  AdjointBuilder b(g_, {dim_}, loc_);
  NodeId power = b.binary(OpKind::Pow, b.scalar(dtype, beta), step(dtype));
  return corrections_[key] = b.binary(OpKind::Sub, b.scalar(dtype, 1.0), power);
}

std::vector<NodeId> addGradientClipping(IterationScalars& scalars, const std::vector<NodeId>& grads, double maxNorm) {
  Graph& g = scalars.graph();
  const std::string& dim = scalars.dim();
  DType normType = g.node(grads.at(0)).type.dtype;
  for (NodeId gr : grads)
    if (g.node(gr).type.dtype != normType) normType = DType::F64;  // mixed precisions: sum in f64
  AdjointBuilder it(g, {dim}, scalars.loc());
  std::optional<NodeId> total;
  for (NodeId gr : grads) {
    const Node& gn = g.node(gr);
    AdjointBuilder b(g, gn.domain, gn.loc);
    std::vector<int64_t> all;
    for (size_t k = 0; k < gn.type.shape.size(); ++k) all.push_back(static_cast<int64_t>(k));
    NodeId squares = b.reduceSum(b.binary(OpKind::Mul, gr, gr), all, false);
    // Read the sums of every point of the param's own dimensions as one window, and add them up.
    std::vector<IndexAtom> atoms;
    size_t windows = 0;
    for (const std::string& d : gn.domain) {
      if (d == dim) {
        atoms.push_back(IndexAtom::point(IndexExpr::dim(d)));
      } else {
        atoms.push_back(IndexAtom::slice(IndexExpr(0), IndexExpr::bound(g.boundOf(d))));
        ++windows;
      }
    }
    NodeId perIteration = squares;
    if (windows > 0) {
      std::vector<int64_t> axes;
      for (size_t k = 0; k < windows; ++k) axes.push_back(static_cast<int64_t>(k));
      NodeId window = it.op(OpKind::Identity, {AdjointInput::through(squares, atoms)});
      perIteration = it.reduceSum(window, axes, false);
    }
    if (g.node(perIteration).type.dtype != normType) {
      OpAttrs cast;
      cast.dtype = normType;
      perIteration = it.op(OpKind::Cast, {AdjointInput::at(perIteration)}, cast);
    }
    total = total ? it.binary(OpKind::Add, *total, perIteration) : perIteration;
  }
  NodeId norm = it.unary(OpKind::Sqrt, *total);
  NodeId denominator = it.binary(OpKind::Add, norm, it.scalar(normType, 1e-6));
  NodeId coefficient = it.binary(OpKind::Div, it.scalar(normType, maxNorm), denominator);
  NodeId clamped = it.binary(OpKind::Minimum, coefficient, it.scalar(normType, 1.0));
  std::vector<NodeId> out;
  for (NodeId gr : grads) {
    const Node& gn = g.node(gr);
    NodeId factor = clamped;
    if (gn.type.dtype != normType) {
      OpAttrs cast;
      cast.dtype = gn.type.dtype;
      factor = it.op(OpKind::Cast, {AdjointInput::at(clamped)}, cast);
    }
    AdjointBuilder b(g, gn.domain, gn.loc);
    out.push_back(b.binary(OpKind::Mul, gr, factor));
  }
  return out;
}

NodeId addParamUpdate(IterationScalars& scalars, const OptimizerSpec& spec, NodeId param, NodeId grad) {
  Graph& g = scalars.graph();
  const Node& p = g.node(param);
  const std::string& dim = scalars.dim();
  const DType dt = p.type.dtype;
  AdjointBuilder b(g, p.domain, p.loc);
  auto scalar = [&](double v) { return b.scalar(dt, v); };
  auto scaled = [&](double k, NodeId x) { return b.binary(OpKind::Mul, scalar(k), x); };

  NodeId gradient = grad;
  if (spec.weightDecay != 0 && spec.kind != Kind::AdamW)
    gradient = b.binary(OpKind::Add, gradient, scaled(spec.weightDecay, param));

  if (spec.kind == Kind::Sgd) {
    NodeId direction = gradient;
    if (spec.momentum != 0)
      direction = recurrentState(b, dim, gradient, [&](NodeId previous) {
        return b.binary(OpKind::Add, scaled(spec.momentum, previous), gradient);
      });
    return b.binary(OpKind::Sub, param, scaled(spec.lr, direction));
  }

  // adam, adamw: moments starting at zero, so their first value is (1 - beta) times the gradient's.
  NodeId squared = b.binary(OpKind::Mul, gradient, gradient);
  auto moment = [&](double beta, NodeId x) {
    return recurrentState(b, dim, scaled(1 - beta, x), [&](NodeId previous) {
      return b.binary(OpKind::Add, scaled(beta, previous), scaled(1 - beta, x));
    });
  };
  NodeId m = moment(spec.beta1, gradient);
  NodeId v = moment(spec.beta2, squared);
  AdjointBuilder perIteration(g, {dim}, p.loc);
  NodeId stepSize = perIteration.binary(OpKind::Div, scalar(spec.lr), scalars.biasCorrection(dt, spec.beta1));
  NodeId correction2 = perIteration.unary(OpKind::Sqrt, scalars.biasCorrection(dt, spec.beta2));
  NodeId denominator = b.binary(OpKind::Add, b.binary(OpKind::Div, b.unary(OpKind::Sqrt, v), correction2), scalar(spec.eps));
  NodeId decayed = param;
  if (spec.kind == Kind::AdamW && spec.weightDecay != 0) decayed = scaled(1 - spec.lr * spec.weightDecay, param);
  return b.binary(OpKind::Sub, decayed, b.binary(OpKind::Mul, stepSize, b.binary(OpKind::Div, m, denominator)));
}

}  // namespace tempo
