#include "schedule/UntilLoops.h"

#include "graph/ExtentDependence.h"

#include <algorithm>

namespace tempo {

namespace {

bool mentions(const std::set<Symbol>& symbols, const std::set<std::string>& names) {
  return std::any_of(symbols.begin(), symbols.end(), [&](const Symbol& s) { return names.count(s.name) != 0; });
}

/// Whether loop `f` runs over a range that only grows with the bound (none of `names` in its start,
/// its end the bound plus a constant or independent of it): run at the most steps before the stop,
/// it computes every point a run at the steps reached would, and more (values the bound does not
/// change, DependenceScan checks, so the points a later reader finds are the same).
bool growsWithBound(const ForStmt& f, const std::set<std::string>& names) {
  if (mentions(f.lower.symbols(), names)) return false;
  if (!mentions(f.upper.symbols(), names)) return true;
  auto end = f.upper.linear();
  if (!end || f.step <= 0) return false;
  for (const auto& [symbol, coeff] : end->coeffs)
    if (names.count(symbol.name) && coeff < 0) return false;
  return true;
}

/// Finds what in a part of the schedule run before the stop would change with the bound.
struct DependenceScan {
  const Graph& g;
  const std::set<NodeId>& dependent;
  const std::set<std::string>& names;
  std::string found;  ///< the first reason ("" while none)

  void scan(const LoopBody& body) {
    for (const LoopStmt& s : body) scan(s);
  }
  void scan(const LoopStmt& s) {
    if (!found.empty()) return;
    if (const auto* f = s.as<ForStmt>()) {
      if (!growsWithBound(*f, names))
        found = "the loop over " + f->var + " runs over a range written with " + *names.begin();
      else
        scan(f->body);
    } else if (const auto* i = s.as<IfStmt>()) {
      if (mentions(i->condition.symbols(), names))
        found = "the guard `" + i->condition.str() + "` is written with " + *names.begin();
      else
        scan(i->thenBody), scan(i->elseBody);
    } else if (const auto* e = s.as<ExecStmt>()) {
      if (dependent.count(e->node)) found = statementLabel(g, e->node) + " is computed with " + *names.begin();
    }
  }
};

/// The loop's offset when `f` runs t forwards one step an iteration and computes `condition`
/// inside with t = f's variable + a constant; nullopt otherwise.
std::optional<int64_t> stepOffset(const ForStmt& f, NodeId condition, int axis) {
  if (f.step != 1) return std::nullopt;
  std::optional<int64_t> found;
  auto visit = [&](const LoopBody& body, auto& self) -> void {
    for (const LoopStmt& s : body) {
      if (const auto* inner = s.as<ForStmt>()) self(inner->body, self);
      else if (const auto* i = s.as<IfStmt>()) self(i->thenBody, self), self(i->elseBody, self);
      else if (const auto* e = s.as<ExecStmt>(); e && e->node == condition && axis < static_cast<int>(e->point.size()))
        if (auto o = offsetFromLoopVar(e->point[axis], f))
          if (auto c = o->constantValue()) found = *c;  // t = var + c
    }
  };
  visit(f.body, visit);
  return found;
}

}  // namespace

std::vector<UntilLoop> planUntilLoops(const Graph& g, const LoopProgram& program) {
  std::vector<UntilLoop> plans;
  for (const GraphOutput& o : g.outputs) {
    if (o.untilDim.empty()) continue;
    UntilLoop plan;
    plan.dim = o.untilDim;
    plan.bound = g.boundOf(o.untilDim);
    plan.condition = o.node;
    plan.name = o.name;
    const Node& n = g.node(o.node);
    plan.axis = static_cast<int>(std::find(n.domain.begin(), n.domain.end(), plan.dim) - n.domain.begin());
    const std::set<std::string> names = boundAndDerived(g, plan.bound);
    const std::set<NodeId> dependent = boundDependentNodes(g, plan.bound);
    DependenceScan before{g, dependent, names, ""};
    for (size_t i = 0; i < program.body.size() && before.found.empty() && plan.topStatement < 0; ++i) {
      const auto* f = program.body[i].as<ForStmt>();
      std::optional<int64_t> offset = f ? stepOffset(*f, plan.condition, plan.axis) : std::nullopt;
      if (!offset) {
        before.scan(program.body[i]);
        continue;
      }
      DependenceScan inside{g, dependent, names, ""};
      if (mentions(f->lower.symbols(), names)) inside.found = "the loop over " + f->var + " starts at a bound";
      inside.scan(f->body);
      if (!inside.found.empty()) {
        before.found = inside.found;
        break;
      }
      plan.topStatement = static_cast<int>(i);
      plan.offset = *offset;
      plan.loopVar = f->var;
    }
    if (plan.topStatement < 0)
      plan.whyNot = !before.found.empty() ? before.found
                                          : "no top-level loop runs " + plan.dim + " forwards around '" + o.name + "'";
    plans.push_back(std::move(plan));
  }
  return plans;
}

std::string printUntilLoops(const std::vector<UntilLoop>& plans) {
  std::string out;
  for (const UntilLoop& p : plans) {
    out += "until " + p.dim + ": " + p.name + " (%" + std::to_string(p.condition) + ") ";
    if (p.topStatement >= 0)
      out += "stops the loop over " + p.loopVar + " (top-level statement " + std::to_string(p.topStatement) +
             ") after the step where it holds, then " + p.bound + " is the steps run\n";
    else
      out += "runs the program twice (at " + p.bound + ", then at the steps run): " + p.whyNot + "\n";
  }
  return out;
}

}  // namespace tempo
