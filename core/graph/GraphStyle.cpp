#include "graph/GraphStyle.h"

namespace tempo {

NodeStyle nodeStyleOf(OpKind op) {
  switch (opClass(op)) {
    case OpClass::Source: return {NodeShape::Box, "#dbeafe"};
    case OpClass::Unary:
    case OpClass::Binary:
    case OpClass::Ternary:
    case OpClass::Cast: return {NodeShape::Ellipse, "#f1f5f9"};
    case OpClass::MatMul: return {NodeShape::Box3d, "#fde68a"};
    case OpClass::Reduce: return {NodeShape::InvTrapezium, "#bbf7d0"};
    case OpClass::Movement:
    case OpClass::Indexed:
    case OpClass::Identity: return {NodeShape::Cds, "#e9d5ff"};
    case OpClass::Merge: return {NodeShape::Diamond, "#fecaca"};
    case OpClass::Fused: return {NodeShape::Box, "#fed7aa"};
  }
  return {NodeShape::Ellipse, "#ffffff"};
}

const char* dotShapeName(NodeShape shape) {
  switch (shape) {
    case NodeShape::Box: return "box";
    case NodeShape::Ellipse: return "ellipse";
    case NodeShape::Box3d: return "box3d";
    case NodeShape::InvTrapezium: return "invtrapezium";
    case NodeShape::Cds: return "cds";
    case NodeShape::Diamond: return "diamond";
    case NodeShape::Plain: return "plaintext";
  }
  return "ellipse";
}

std::string domainString(const std::vector<std::string>& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + d[i];
  return s + ")";
}

std::string atomsString(const Edge& e) {
  if (e.index.empty()) return "";
  std::string s = "[";
  for (size_t i = 0; i < e.index.size(); ++i) s += (i ? ", " : "") + e.index[i].str();
  return s + "]";
}

std::vector<std::string> nodeLabelLines(const Node& n) {
  std::string head = opLabel(n.op, n.attrs);
  if (n.op == OpKind::Constant || n.op == OpKind::EvalIndex) {  // `constant 16`, `eval_index t`
    std::string attrs = attrsString(n.op, n.attrs);
    head += " " + attrs.substr(attrs.find('=') + 1);
  }
  if (!n.name.empty()) head += " " + n.name;
  std::string type = n.type.str();
  if (!n.domain.empty()) type += " over " + domainString(n.domain);
  return {head, type};
}

std::vector<std::string> edgeLabelLines(const Edge& e, bool withIndex) {
  std::vector<std::string> lines;
  if (withIndex && !e.index.empty()) lines.push_back(atomsString(e));
  if (!e.condition.isAlways()) lines.push_back("if " + e.condition.str());
  return lines;
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::string s;
  for (size_t i = 0; i < lines.size(); ++i) s += (i ? "\n" : "") + lines[i];
  return s;
}

}  // namespace tempo
