#include "frontend/OptimizeLowering.h"

#include "autodiff/AdjointBuilder.h"
#include "frontend/IndexLowering.h"

#include <algorithm>

namespace tempo {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

std::optional<std::vector<double>> OptimizeLowering::numbers(const ast::Expr& value, bool pair) {
  std::vector<const ast::Expr*> parts{&value};
  if (const ast::Tuple* t = value.as<ast::Tuple>()) {
    parts.clear();
    for (const ast::ExprPtr& e : t->elems) parts.push_back(e.get());
  } else if (pair) {
    return std::vector<double>{};  // setHyperParameter says that a pair is needed
  }
  std::vector<double> out;
  for (const ast::Expr* p : parts) {
    auto v = foldConstant(cx_, *p);
    if (!v) return std::nullopt;
    out.push_back(v->value);
  }
  return out;
}

std::optional<OptimizerSpec> OptimizeLowering::lowerOptimizer(const ast::Expr& e) {
  const ast::Call& call = *e.as<ast::Call>();
  const std::string& name = call.callee.name;
  auto kind = optimizerFromName(name);
  if (!kind) {
    cx_.error(call.callee.range, "unknown optimiser '" + name + "' (expected sgd, adam or adamw)");
    return std::nullopt;
  }
  OptimizerSpec spec = defaultOptimizer(*kind);
  std::vector<std::string> allowed = optimizerArguments(*kind);
  bool ok = true;
  if (!call.args.empty()) {
    cx_.error(call.args.front()->range, name + "() takes keyword arguments only, e.g. " + name + "(lr=0.01)");
    ok = false;
  }
  for (const ast::KeywordArg& k : call.kwargs) {
    if (std::find(allowed.begin(), allowed.end(), k.name.name) == allowed.end()) {
      cx_.error(k.name.range, name + "() has no argument '" + k.name.name + "' (it accepts: " + joined(allowed) + ")");
      ok = false;
      continue;
    }
    auto values = numbers(*k.value, isPairArgument(k.name.name));
    if (!values) {
      ok = false;
      continue;
    }
    std::string problem = setHyperParameter(spec, k.name.name, *values);
    if (!problem.empty()) {
      cx_.error(k.value->range, problem);
      ok = false;
    }
  }
  for (const std::string& a : allowed) {
    bool present = std::any_of(call.kwargs.begin(), call.kwargs.end(), [&](const ast::KeywordArg& k) { return k.name.name == a; });
    if (isRequiredArgument(*kind, a) && !present) {
      cx_.error(call.callee.range, name + "() needs the argument " + a + "=");
      ok = false;
    }
  }
  return ok ? std::optional<OptimizerSpec>(spec) : std::nullopt;
}

void OptimizeLowering::lower(const ast::Stmt& stmt, const ast::Optimize& o) {
  if (firstRange_) {
    cx_.error(stmt.range, "optimize is given twice: a program has one optimize statement (it trains every param its loss depends on)");
    cx_.note(*firstRange_, "the first optimize statement is here");
    return;
  }
  firstRange_ = stmt.range;
  bool ok = true;
  const TensorSymbol* loss = cx_.scope.tensor(o.loss.name);
  if (!loss) {
    cx_.error(o.loss.range, cx_.scope.isDeclared(o.loss.name) ? "'" + o.loss.name + "' is not a tensor: optimize needs the name of a loss tensor"
                                                              : "unknown tensor '" + o.loss.name + "'");
    ok = false;
  } else if (loss->poisoned) {
    ok = false;
  } else if (!loss->type.isScalar() || !isDifferentiableType(loss->type)) {
    cx_.error(o.loss.range, "the loss '" + o.loss.name + "' must be a float scalar (f32[] or f64[]), not " + loss->type.str());
    ok = false;
  }
  if (cx_.scope.kindOf(o.dim.name) != Scope::NameKind::Dim) {
    cx_.error(o.dim.range, (cx_.scope.isDeclared(o.dim.name) ? "'" + o.dim.name + "' is not a dimension"
                                                             : "unknown dimension '" + o.dim.name + "'") +
                               ": optimize iterates over a dimension declared like `dim " + o.dim.name + " < I`");
    ok = false;
  }
  auto spec = lowerOptimizer(*o.optimizer);
  if (!ok || !spec) return;
  OptimizeRequest r;
  r.loss = loss->node;
  r.dim = o.dim.name;
  r.optimizer = *spec;
  r.loc = stmt.range;
  request_ = r;
}

void OptimizeLowering::apply() {
  if (!request_) return;
  OptimizeRequest r = *request_;
  for (const auto& [id, n] : cx_.graph.nodes()) {
    const TensorSymbol* t = n.name.empty() ? nullptr : cx_.scope.tensor(n.name);
    if (t && t->kind == TensorSymbol::Kind::Param && t->node == id) r.params.push_back(id);
  }
  r.stopGradient = cx_.detached;
  try {
    addOptimizer(cx_.graph, r);
  } catch (const OptimizeError& e) {
    cx_.error(r.loc, e.what());
    if (e.related >= 0) cx_.note(cx_.graph.node(e.related).loc, "'" + cx_.graph.node(e.related).name + "' is declared here");
  } catch (const AutodiffError& e) {
    cx_.error(r.loc, e.what());
  }
}

}  // namespace tempo
