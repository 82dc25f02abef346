#include "graph/Graph.h"

#include <tuple>

#include <algorithm>
#include <stdexcept>

namespace tempo {

std::string IndexAtom::str() const {
  if (!isSlice()) return start.str();
  std::string out = start.str() + ":" + stop->str();
  if (isBlock()) out += " in " + block->first.str() + "+:" + std::to_string(block->size);
  return out;
}

bool Edge::isIdentityRead(const std::vector<std::string>& producerDomain) const {
  if (index.size() != producerDomain.size()) return false;
  for (size_t i = 0; i < index.size(); ++i) {
    if (index[i].isSlice()) return false;
    auto s = index[i].start.asSymbol();
    if (!s || s->name != producerDomain[i] || index[i].start != IndexExpr::dim(producerDomain[i]))
      return false;
  }
  return true;
}

std::string Edge::str() const {
  std::string out = "%" + std::to_string(producer);
  if (!index.empty()) {
    out += "[";
    for (size_t i = 0; i < index.size(); ++i) out += (i ? ", " : "") + index[i].str();
    out += "]";
  }
  if (!condition.isAlways()) out += " if " + condition.str();
  return out;
}

NodeId Graph::addNode(Node node) {
  node.id = nextNode_++;
  NodeId id = node.id;
  nodes_.emplace(id, std::move(node));
  return id;
}

EdgeId Graph::addEdge(Edge edge) {
  edge.id = nextEdge_++;
  EdgeId id = edge.id;
  inputsOf_[edge.consumer].push_back(id);
  edges_.emplace(id, std::move(edge));
  return id;
}

void Graph::removeNode(NodeId id) {
  for (auto it = edges_.begin(); it != edges_.end();) {
    if (it->second.consumer == id || it->second.producer == id) {
      forgetInput(it->second);
      it = edges_.erase(it);
    } else {
      ++it;
    }
  }
  nodes_.erase(id);
}

void Graph::removeEdge(EdgeId id) {
  auto it = edges_.find(id);
  if (it == edges_.end()) return;
  forgetInput(it->second);
  edges_.erase(it);
}

void Graph::forgetInput(const Edge& e) {
  auto in = inputsOf_.find(e.consumer);
  if (in == inputsOf_.end()) return;
  std::erase(in->second, e.id);
  if (in->second.empty()) inputsOf_.erase(in);
}

std::string Graph::checkInputIndex() const {
  size_t indexed = 0;
  for (const auto& [consumer, ids] : inputsOf_)
    for (EdgeId id : ids) {
      auto it = edges_.find(id);
      if (it == edges_.end()) return "edge " + std::to_string(id) + " is indexed but not in the graph";
      if (it->second.consumer != consumer)
        return "edge " + std::to_string(id) + " now reads into %" + std::to_string(it->second.consumer) +
               ", not %" + std::to_string(consumer) + " (an edge's consumer must not change once added)";
      ++indexed;
    }
  if (indexed != edges_.size()) return "some edges are not indexed by their consumer";
  return "";
}

const Node& Graph::node(NodeId id) const {
  auto it = nodes_.find(id);
  if (it == nodes_.end()) throw std::out_of_range("no node %" + std::to_string(id));
  return it->second;
}
Node& Graph::node(NodeId id) {
  return const_cast<Node&>(static_cast<const Graph*>(this)->node(id));
}
const Edge& Graph::edge(EdgeId id) const {
  auto it = edges_.find(id);
  if (it == edges_.end()) throw std::out_of_range("no edge " + std::to_string(id));
  return it->second;
}
Edge& Graph::edge(EdgeId id) {
  return const_cast<Edge&>(static_cast<const Graph*>(this)->edge(id));
}

std::vector<const Edge*> Graph::inputs(NodeId consumer) const {
  std::vector<const Edge*> out;
  auto in = inputsOf_.find(consumer);
  if (in == inputsOf_.end()) return out;
  for (EdgeId id : in->second) out.push_back(&edges_.at(id));
  std::sort(out.begin(), out.end(), [](const Edge* a, const Edge* b) {
    return std::tie(a->inputIndex, a->id) < std::tie(b->inputIndex, b->id);
  });
  return out;
}

std::vector<const Edge*> Graph::users(NodeId producer) const {
  std::vector<const Edge*> out;
  for (const auto& [id, e] : edges_)
    if (e.producer == producer) out.push_back(&e);
  return out;
}

std::string Graph::boundOf(const std::string& dim) const {
  for (const DimDecl& d : dims)
    if (d.name == dim) return d.bound;
  return "";
}

std::vector<std::string> Graph::boundNames() const {
  std::vector<std::string> out;
  for (const DimDecl& d : dims) out.push_back(d.bound);
  return out;
}

SymbolEnv Graph::withDerivedBounds(SymbolEnv env) const {
  std::map<std::string, IndexExpr> pending = derivedBounds;
  while (!pending.empty()) {
    bool progressed = false;
    for (auto it = pending.begin(); it != pending.end();) {
      bool ready = true;
      for (const Symbol& s : it->second.symbols()) ready = ready && (env.count(s.name) || !pending.count(s.name));
      if (!ready) { ++it; continue; }
      env[it->first] = it->second.evaluate(env);
      it = pending.erase(it);
      progressed = true;
    }
    if (!progressed) throw std::out_of_range("derived bounds depend on each other in a cycle");
  }
  return env;
}

int Graph::dimIndex(const std::string& dim) const {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].name == dim) return static_cast<int>(i);
  return -1;
}

TensorType Graph::readType(const Edge& e) const {
  TensorType t = node(e.producer).type;
  std::vector<IndexExpr> lead;
  for (const IndexAtom& a : e.index)
    if (a.isSlice()) lead.push_back(a.size());
  t.shape.insert(t.shape.begin(), lead.begin(), lead.end());
  return t;
}

}  // namespace tempo
