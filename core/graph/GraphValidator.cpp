#include "graph/GraphValidator.h"

#include "ops/TypeInference.h"

#include <set>

namespace tempo {

namespace {

std::string nodeRef(const Node& n) {
  return "%" + std::to_string(n.id) + (n.name.empty() ? "" : " (" + n.name + ")");
}

void checkSymbols(const std::set<Symbol>& used, const std::set<std::string>& allowed, const std::string& what,
                  std::vector<std::string>& problems) {
  for (const Symbol& s : used)
    if (!allowed.count(s.name)) problems.push_back(what + " uses '" + s.name + "', which is not in scope");
}

std::set<Symbol> atomSymbols(const IndexAtom& a) {
  std::set<Symbol> s = a.start.symbols();
  if (a.stop)
    for (const Symbol& x : a.stop->symbols()) s.insert(x);
  if (a.block)
    for (const Symbol& x : a.block->first.symbols()) s.insert(x);
  return s;
}

void checkNode(const Graph& g, const Node& n, const std::set<std::string>& bounds,
               std::vector<std::string>& problems) {
  std::set<std::string> scope = bounds;
  for (const std::string& d : n.domain) {
    if (g.dimIndex(d) < 0) problems.push_back(nodeRef(n) + " has unknown dimension '" + d + "' in its domain");
    scope.insert(d);
  }
  std::set<Symbol> shapeSyms;
  for (const IndexExpr& s : n.type.shape)
    for (const Symbol& x : s.symbols()) shapeSyms.insert(x);
  checkSymbols(shapeSyms, scope, nodeRef(n) + "'s shape", problems);
  if (n.op == OpKind::EvalIndex && n.attrs.index)
    checkSymbols(n.attrs.index->symbols(), scope, nodeRef(n) + "'s index", problems);

  auto ins = g.inputs(n.id);
  std::vector<TensorType> inTypes;
  for (size_t i = 0; i < ins.size(); ++i) {
    const Edge& e = *ins[i];
    if (e.inputIndex != static_cast<int>(i))
      problems.push_back(nodeRef(n) + " has input slots that are not contiguous");
    if (!g.hasNode(e.producer)) {
      problems.push_back(nodeRef(n) + " reads missing node %" + std::to_string(e.producer));
      return;
    }
    const Node& p = g.node(e.producer);
    if (e.index.size() != p.domain.size())
      problems.push_back(nodeRef(n) + " reads " + nodeRef(p) + " with " + std::to_string(e.index.size()) +
                         " indices, but its domain has " + std::to_string(p.domain.size()));
    for (const IndexAtom& a : e.index) {
      checkSymbols(atomSymbols(a), scope, nodeRef(n) + "'s read of " + nodeRef(p), problems);
      if (a.block && a.block->size < 1)
        problems.push_back(nodeRef(n) + "'s block read of " + nodeRef(p) + " has " + std::to_string(a.block->size) +
                           " lanes");
    }
    checkSymbols(e.condition.symbols(), scope, nodeRef(n) + "'s condition on " + nodeRef(p), problems);
    inTypes.push_back(g.readType(e));
  }
  if (opClass(n.op) == OpClass::Source) {
    if (!ins.empty()) problems.push_back(nodeRef(n) + ": a source has inputs");
    return;
  }
  TypeResult r = inferType(n.op, n.attrs, inTypes);
  if (auto* msg = std::get_if<std::string>(&r)) {
    problems.push_back(nodeRef(n) + ": " + *msg);
  } else if (!(std::get<TensorType>(r) == n.type)) {
    problems.push_back(nodeRef(n) + " has type " + n.type.str() + " but its inputs give " +
                       std::get<TensorType>(r).str());
  }
}

}  // namespace

std::vector<std::string> validateGraph(const Graph& g) {
  std::vector<std::string> problems;
  std::set<std::string> bounds;
  for (const DimDecl& d : g.dims) bounds.insert(d.bound);
  for (const auto& [id, e] : g.edges()) {
    if (!g.hasNode(e.consumer)) problems.push_back("edge " + std::to_string(id) + " has a missing consumer");
    if (!g.hasNode(e.producer)) problems.push_back("edge " + std::to_string(id) + " has a missing producer");
  }
  if (std::string index = g.checkInputIndex(); !index.empty()) problems.push_back(index);
  for (const auto& [id, n] : g.nodes()) checkNode(g, n, bounds, problems);
  for (const GraphOutput& o : g.outputs)
    if (!g.hasNode(o.node)) problems.push_back("output '" + o.name + "' names a missing node");
  return problems;
}

}  // namespace tempo
