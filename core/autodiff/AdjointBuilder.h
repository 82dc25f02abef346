// AdjointBuilder: adds typed SDG nodes over one domain, for the backward graph.
//
// Every backward node is an ordinary SDG node: an op over a domain with input
// edges. The gradient rules and the temporal-read adjoint build many small
// chains of them (mul, where, reduce_sum, pad-by-cat, ...) over the domain of
// the node whose gradient they compute. This builder fixes that domain and the
// source location once, infers every result type with the same TypeInference
// the front end uses (a failure is an internal error, reported as
// AutodiffError), and reads other nodes either at the identity point of the
// domain or through explicit index atoms. It also offers the few composite
// helpers every rule needs: a zero tensor, "sum g back to a broadcast operand's
// shape", padding along an axis, and a guarded value (`merge(cond: v, zero)`).
#pragma once

#include "graph/Graph.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace tempo {

class AutodiffError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// One input of a node being built: a producer read through `index` atoms
/// (empty = the identity read over the producer's domain) under `condition`.
struct AdjointInput {
  NodeId node = -1;
  std::vector<IndexAtom> index;
  bool identity = true;
  Condition condition = Condition::always();

  static AdjointInput at(NodeId n) { return {n, {}, true, Condition::always()}; }
  static AdjointInput through(NodeId n, std::vector<IndexAtom> atoms, Condition c = Condition::always()) {
    return {n, std::move(atoms), false, std::move(c)};
  }
};

class AdjointBuilder {
public:
  AdjointBuilder(Graph& g, std::vector<std::string> domain, SourceRange loc)
      : g_(g), domain_(std::move(domain)), loc_(loc) {}

  Graph& graph() { return g_; }
  const std::vector<std::string>& domain() const { return domain_; }
  const TensorType& typeOf(NodeId n) const { return g_.node(n).type; }

  /// A node `op(inputs)` whose type is inferred from the inputs' read types.
  NodeId op(OpKind op, std::vector<AdjointInput> inputs, OpAttrs attrs = {});
  /// A node with an explicit type (merge, identity placeholders).
  NodeId typed(OpKind op, const TensorType& type, std::vector<AdjointInput> inputs, OpAttrs attrs = {});
  /// Adds the edge `consumer.inputs[slot] = in` (for placeholders filled later).
  void connect(NodeId consumer, int slot, const AdjointInput& in);

  NodeId constant(const TensorType& type, double value);
  NodeId zeros(const TensorType& type) { return constant(type, 0.0); }
  NodeId scalar(DType dtype, double value) { return constant(TensorType{dtype, {}}, value); }

  NodeId unary(OpKind k, NodeId a) { return op(k, {AdjointInput::at(a)}); }
  NodeId binary(OpKind k, NodeId a, NodeId b) { return op(k, {AdjointInput::at(a), AdjointInput::at(b)}); }
  NodeId where(NodeId cond, NodeId a, NodeId b);
  NodeId reshape(NodeId a, std::vector<IndexExpr> shape);
  NodeId expand(NodeId a, std::vector<IndexExpr> shape);
  NodeId permute(NodeId a, std::vector<int64_t> perm);
  NodeId reduceSum(NodeId a, std::vector<int64_t> axes, bool keepDims);
  NodeId slice(NodeId a, int64_t axis, IndexExpr start, IndexExpr stop);
  /// `a` padded with zeros along `axis`: `before` zeros in front, `after` behind.
  NodeId pad(NodeId a, int64_t axis, IndexExpr before, IndexExpr after);
  /// A tensor of size `extent` along `axis`, zero except for `a`'s elements
  /// at [offset, offset + size). Well formed at every point, also where the
  /// offset leaves [0, extent] (it is clamped there): `a` is padded with
  /// `extent` zeros on both sides and a window of `extent` is sliced out.
  NodeId placeAt(NodeId a, int64_t axis, const IndexExpr& offset, const IndexExpr& extent);
  /// Sums `g` (a broadcast result) back to `shape`, the shape of one operand.
  NodeId sumToShape(NodeId g, const std::vector<IndexExpr>& shape);
  /// `v` where `cond` holds, zeros elsewhere (just `v` when cond is always true).
  NodeId guarded(NodeId v, const Condition& cond);
  /// The value read through `in` where its condition holds, zeros elsewhere: a merge whose
  /// branch reads only there (an identity read when the condition is always true).
  NodeId guardedRead(AdjointInput in);

private:
  std::vector<IndexAtom> identityAtoms(NodeId producer) const;
  TensorType readType(const AdjointInput& in) const;

  Graph& g_;
  std::vector<std::string> domain_;
  SourceRange loc_;
};

/// True when `c` may carry a gradient (a floating-point dtype).
bool isDifferentiableType(const TensorType& t);

}  // namespace tempo
