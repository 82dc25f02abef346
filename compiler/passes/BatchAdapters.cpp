#include "passes/BatchAdapters.h"

#include "ops/TypeInference.h"
#include "passes/GraphRewrite.h"

#include <algorithm>
#include <stdexcept>

namespace tempo {

std::vector<IndexAtom> identityAtoms(const std::vector<std::string>& domain) {
  std::vector<IndexAtom> atoms;
  for (const std::string& d : domain) atoms.push_back(IndexAtom::point(IndexExpr::dim(d)));
  return atoms;
}

NodeId addReader(Graph& g, OpKind op, OpAttrs attrs, std::vector<std::string> domain, const Edge& read,
                 GraphChange& change) {
  Node adapter;
  adapter.op = op;
  adapter.attrs = std::move(attrs);
  adapter.domain = std::move(domain);
  adapter.loc = read.loc.valid() || !g.hasNode(read.consumer) ? read.loc : g.node(read.consumer).loc;
  TypeResult type = inferType(op, adapter.attrs, {g.readType(read)});
  if (auto* message = std::get_if<std::string>(&type))
    throw std::logic_error("vectorisation adapter on " + read.str() + ": " + *message);
  adapter.type = std::get<TensorType>(type);
  NodeId id = g.addNode(adapter);
  Edge input = read;
  input.id = -1;
  input.consumer = id;
  input.inputIndex = 0;
  input.condition = Condition::always();  // only merge inputs are conditional; the reader keeps it
  g.addEdge(input);
  change.added.insert(id);
  return id;
}

namespace {

/// The dimensions of `domain` that the read `read` or the attributes `attrs` mention, in order.
std::vector<std::string> mentionedDims(const std::vector<std::string>& domain, const Edge& read, const OpAttrs& attrs) {
  std::vector<std::string> out;
  for (const std::string& d : domain) {
    bool used = std::any_of(read.index.begin(), read.index.end(), [&](const IndexAtom& a) { return atomUses(a, d); }) ||
                attrs.start.dependsOn(d) || attrs.stop.dependsOn(d);
    if (used) out.push_back(d);
  }
  return out;
}

}  // namespace

NodeId insertAdapter(Graph& g, EdgeId edgeId, OpKind op, OpAttrs attrs, GraphChange& change) {
  const Edge read = g.edge(edgeId);
  // Over the dimensions it depends on only: a selector of the initial state
  // `x[i, 0, b]` runs once per (i, b), not again at every step t.
  std::vector<std::string> domain = mentionedDims(g.node(read.consumer).domain, read, attrs);
  NodeId id = addReader(g, op, std::move(attrs), domain, read, change);
  Edge& e = g.edge(edgeId);
  e.producer = id;
  e.index = identityAtoms(domain);
  change.rewritten.insert(read.consumer);
  return id;
}

OpAttrs moveAxis(int rank, int from, int to) {
  OpAttrs a;
  for (int i = 0; i < rank; ++i)
    if (i != from) a.perm.push_back(i);
  a.perm.insert(a.perm.begin() + to, from);
  return a;
}

OpAttrs targetShape(std::vector<IndexExpr> shape) {
  OpAttrs a;
  a.shape = std::move(shape);
  return a;
}

OpAttrs sliceAttrs(int64_t axis, IndexExpr start, IndexExpr stop) {
  OpAttrs a;
  a.axis = axis;
  a.start = std::move(start);
  a.stop = std::move(stop);
  return a;
}

}  // namespace tempo
