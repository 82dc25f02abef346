#include "layout/DotBuilder.h"

#include "graph/GraphExport.h"
#include "ops/FusedProgram.h"

#include <graphviz/gvc.h>

#include <algorithm>
#include <optional>

namespace tempo {

namespace {

void setAttr(void* obj, const char* name, const std::string& value) {
  agsafeset(obj, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(""));
}

void setDefault(Agraph_t* g, int kind, const char* name, const std::string& value) {
  agattr(g, kind, const_cast<char*>(name), const_cast<char*>(value.c_str()));
}

/// A Graphviz label: backslashes escaped, lines joined by `\n` escapes.
std::string dotLabel(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) out += "\\n";
    for (char c : lines[i]) {
      if (c == '\\') out += '\\';
      out += c;
    }
  }
  return out;
}

/// `3 ops: reduce_sum, div, constant` (at most four distinct op names).
std::string groupSummary(const Graph& g, const std::vector<NodeId>& members) {
  std::vector<std::string> ops;
  for (NodeId id : members) {
    std::string op(opName(g.node(id).op));
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
  }
  std::string s = std::to_string(members.size()) + " ops: ";
  for (size_t i = 0; i < ops.size() && i < 4; ++i) s += (i ? ", " : "") + ops[i];
  if (ops.size() > 4) s += ", ...";
  return s;
}

class Builder {
public:
  Builder(const Graph& g, const LayoutOptions& o, Agraph_t* root, const DotEdgeLabels& labels)
      : g_(g), o_(o), labels_(labels), root_(root) {}

  DotGraph build() {
    setDefaults();
    addOpsAndGroups();
    for (const auto& [id, e] : g_.edges()) addEdge(e);
    addStepEdges();
    if (o_.outputs) addOutputs();
    return std::move(out_);
  }

private:
  void setDefaults() {
    setDefault(root_, AGRAPH, "rankdir", "TB");
    setDefault(root_, AGRAPH, "nodesep", "0.3");
    setDefault(root_, AGRAPH, "ranksep", "0.35");
    setDefault(root_, AGRAPH, "fontname", kGraphFontName);
    setDefault(root_, AGRAPH, "fontsize", std::to_string(kEdgeFontSize));
    setDefault(root_, AGNODE, "fontname", kGraphFontName);
    setDefault(root_, AGNODE, "fontsize", std::to_string(kNodeFontSize));
    setDefault(root_, AGNODE, "style", "filled");
    setDefault(root_, AGNODE, "margin", "0.1,0.04");
    setDefault(root_, AGEDGE, "fontname", kGraphFontName);
    setDefault(root_, AGEDGE, "fontsize", std::to_string(kEdgeFontSize));
    setDefault(root_, AGEDGE, "arrowsize", "0.7");
  }

  /// The group a node is drawn in, if its group has two or more members.
  std::optional<int> groupOf(NodeId id) const {
    auto it = o_.groups.groupOf.find(id);
    if (it == o_.groups.groupOf.end() || groupSizes_.at(it->second) < 2) return std::nullopt;
    return it->second;
  }

  void addOpsAndGroups() {
    for (const auto& [node, gid] : o_.groups.groupOf)
      if (g_.hasNode(node)) ++groupSizes_[gid];
    std::map<int, Agraph_t*> clusterOf;
    for (const auto& [id, n] : g_.nodes()) {
      std::optional<int> gid = groupOf(id);
      if (gid && !o_.expandedGroups.count(*gid)) {
        addGroupBox(*gid);
        boxOfNode_[id] = boxOfGroup_.at(*gid);
        continue;
      }
      Agraph_t* parent = root_;
      if (gid) {
        auto [it, fresh] = clusterOf.try_emplace(*gid, nullptr);
        if (fresh) {
          LayoutCluster c;
          c.group = *gid;
          c.label = o_.groups.label(*gid);
          it->second = addCluster(root_, std::move(c));
        }
        parent = it->second;
      }
      if (n.op == OpKind::Fused && !n.attrs.program.empty() && o_.expandedFused.count(id)) {
        addFusedSteps(n, parent);
        continue;
      }
      NodeStyle st = nodeStyleOf(n.op);
      LayoutNode ln;
      ln.kind = LayoutNodeKind::Op;
      ln.id = id;
      ln.members = {id};
      ln.label = nodeLabelLines(n);
      ln.shape = st.shape;
      ln.fill = st.fill;
      boxOfNode_[id] = addBox(parent, "n" + std::to_string(id), std::move(ln));
    }
  }

  void addGroupBox(int gid) {
    if (boxOfGroup_.count(gid)) return;
    LayoutNode ln;
    ln.kind = LayoutNodeKind::Group;
    ln.id = gid;
    for (const auto& [node, group] : o_.groups.groupOf)
      if (group == gid && g_.hasNode(node)) ln.members.push_back(node);
    ln.label = {o_.groups.label(gid), groupSummary(g_, ln.members)};
    ln.shape = NodeShape::Box;
    ln.fill = kGroupFillColor;
    boxOfGroup_[gid] = addBox(root_, "g" + std::to_string(gid), std::move(ln));
    setAttr(out_.nodes.back(), "style", "filled,rounded,bold");
  }

  /// A frame: `c` (label and group or fused node) inside `parent`.
  Agraph_t* addCluster(Agraph_t* parent, LayoutCluster c) {
    std::string name = "cluster_" + std::to_string(out_.clusters.size());
    Agraph_t* sub = agsubg(parent, const_cast<char*>(name.c_str()), 1);
    setAttr(sub, "label", dotLabel({c.label}));
    setAttr(sub, "style", "dashed,rounded");
    setAttr(sub, "color", "#64748b");
    setAttr(sub, "labeljust", "l");
    out_.layout.clusters.push_back(std::move(c));
    out_.clusters.push_back(sub);
    return sub;
  }

  /// An expanded fused node: a frame with one box per program step; its
  /// readers read the last step.
  void addFusedSteps(const Node& n, Agraph_t* parent) {
    const std::vector<FusedStep>& program = n.attrs.program;
    LayoutCluster c;
    c.fused = n.id;
    c.label = "fused %" + std::to_string(n.id) + (n.name.empty() ? "" : " " + n.name) + " \u2014 " +
              std::to_string(program.size()) + " steps";
    Agraph_t* frame = addCluster(parent, std::move(c));
    std::vector<int>& boxes = stepBoxes_[n.id];
    for (size_t k = 0; k < program.size(); ++k) {
      const bool last = k + 1 == program.size();
      NodeStyle st = nodeStyleOf(program[k].op);
      LayoutNode ln;
      ln.kind = LayoutNodeKind::FusedStep;
      ln.id = n.id;
      ln.members = {n.id};
      ln.step = static_cast<int>(k);
      std::string lhs = last && !n.name.empty() ? n.name : "s" + std::to_string(k);
      ln.label = {lhs + " = " + fusedStepExpression(program, k)};
      if (last) ln.label.push_back(nodeLabelLines(n).back());  // the node's type and domain
      ln.shape = st.shape;
      ln.fill = st.fill;
      boxes.push_back(addBox(frame, "n" + std::to_string(n.id) + "s" + std::to_string(k), std::move(ln)));
    }
    boxOfNode_[n.id] = boxes.back();
  }

  /// The steps of an expanded fused node that read operand `kind` number `index`.
  static std::vector<size_t> readersOf(const std::vector<FusedStep>& program, FusedOperand::Kind kind, int index) {
    std::vector<size_t> out;
    for (size_t k = 0; k < program.size(); ++k)
      for (const FusedOperand& o : program[k].operands)
        if (o.kind == kind && o.index == index) {
          out.push_back(k);
          break;
        }
    return out;
  }

  /// Edges between the steps of every expanded fused node (no SDG edge).
  void addStepEdges() {
    for (const auto& [fused, boxes] : stepBoxes_) {
      const std::vector<FusedStep>& program = g_.node(fused).attrs.program;
      for (size_t j = 0; j < program.size(); ++j)
        for (size_t k : readersOf(program, FusedOperand::Kind::Step, static_cast<int>(j))) {
          LayoutEdge le;
          le.from = boxes[j];
          le.to = boxes[k];
          out_.edges.push_back(connect(le.from, le.to, "f" + std::to_string(fused) + "_" + std::to_string(j) + "_" +
                                                            std::to_string(k)));
          out_.layout.edges.push_back(std::move(le));
        }
    }
  }

  int addBox(Agraph_t* parent, const std::string& name, LayoutNode ln) {
    Agnode_t* n = agnode(parent, const_cast<char*>(name.c_str()), 1);
    setAttr(n, "label", dotLabel(ln.label));
    setAttr(n, "shape", dotShapeName(ln.shape));
    if (!ln.fill.empty()) setAttr(n, "fillcolor", ln.fill);
    out_.layout.nodes.push_back(std::move(ln));
    out_.nodes.push_back(n);
    return static_cast<int>(out_.nodes.size()) - 1;
  }

  void addEdge(const Edge& e) {
    if (!boxOfNode_.count(e.producer) || !boxOfNode_.count(e.consumer)) return;  // a dangling edge
    int from = boxOfNode_.at(e.producer), to = boxOfNode_.at(e.consumer);
    if (from == to && out_.layout.nodes[from].kind == LayoutNodeKind::Group) return;
    if (auto steps = stepBoxes_.find(e.consumer); steps != stepBoxes_.end()) {  // into the steps reading it
      const std::vector<FusedStep>& program = g_.node(e.consumer).attrs.program;
      std::vector<size_t> readers = readersOf(program, FusedOperand::Kind::Input, e.inputIndex);
      if (readers.empty()) readers.push_back(program.size() - 1);
      for (size_t k : readers) addEdgeBox(e, from, steps->second[k], "in" + std::to_string(e.inputIndex), k);
      return;
    }
    addEdgeBox(e, from, to, "", 0);
  }

  /// One drawn edge for SDG edge `e` from box `from` to box `to`; `tag`
  /// (a fused input's name) heads its label; `part` tells apart several drawings of one edge.
  void addEdgeBox(const Edge& e, int from, int to, const std::string& tag, size_t part) {
    LayoutEdge le;
    le.id = e.id;
    le.from = from;
    le.to = to;
    le.label = edgeLabelLines(e, o_.identityReadLabels || !e.isIdentityRead(g_.node(e.producer).domain));
    if (!tag.empty()) le.label.insert(le.label.begin(), tag);
    le.temporal = isTemporalEdge(g_, e);
    le.conditional = !e.condition.isAlways();
    Agedge_t* ae = connect(from, to, "e" + std::to_string(e.id) + (part ? "_" + std::to_string(part) : ""));
    if (!le.label.empty() && labels_.drawn)
      setAttr(ae, labels_.external.count(out_.layout.edges.size()) ? "xlabel" : "label", dotLabel(le.label));
    if (le.temporal) setAttr(ae, "style", "dashed");
    if (le.conditional) {
      setAttr(ae, "color", kConditionalEdgeColor);
      setAttr(ae, "fontcolor", kConditionalEdgeColor);
    }
    out_.layout.edges.push_back(std::move(le));
    out_.edges.push_back(ae);
  }

  void addOutputs() {
    for (size_t i = 0; i < g_.outputs.size(); ++i) {
      const GraphOutput& o = g_.outputs[i];
      if (!boxOfNode_.count(o.node)) continue;
      LayoutNode ln;
      ln.kind = LayoutNodeKind::Output;
      ln.id = static_cast<int>(i);
      ln.members = {o.node};
      ln.label = {(o.untilDim.empty() ? "out " : "until " + o.untilDim + ": ") + o.name};
      ln.shape = NodeShape::Plain;
      int box = addBox(root_, "out" + std::to_string(i), std::move(ln));
      setAttr(out_.nodes.back(), "style", "");
      LayoutEdge le;
      le.from = boxOfNode_.at(o.node);
      le.to = box;
      out_.edges.push_back(connect(le.from, le.to, "o" + std::to_string(i)));
      out_.layout.edges.push_back(std::move(le));
    }
  }

  Agedge_t* connect(int from, int to, const std::string& name) {
    return agedge(root_, out_.nodes[from], out_.nodes[to], const_cast<char*>(name.c_str()), 1);
  }

  const Graph& g_;
  const LayoutOptions& o_;
  const DotEdgeLabels& labels_;
  Agraph_t* root_;
  DotGraph out_;
  std::map<int, int> groupSizes_;
  std::map<int, int> boxOfGroup_;
  std::map<NodeId, int> boxOfNode_;
  std::map<NodeId, std::vector<int>> stepBoxes_;  ///< expanded fused node -> its step boxes, in program order
};

}  // namespace

DotGraph buildDotGraph(const Graph& g, const LayoutOptions& options, Agraph_s* root, const DotEdgeLabels& labels) {
  return Builder(g, options, root, labels).build();
}

}  // namespace tempo
