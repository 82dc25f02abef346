// StatementClusters: grow clusters from their roots until no statement can join one.
#include "schedule/StatementClusters.h"

#include "schedule/IslPtr.h"

#include <set>

namespace tempo {

namespace {

/// The cluster `m`'s readers all belong to, if `m` may join it: every reader
/// reads `m` at the same point of the same domain, and all of them are in one
/// cluster other than `m`'s own. -1 otherwise.
NodeId clusterToJoin(const Graph& g, NodeId m, const std::map<NodeId, NodeId>& rootOf) {
  const Node& producer = g.node(m);
  if (producer.domain.empty()) return -1;
  NodeId target = -1;
  for (const Edge* e : g.users(m)) {
    if (e->consumer == m || g.node(e->consumer).domain != producer.domain || !e->isIdentityRead(producer.domain))
      return -1;
    NodeId r = rootOf.at(e->consumer);
    if (r == m || (target != -1 && r != target)) return -1;
    target = r;
  }
  return target;
}

/// The members of one cluster in an order that respects their identity
/// edges (Kahn's algorithm, ties by node id); the root comes last because
/// every other member reaches it. The root's own reads by members (a
/// recurrence's `h[t-1]`) are at other points and do not order them.
std::vector<NodeId> executionOrder(const Graph& g, NodeId root, const std::set<NodeId>& members) {
  auto orders = [&](const Edge* e) { return members.count(e->consumer) && e->producer != root && e->producer != e->consumer; };
  std::map<NodeId, int> waiting;
  for (NodeId m : members) waiting[m] = 0;
  for (NodeId m : members)
    for (const Edge* e : g.inputs(m))
      if (members.count(e->producer) && orders(e)) ++waiting[m];
  std::set<NodeId> ready;
  for (const auto& [m, n] : waiting)
    if (n == 0) ready.insert(m);
  std::vector<NodeId> order;
  while (!ready.empty()) {
    NodeId m = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(m);
    for (const Edge* e : g.users(m))
      if (orders(e) && --waiting[e->consumer] == 0) ready.insert(e->consumer);
  }
  return order;
}

std::string tupleOf(const Node& n, const std::string& name) {
  std::string out = name + "[";
  for (size_t i = 0; i < n.domain.size(); ++i) out += (i ? ", c" : "c") + std::to_string(i);
  return out + "]";
}

std::string withParams(const std::vector<std::string>& params, const std::vector<std::string>& pieces) {
  std::string out = "[";
  for (size_t i = 0; i < params.size(); ++i) out += (i ? ", " : "") + params[i];
  out += "] -> { ";
  for (size_t i = 0; i < pieces.size(); ++i) out += (i ? "; " : "") + pieces[i];
  return out + " }";
}

/// Whether dependence `d` (both ends in one cluster) has a pair at one point.
bool samePoint(isl_ctx* ctx, const EdgeDependence& d) {
  auto map = islCheck(isl_map_read_from_str(ctx, d.validity.c_str()), ctx, "reading a dependence");
  map.reset(isl_map_set_tuple_name(map.release(), isl_dim_in, statementName(d.consumer).c_str()));
  auto identity = islCheck(isl_map_identity(isl_map_get_space(map.get())), ctx, "the identity");
  map.reset(isl_map_intersect(map.release(), identity.release()));
  return isl_map_is_empty(islCheck(map.release(), ctx, "a dependence at one point").get()) != isl_bool_true;
}

}  // namespace

StatementClusters clusterStatements(const Graph& g, const DependenceRelations& rel, IslContext& ctx) {
  std::map<NodeId, NodeId> rootOf;
  for (const auto& [id, n] : g.nodes()) rootOf[id] = id;
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [id, n] : g.nodes()) {
      if (rootOf[id] != id) continue;
      NodeId target = clusterToJoin(g, id, rootOf);
      if (target == -1) continue;
      for (auto& [member, root] : rootOf)
        if (root == id) root = target;
      changed = true;
    }
  }
  std::map<NodeId, std::set<NodeId>> members;
  for (const auto& [id, root] : rootOf) members[root].insert(id);
  std::map<NodeId, int> position;
  std::map<NodeId, std::vector<NodeId>> orders;
  for (const auto& [root, set] : members) {
    if (set.size() < 2) continue;
    orders[root] = executionOrder(g, root, set);
    for (size_t i = 0; i < orders[root].size(); ++i) position[orders[root][i]] = static_cast<int>(i);
  }
  for (const EdgeDependence& d : rel.dependences) {
    if (!position.count(d.producer) || !position.count(d.consumer) || rootOf[d.producer] != rootOf[d.consumer]) continue;
    if (position[d.producer] < position[d.consumer] || !samePoint(ctx.get(), d)) continue;
    orders.erase(rootOf[d.producer]);
  }
  StatementClusters out;
  for (auto& [root, order] : orders) {
    StatementCluster c{root, std::move(order)};
    for (size_t i = 0; i < c.members.size(); ++i) {
      out.rootOf[c.members[i]] = root;
      out.position[c.members[i]] = static_cast<int>(i);
    }
    out.clusters.push_back(std::move(c));
  }
  return out;
}

std::string StatementClusters::contractionText(const Graph& g, const std::vector<std::string>& params) const {
  std::vector<std::string> pieces;
  for (const auto& [id, n] : g.nodes()) {
    auto it = rootOf.find(id);
    NodeId root = it == rootOf.end() ? id : it->second;
    pieces.push_back(tupleOf(n, statementName(id)) + " -> " + tupleOf(n, statementName(root)));
  }
  return withParams(params, pieces);
}

std::string StatementClusters::positionText(const Graph& g, const std::vector<std::string>& params) const {
  std::vector<std::string> pieces;
  for (const auto& [id, n] : g.nodes()) {
    auto it = position.find(id);
    pieces.push_back(tupleOf(n, statementName(id)) + " -> [" + std::to_string(it == position.end() ? 0 : it->second) +
                     "]");
  }
  return withParams(params, pieces);
}

std::string StatementClusters::str() const {
  std::string out;
  for (const StatementCluster& c : clusters) {
    out += "%" + std::to_string(c.root) + " <-";
    for (NodeId m : c.members)
      if (m != c.root) out += " %" + std::to_string(m);
    out += "\n";
  }
  return out;
}

}  // namespace tempo
