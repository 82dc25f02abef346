#include "graph/GraphPrinter.h"

namespace tempo {

std::string printNode(const Graph& g, const Node& n, const PrintOptions& options) {
  std::string line = "%" + std::to_string(n.id);
  if (!n.name.empty()) line += " " + n.name;
  line += " = " + opLabel(n.op, n.attrs) + "(";
  auto ins = g.inputs(n.id);
  for (size_t i = 0; i < ins.size(); ++i) line += (i ? ", " : "") + ins[i]->str();
  line += ")";
  std::string attrs = attrsString(n.op, n.attrs);
  if (!attrs.empty()) line += " {" + attrs + "}";
  line += " : " + n.type.str();
  if (!n.domain.empty()) {
    line += " over (";
    for (size_t i = 0; i < n.domain.size(); ++i) line += (i ? ", " : "") + n.domain[i];
    line += ")";
  }
  if (options.locations && n.loc.valid())
    line += "  # " + std::to_string(n.loc.begin.line) + ":" + std::to_string(n.loc.begin.col);
  return line;
}

std::string printGraph(const Graph& g, const PrintOptions& options) {
  std::string out = "graph";
  if (!g.file.empty()) out += " \"" + g.file + "\"";
  out += "\n";
  if (!g.dims.empty()) {
    out += "dims ";
    for (size_t i = 0; i < g.dims.size(); ++i) out += (i ? ", " : "") + g.dims[i].name + " < " + g.dims[i].bound;
    out += "\n";
  }
  if (!g.boundDefaults.empty()) {
    out += "set ";
    bool first = true;
    for (const auto& [name, value] : g.boundDefaults) {
      out += (first ? "" : ", ") + name + " = " + std::to_string(value);
      first = false;
    }
    out += "\n";
  }
  for (const auto& [name, expr] : g.derivedBounds) out += "bound " + name + " = " + expr.str() + "\n";
  for (const auto& [dim, guard] : g.dimGuards) out += "guard " + dim + " where " + guard.str() + "\n";
  for (const auto& [id, n] : g.nodes()) out += printNode(g, n, options) + "\n";
  for (const GraphOutput& o : g.outputs)
    out += (o.untilDim.empty() ? "out " : "until " + o.untilDim + ": ") + o.name + " = %" + std::to_string(o.node) + "\n";
  return out;
}

}  // namespace tempo
