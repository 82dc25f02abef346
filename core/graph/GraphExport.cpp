#include "graph/GraphExport.h"

#include "graph/GraphStyle.h"
#include "ops/FusedProgram.h"

namespace tempo {

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out;
}

}  // namespace

bool isTemporalEdge(const Graph& g, const Edge& e) {
  const Node& p = g.node(e.producer);
  for (size_t i = 0; i < e.index.size() && i < p.domain.size(); ++i) {
    if (e.index[i].isSlice() || e.index[i].start != IndexExpr::dim(p.domain[i])) return true;
  }
  return false;
}

std::string graphToDot(const Graph& g) {
  const std::string font = std::string("fontname=\"") + kGraphFontName + "\", fontsize=";
  std::string out = "digraph sdg {\n  rankdir=BT;\n  node [" + font + std::to_string(kNodeFontSize) +
                    ", style=filled];\n  edge [" + font + std::to_string(kEdgeFontSize) + "];\n";
  for (const auto& [id, n] : g.nodes()) {
    NodeStyle st = nodeStyleOf(n.op);
    out += "  n" + std::to_string(id) + " [label=\"" + escape(joinLines(nodeLabelLines(n))) +
           "\", shape=" + dotShapeName(st.shape) + ", fillcolor=\"" + st.fill + "\"];\n";
  }
  for (const auto& [id, e] : g.edges()) {
    std::string label = joinLines(edgeLabelLines(e));
    std::string attrs = "label=\"" + escape(label) + "\"";
    if (isTemporalEdge(g, e)) attrs += ", style=dashed";
    if (!e.condition.isAlways()) attrs += std::string(", color=\"") + kConditionalEdgeColor + "\", fontcolor=\"" + kConditionalEdgeColor + "\"";
    out += "  n" + std::to_string(e.producer) + " -> n" + std::to_string(e.consumer) + " [" + attrs + "];\n";
  }
  for (const GraphOutput& o : g.outputs) {
    const std::string label = (o.untilDim.empty() ? "out " : "until " + o.untilDim + ": ") + o.name;
    out += "  out_" + o.name + " [label=\"" + escape(label) + "\", shape=plaintext, style=\"\"];\n";
    out += "  n" + std::to_string(o.node) + " -> out_" + o.name + ";\n";
  }
  return out + "}\n";
}

nlohmann::json graphToJson(const Graph& g) {
  using nlohmann::json;
  json j;
  j["file"] = g.file;
  j["dims"] = json::array();
  for (const DimDecl& d : g.dims) j["dims"].push_back({{"name", d.name}, {"bound", d.bound}});
  j["bounds"] = g.boundDefaults;
  for (const auto& [name, expr] : g.derivedBounds) j["derivedBounds"][name] = expr.str();  // only when tiled
  for (const auto& [dim, guard] : g.dimGuards) j["guards"][dim] = guard.str();
  j["nodes"] = json::array();
  for (const auto& [id, n] : g.nodes()) {
    json shape = json::array();
    for (const IndexExpr& s : n.type.shape) shape.push_back(s.str());
    j["nodes"].push_back({{"id", id},
                          {"op", std::string(opName(n.op))},
                          {"name", n.name},
                          {"attrs", attrsString(n.op, n.attrs)},
                          {"dtype", std::string(dtypeName(n.type.dtype))},
                          {"shape", shape},
                          {"domain", n.domain},
                          {"loc", {{"line", n.loc.begin.line}, {"col", n.loc.begin.col},
                                   {"endLine", n.loc.end.line}, {"endCol", n.loc.end.col}}}});
    if (n.op == OpKind::Fused) {
      j["nodes"].back()["expr"] = fusedExpression(n.attrs.program);
      j["nodes"].back()["fusedFrom"] = n.attrs.fusedFrom;
    }
  }
  j["edges"] = json::array();
  for (const auto& [id, e] : g.edges()) {
    json atoms = json::array();
    for (const IndexAtom& a : e.index) {
      json atom = {{"start", a.start.str()}};
      if (a.isSlice()) atom["stop"] = a.stop->str();
      if (a.isBlock()) atom["block"] = {{"first", a.block->first.str()}, {"size", a.block->size}};
      atoms.push_back(atom);
    }
    j["edges"].push_back({{"id", id},
                          {"producer", e.producer},
                          {"consumer", e.consumer},
                          {"input", e.inputIndex},
                          {"index", atoms},
                          {"condition", e.condition.str()},
                          {"temporal", isTemporalEdge(g, e)}});
  }
  j["outputs"] = json::array();
  for (const GraphOutput& o : g.outputs) {
    json out = {{"name", o.name}, {"node", o.node}};
    if (!o.untilDim.empty()) out["until"] = o.untilDim;
    j["outputs"].push_back(std::move(out));
  }
  return j;
}

}  // namespace tempo
