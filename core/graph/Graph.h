// Graph: the symbolic dependence graph (SDG).
//
// Nodes are operations defined over a domain (an ordered tuple of dimensions,
// e.g. (b, t)); each node produces one value of a TensorType at every point
// of its domain. Edges go from a consumer's input slot to a producer and say
// which producer points the consumer reads: one IndexAtom per producer
// dimension — a point (`t - 1`) or a slice (`0:t + 1`, which prepends a
// spatial dimension of size `t + 1` to the value read) — plus a Condition over
// the consumer's domain saying when the edge is live. Every node keeps the
// source range it came from. Graphs are plain values: copying one is a
// snapshot (the pass stepper keeps one per pass). Ids are stable and never
// reused, so passes can remove nodes without renumbering.
#pragma once

#include "diag/Diagnostics.h"
#include "graph/Condition.h"
#include "ops/Op.h"
#include "types/TensorType.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

using NodeId = int;
using EdgeId = int;

/// Where a block read places its slice: lane 0 of a static block of `size`
/// lanes is position `first` of the producer dimension.
struct BlockLanes {
  IndexExpr first;
  int64_t size = 1;
  bool operator==(const BlockLanes&) const = default;
};

/// One index of a read, for one producer dimension: a point, a slice [start,
/// stop), or a *block*: a slice whose positions sit at lanes `start - first`,
/// ... of a static block of `block->size` lanes, the other lanes zero (static
/// tiling's reads of a window: the slice is the part of block ds inside the
/// window, so the dependence is exact while the value read has a static size).
struct IndexAtom {
  IndexExpr start;
  std::optional<IndexExpr> stop;  ///< set for a slice
  std::optional<BlockLanes> block;  ///< set for a block read (a slice placed in static lanes)

  static IndexAtom point(IndexExpr e) { return {std::move(e), std::nullopt, std::nullopt}; }
  static IndexAtom slice(IndexExpr lo, IndexExpr hi) { return {std::move(lo), std::move(hi), std::nullopt}; }
  /// Positions [lo, hi) placed in `size` lanes from position `first` (first <= lo, hi <= first + size where hi > lo).
  static IndexAtom blockOf(IndexExpr lo, IndexExpr hi, IndexExpr first, int64_t size) {
    return {std::move(lo), std::move(hi), BlockLanes{std::move(first), size}};
  }
  bool isSlice() const { return stop.has_value(); }
  bool isBlock() const { return block.has_value(); }
  /// The leading size the read gives its consumer: the slice's, or the block's lanes.
  IndexExpr size() const { return isBlock() ? IndexExpr(block->size) : isSlice() ? *stop - start : IndexExpr(1); }
  std::string str() const;  ///< `t - 1`, `0:t + 1` or `4*ds:min(4*ds + 4, t + 1) in 4*ds+:4`
  bool operator==(const IndexAtom&) const = default;
};

struct Node {
  NodeId id = -1;
  OpKind op = OpKind::Identity;
  OpAttrs attrs;
  std::vector<std::string> domain;  ///< dimension names, in declaration order
  TensorType type;
  SourceRange loc;
  std::string name;  ///< the program name it defines ("" for intermediates)
};

struct Edge {
  EdgeId id = -1;
  NodeId consumer = -1;
  int inputIndex = 0;  ///< slot of the consumer's input list
  NodeId producer = -1;
  std::vector<IndexAtom> index;  ///< one atom per producer domain dimension
  Condition condition = Condition::always();
  SourceRange loc;  ///< where the read is written (invalid if implicit)

  bool isIdentityRead(const std::vector<std::string>& producerDomain) const;
  /// Prints `%3[b, t - 1]` (`%3` for a read without atoms) and ` if cond`.
  std::string str() const;
};

struct DimDecl {
  std::string name;   ///< `t`
  std::string bound;  ///< `T`
};

struct GraphOutput {
  std::string name;
  NodeId node = -1;
  SourceRange loc;
  /// Set for the condition of `dim t < T until done` (its name is `done`): a bool output over
  /// `t` whose first t holding everywhere ends the dimension (docs/language.md, 4.13). Passes
  /// keep it like any output; the engines read it to stop.
  std::string untilDim = {};
};

/// A param that `optimize` trains along `dim`: `node` is the param over
/// (dim, its own dims) — its initialiser at dim == 0, else `update` one
/// iteration earlier — and `update` is the param after the optimiser step at
/// each iteration. Recorded by the front end; the ids refer to its graph
/// (passes keep the nodes alive through outputs, not through this record).
struct TrainedParam {
  std::string name;
  NodeId node = -1;
  NodeId update = -1;
  std::string dim;
};

class Graph {
public:
  std::string file;                          ///< the program file ("" if none)
  std::vector<DimDecl> dims;                 ///< declaration order
  std::map<std::string, int64_t> boundDefaults;  ///< from `set`
  /// Derived bounds: a bound defined by an index expression of other bounds
  /// (e.g. the block count `DS = floor((T + 7) / 8)` of static tiling). Never
  /// set by the user; resolved from the other bounds by `withDerivedBounds`.
  std::map<std::string, IndexExpr> derivedBounds;
  /// Guarded dimensions: a node whose domain has dimension `d` exists only at
  /// the points where `dimGuards[d]` holds (a condition over `d` and the
  /// node's other dimensions, e.g. static tiling's block dim `8*ds <= t`:
  /// only the blocks a step reads). Schedules run a node on its guarded
  /// domain; a reader must read it only there. A node whose domain lacks a
  /// dimension the guard names runs on the whole range of `d`.
  std::map<std::string, Condition> dimGuards;
  std::vector<GraphOutput> outputs;
  std::vector<TrainedParam> trainedParams;  ///< set by `optimize` (empty otherwise)

  NodeId addNode(Node node);  ///< assigns and returns a fresh id
  EdgeId addEdge(Edge edge);  ///< assigns and returns a fresh id
  void removeNode(NodeId id); ///< also removes its edges (both directions)
  void removeEdge(EdgeId id);

  bool hasNode(NodeId id) const { return nodes_.count(id) != 0; }
  const Node& node(NodeId id) const;
  Node& node(NodeId id);
  const Edge& edge(EdgeId id) const;
  Edge& edge(EdgeId id);
  const std::map<NodeId, Node>& nodes() const { return nodes_; }
  const std::map<EdgeId, Edge>& edges() const { return edges_; }

  /// Edges into `consumer`, ordered by inputIndex (then id); from an index
  /// by consumer, so an edge's consumer must not change once it is added
  /// (its producer, index and condition may).
  std::vector<const Edge*> inputs(NodeId consumer) const;
  /// "" when the index by consumer agrees with the edges; otherwise what
  /// disagrees (validateGraph reports it).
  std::string checkInputIndex() const;
  /// Edges out of `producer` (its readers), ordered by id.
  std::vector<const Edge*> users(NodeId producer) const;

  /// The bound name of a dimension ("" if unknown).
  std::string boundOf(const std::string& dim) const;
  std::vector<std::string> boundNames() const;
  bool isDerivedBound(const std::string& name) const { return derivedBounds.count(name) != 0; }
  /// `env` with every derived bound evaluated from the bounds it names (a
  /// derived bound may name an earlier derived one); throws std::out_of_range
  /// when a bound it needs has no value.
  SymbolEnv withDerivedBounds(SymbolEnv env) const;
  /// Position of `dim` in the declaration order (-1 if unknown).
  int dimIndex(const std::string& dim) const;
  /// The type a consumer sees through `e`: the slice sizes of the edge's
  /// slice atoms (in order) prepended to the producer's shape.
  TensorType readType(const Edge& e) const;

private:
  void forgetInput(const Edge& e);  ///< drops `e` from the index by consumer

  std::map<NodeId, Node> nodes_;
  std::map<EdgeId, Edge> edges_;
  std::map<NodeId, std::vector<EdgeId>> inputsOf_;  ///< consumer -> its edges, in order of addition
  NodeId nextNode_ = 0;
  EdgeId nextEdge_ = 0;
};

}  // namespace tempo
