// LoopAstJson: one recursive function per statement list.
#include "schedule/LoopAstJson.h"

namespace tempo {

namespace {

std::string label(const Graph& g, NodeId id) {
  if (!g.hasNode(id)) return "?";
  const Node& n = g.node(id);
  return n.name.empty() ? std::string(opName(n.op)) : n.name;
}

nlohmann::json memory(const Graph& g, const char* kind, NodeId node, const StoreBytes& bytes) {
  return {{"kind", kind}, {"node", node}, {"label", label(g, node)}, {"bytes", bytes.str()}};
}

nlohmann::json body(const Graph& g, const LoopBody& b) {
  nlohmann::json out = nlohmann::json::array();
  for (const LoopStmt& s : b) {
    if (const auto* f = s.as<ForStmt>()) {
      out.push_back({{"kind", "for"}, {"var", f->var}, {"lower", f->lower.str()}, {"upper", f->upper.str()},
                     {"step", f->step}, {"body", body(g, f->body)}});
    } else if (const auto* i = s.as<IfStmt>()) {
      out.push_back({{"kind", "if"}, {"condition", i->condition.str()}, {"then", body(g, i->thenBody)},
                     {"else", body(g, i->elseBody)}});
    } else if (const auto* e = s.as<ExecStmt>()) {
      nlohmann::json point = nlohmann::json::array();
      const std::vector<std::string>* dims = g.hasNode(e->node) ? &g.node(e->node).domain : nullptr;
      for (size_t k = 0; k < e->point.size(); ++k)
        point.push_back({{"dim", dims && k < dims->size() ? (*dims)[k] : ""}, {"index", e->point[k].str()}});
      out.push_back({{"kind", "exec"}, {"node", e->node}, {"label", label(g, e->node)}, {"point", point}});
    } else if (const auto* a = s.as<AllocStmt>()) {
      out.push_back(memory(g, a->recompute ? "recompute" : "alloc", a->node, a->bytes));
    } else if (const auto* fr = s.as<FreeStmt>()) {
      out.push_back(memory(g, "free", fr->node, fr->bytes));
    } else if (const auto* so = s.as<SwapOutStmt>()) {
      out.push_back(memory(g, "swap_out", so->node, so->bytes));
    } else if (const auto* si = s.as<SwapInStmt>()) {
      out.push_back(memory(g, "swap_in", si->node, si->bytes));
    }
  }
  return out;
}

}  // namespace

nlohmann::json loopProgramToJson(const Graph& g, const LoopProgram& p) { return body(g, p.body); }

}  // namespace tempo
