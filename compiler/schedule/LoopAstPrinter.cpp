// LoopAstPrinter: the readable pseudo-code form of a LoopProgram (printLoopProgram).
//
// One statement per line, two spaces per nesting level:
//   for c0 in 0..T:            (lower inclusive, upper exclusive; `step k` if k != 1)
//   if c0 >= 1:  / else:
//   exec %7 h[b=c1, t=c0]      (node id, its name or op, each domain dim = its index)
//   alloc %4 h  (32*T bytes)   (also free, swap_out, swap_in)
#include "schedule/LoopAst.h"

#include <sstream>

namespace tempo {

std::string statementLabel(const Graph& g, NodeId id) {
  if (!g.hasNode(id)) return "%" + std::to_string(id) + " ?";
  const Node& n = g.node(id);
  return "%" + std::to_string(id) + " " + (n.name.empty() ? std::string(opName(n.op)) : n.name);
}

namespace {


class Printer {
public:
  explicit Printer(const Graph& g) : g_(g) {}
  std::string print(const LoopBody& body) {
    emit(body, 0);
    return out_.str();
  }

private:
  const Graph& g_;
  std::ostringstream out_;

  void line(int depth, const std::string& text) { out_ << std::string(2 * depth, ' ') << text << "\n"; }

  void memory(int depth, const char* verb, NodeId node, const StoreBytes& bytes) {
    line(depth, std::string(verb) + " " + statementLabel(g_, node) + "  (" + bytes.str() + " bytes)");
  }

  void emit(const LoopBody& body, int depth) {
    for (const LoopStmt& s : body) emit(s, depth);
  }

  void emit(const LoopStmt& s, int depth) {
    if (const auto* f = s.as<ForStmt>()) {
      std::string step = f->step == 1 ? "" : " step " + std::to_string(f->step);
      line(depth, "for " + f->var + " in " + f->lower.str() + ".." + f->upper.str() + step + ":");
      emit(f->body, depth + 1);
    } else if (const auto* i = s.as<IfStmt>()) {
      line(depth, "if " + i->condition.str() + ":");
      emit(i->thenBody, depth + 1);
      if (!i->elseBody.empty()) {
        line(depth, "else:");
        emit(i->elseBody, depth + 1);
      }
    } else if (const auto* e = s.as<ExecStmt>()) {
      line(depth, "exec " + statementLabel(g_, e->node) + point(*e));
    } else if (const auto* a = s.as<AllocStmt>()) {
      memory(depth, a->recompute ? "recompute" : "alloc", a->node, a->bytes);
    } else if (const auto* fr = s.as<FreeStmt>()) {
      memory(depth, "free", fr->node, fr->bytes);
    } else if (const auto* so = s.as<SwapOutStmt>()) {
      memory(depth, "swap_out", so->node, so->bytes);
    } else if (const auto* si = s.as<SwapInStmt>()) {
      memory(depth, "swap_in", si->node, si->bytes);
    }
  }

  std::string point(const ExecStmt& e) const {
    if (e.point.empty()) return "";
    const std::vector<std::string>* dims = g_.hasNode(e.node) ? &g_.node(e.node).domain : nullptr;
    std::string out = "[";
    for (size_t i = 0; i < e.point.size(); ++i) {
      std::string dim = dims && i < dims->size() ? (*dims)[i] + "=" : "";
      out += (i ? ", " : "") + dim + e.point[i].str();
    }
    return out + "]";
  }
};

}  // namespace

std::string printLoopProgram(const Graph& g, const LoopProgram& p) { return Printer(g).print(p.body); }

}  // namespace tempo
