#include "kernels/LoopKernel.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tempo {

std::string_view loopStatementFormName(LoopStatementForm form) {
  switch (form) {
    case LoopStatementForm::Generated: return "generated";
    case LoopStatementForm::Gemm: return "gemm";
    case LoopStatementForm::Reduction: return "reduction";
    case LoopStatementForm::View: return "view";
    case LoopStatementForm::Copy: return "copy";
    case LoopStatementForm::Merge: return "merge";
    case LoopStatementForm::ArrayPoint: return "array point";
    case LoopStatementForm::Value: return "value";
  }
  return "?";
}

int LoopKernelPlan::qualifying() const {
  return static_cast<int>(std::count_if(loops.begin(), loops.end(), [](const LoopKernelCandidate& c) { return c.qualifies; }));
}

namespace {

bool isWindowRead(const std::vector<WindowRead>& windows, NodeId holder, NodeId producer) {
  return std::find(windows.begin(), windows.end(), WindowRead{holder, producer}) != windows.end();
}

/// The native form of `k`'s statement, or nullopt with `why` set.
std::optional<LoopStatementForm> formOf(const Graph& g, const Kernel& k, const std::vector<WindowRead>& windows,
                                        std::string& why) {
  switch (k.kind) {
    case KernelKind::Generated: return LoopStatementForm::Generated;
    case KernelKind::Library:
      switch (k.op) {
        case OpKind::MatMul: return LoopStatementForm::Gemm;
        case OpKind::ReduceSum:
        case OpKind::ReduceMax:
        case OpKind::ReduceArgMax: return LoopStatementForm::Reduction;
        case OpKind::Slice: {
          const std::vector<const Edge*> in = g.inputs(k.node);
          const bool window = !in.empty() && isWindowRead(windows, k.node, in.front()->producer);
          return window ? LoopStatementForm::View : LoopStatementForm::Copy;
        }
        case OpKind::Permute:
        case OpKind::Expand:
        case OpKind::Cat: return LoopStatementForm::Copy;
        case OpKind::Gather:
        case OpKind::ScatterAdd:
        case OpKind::TakeAlong:
        case OpKind::ScatterAlongAdd: why = "no native form yet: an indexed read (" + std::string(opName(k.op)) + ")"; return std::nullopt;
        default: why = "no native form yet: " + std::string(opName(k.op)) + " (" + k.reason + ")"; return std::nullopt;
      }
    case KernelKind::Runtime:
      if (k.op == OpKind::Reshape || k.op == OpKind::Identity) return LoopStatementForm::View;
      if (k.op == OpKind::Merge) return LoopStatementForm::Merge;
      if (isWholeArraySource(k.op)) return LoopStatementForm::ArrayPoint;
      if (k.op == OpKind::Constant || k.op == OpKind::EvalIndex) return LoopStatementForm::Value;
      why = "no native form yet: " + std::string(opName(k.op));
      return std::nullopt;
  }
  return std::nullopt;
}

std::string shapeString(const std::vector<IndexExpr>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + shape[i].str();
  return s + "]";
}

/// Why `k`'s element shapes are not the same in every iteration ("" when they are).
std::string dynamicShape(const Kernel& k) {
  auto dynamic = [](const std::vector<IndexExpr>& shape) {
    return std::any_of(shape.begin(), shape.end(), [](const IndexExpr& e) { return e.dependsOnKind(SymbolKind::Dim); });
  };
  if (dynamic(k.shape)) return "its element shape " + shapeString(k.shape) + " changes from one point to the next";
  for (const KernelInput& in : k.inputs)
    if (dynamic(in.shape))
      return "it reads a value of %" + std::to_string(in.producer) + " whose shape " + shapeString(in.shape) +
             " changes from one point to the next (a growing window)";
  return "";
}

/// The consumer's reads of values that another iteration of the loop computed.
void carriedReads(const Graph& g, const ExecStmt& consumer, const std::map<NodeId, const ExecStmt*>& inLoop,
                  std::vector<std::string>& out) {
  const Node& n = g.node(consumer.node);
  std::map<std::string, IndexExpr> at;
  for (size_t i = 0; i < n.domain.size() && i < consumer.point.size(); ++i) at.emplace(n.domain[i], consumer.point[i]);
  for (const Edge* e : g.inputs(consumer.node)) {
    auto producer = inLoop.find(e->producer);
    if (producer == inLoop.end() || e->index.size() != producer->second->point.size()) continue;
    bool carried = false;
    for (size_t j = 0; j < e->index.size() && !carried; ++j) {
      const IndexAtom& atom = e->index[j];
      carried = atom.isSlice() || !(atom.start.substitute(at) == producer->second->point[j]);
    }
    if (carried) out.push_back(statementLabel(g, consumer.node) + " reads " + e->str());
  }
}

LoopKernelCandidate examine(const Graph& g, const ForStmt& loop, const std::vector<std::string>& enclosing,
                            const KernelProgram& kernels, const std::vector<WindowRead>& windows) {
  LoopKernelCandidate c;
  c.var = loop.var;
  c.enclosing = enclosing;
  c.lower = loop.lower;
  c.upper = loop.upper;
  std::map<NodeId, const ExecStmt*> inLoop;
  std::vector<NodeId> allocated;
  auto block = [&](NodeId node, std::string why) {
    if (!c.reason.empty()) return;
    c.blocker = node;
    c.reason = std::move(why);
  };
  for (const LoopStmt& s : loop.body) {
    if (const auto* e = s.as<ExecStmt>()) {
      c.execs.push_back(e->node);
      inLoop.emplace(e->node, e);
      if (!c.reason.empty()) continue;
      const Kernel* k = kernels.forNode(e->node);
      if (!k) {
        block(e->node, "no kernel was formed for it");
        continue;
      }
      std::string why;
      std::optional<LoopStatementForm> form = formOf(g, *k, windows, why);
      if (!form) {
        block(e->node, why);
        continue;
      }
      if (std::string dyn = dynamicShape(*k); !dyn.empty()) {
        block(e->node, dyn);
        continue;
      }
      for (const Edge* in : g.inputs(e->node))
        for (const IndexAtom& atom : in->index)
          if (atom.isBlock()) block(e->node, "a block read of " + statementLabel(g, in->producer) + " (static tiling)");
      if (c.reason.empty()) c.forms.push_back(*form);
    } else if (const auto* a = s.as<AllocStmt>()) {
      allocated.push_back(a->node);
    } else if (const auto* f = s.as<FreeStmt>()) {
      if (std::find(allocated.begin(), allocated.end(), f->node) != allocated.end()) c.arena.push_back(f->node);
    } else if (const auto* inner = s.as<ForStmt>()) {
      block(-1, "it holds a loop over " + inner->var + " (a single loop first: nests come next)");
    } else if (s.as<IfStmt>()) {
      block(-1, "its body has a guard (if)");
    } else {
      block(-1, "it swaps stores out and in (a memory budget)");
    }
  }
  for (const LoopStmt& s : loop.body)
    if (const auto* e = s.as<ExecStmt>()) carriedReads(g, *e, inLoop, c.carried);
  c.qualifies = c.reason.empty();
  return c;
}

void collect(const Graph& g, const LoopBody& body, std::vector<std::string>& enclosing, const KernelProgram& kernels,
             const std::vector<WindowRead>& windows, LoopKernelPlan& plan) {
  for (const LoopStmt& s : body) {
    if (const auto* f = s.as<ForStmt>()) {
      plan.loops.push_back(examine(g, *f, enclosing, kernels, windows));
      enclosing.push_back(f->var);
      collect(g, f->body, enclosing, kernels, windows, plan);
      enclosing.pop_back();
    } else if (const auto* i = s.as<IfStmt>()) {
      collect(g, i->thenBody, enclosing, kernels, windows, plan);
      collect(g, i->elseBody, enclosing, kernels, windows, plan);
    }
  }
}

}  // namespace

LoopKernelPlan selectLoopKernels(const Graph& g, const LoopProgram& loops, const KernelProgram& kernels,
                                 const std::vector<WindowRead>& windows) {
  LoopKernelPlan plan;
  std::vector<std::string> enclosing;
  collect(g, loops.body, enclosing, kernels, windows, plan);
  return plan;
}

std::string printLoopKernelPlan(const Graph& g, const LoopKernelPlan& plan) {
  std::string out = "native loops: " + std::to_string(plan.qualifying()) + " of " + std::to_string(plan.loops.size()) +
                    " loops qualify (not yet compiled: the executor runs every loop)\n";
  for (const LoopKernelCandidate& c : plan.loops) {
    out += "loop " + c.var + " in " + c.lower.str() + ".." + c.upper.str();
    if (!c.enclosing.empty()) {
      out += " (inside";
      for (const std::string& v : c.enclosing) out += " " + v;
      out += ")";
    }
    out += ": ";
    if (!c.qualifies) {
      out += "interpreted, " + (c.blocker >= 0 ? statementLabel(g, c.blocker) + ": " : std::string()) + c.reason + "\n";
      continue;
    }
    std::map<LoopStatementForm, int> counts;
    for (LoopStatementForm f : c.forms) ++counts[f];
    out += "native, " + std::to_string(c.execs.size()) + (c.execs.size() == 1 ? " statement (" : " statements (");
    bool first = true;
    for (const auto& [form, n] : counts) {
      out += (first ? "" : ", ") + std::to_string(n) + " " + std::string(loopStatementFormName(form));
      first = false;
    }
    out += ")\n";
    if (!c.arena.empty()) {
      out += "  arena:";
      for (NodeId n : c.arena) out += " " + statementLabel(g, n) + (n == c.arena.back() ? "" : ",");
      out += "\n";
    }
    if (c.carried.empty()) out += "  no carried dependence: its iterations may run in parallel\n";
    for (const std::string& r : c.carried) out += "  carried: " + r + "\n";
  }
  return out;
}

}  // namespace tempo
