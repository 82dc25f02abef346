#include "passes/BatchedOps.h"

#include "ops/TypeInference.h"
#include "passes/BatchAdapters.h"
#include "passes/GraphRewrite.h"

#include <stdexcept>

namespace tempo {

namespace {

struct Operand {
  EdgeId edge;
  bool batched;
  int rank;  ///< rank without the batch axis
};

class NodeBatcher {
public:
  NodeBatcher(Graph& g, NodeId id, const IndexExpr& batch, const std::map<EdgeId, bool>& batched,
              GraphChange& change)
      : g_(g), batch_(batch), change_(change) {
    for (const Edge* e : g.inputs(id)) {
      bool b = batched.at(e->id);
      operands_.push_back({e->id, b, g.readType(*e).rank() - (b ? 1 : 0)});
    }
  }

  /// Expands an unbatched operand to [batch, ...].
  void expand(Operand& o) {
    std::vector<IndexExpr> shape = g_.readType(g_.edge(o.edge)).shape;
    shape.insert(shape.begin(), batch_);
    insertAdapter(g_, o.edge, OpKind::Expand, targetShape(shape), change_);
    o.batched = true;
  }
  void expandAll() {
    for (Operand& o : operands_)
      if (!o.batched) expand(o);
  }
  /// Reshapes a batched operand [batch, s...] to [batch, 1 x ones, s...].
  void insertUnitAxes(Operand& o, int ones, int at) {
    if (ones <= 0) return;
    std::vector<IndexExpr> shape = g_.readType(g_.edge(o.edge)).shape;
    shape.insert(shape.begin() + at, static_cast<size_t>(ones), IndexExpr(1));
    insertAdapter(g_, o.edge, OpKind::Reshape, targetShape(shape), change_);
    o.rank += ones;
  }

  /// Gives batched operands of lower rank size-1 axes after the batch axis.
  void padToRank(int resultRank) {
    for (Operand& o : operands_)
      if (o.batched) insertUnitAxes(o, resultRank - o.rank, 1);
  }

  void elementwise(int resultRank) {
    bool any = false;
    for (const Operand& o : operands_) any |= o.batched;
    if (!any) expand(operands_.front());
    padToRank(resultRank);
  }

  /// True when NumPy matmul of the operands as they are gives [batch] + result.
  bool matmulBatchesDirectly() const {
    const Operand &a = operands_[0], &b = operands_[1];
    if (a.batched && b.batched) return a.rank == b.rank && a.rank >= 2;
    if (a.batched) return a.rank == 1 ? b.rank <= 2 : b.rank <= a.rank;
    return b.rank >= 2 && (a.rank == 1 || a.rank <= b.rank);
  }

  /// Makes the operands batch correctly; returns true when the product needs
  /// a reshape afterwards (a batched vector became a matrix).
  bool matmul() {
    if (!operands_[0].batched && !operands_[1].batched) expand(operands_[0]);
    if (matmulBatchesDirectly()) return false;
    Operand &a = operands_[0], &b = operands_[1];
    auto batchRank = [](const Operand& o) { return o.rank >= 2 ? o.rank - 2 : 0; };
    int target = std::max(batchRank(a), batchRank(b));
    bool reshapeAfter = false;
    for (int side = 0; side < 2; ++side) {
      Operand& o = side == 0 ? a : b;
      if (!o.batched) continue;
      std::vector<IndexExpr> shape = g_.readType(g_.edge(o.edge)).shape;
      if (o.rank == 1) {
        shape.insert(side == 0 ? shape.end() - 1 : shape.end(), IndexExpr(1));
        o.rank = 2;
        reshapeAfter = true;
      }
      int ones = target - (o.rank - 2);
      shape.insert(shape.begin() + 1, static_cast<size_t>(std::max(ones, 0)), IndexExpr(1));
      o.rank += std::max(ones, 0);
      if (!(shape == g_.readType(g_.edge(o.edge)).shape))
        insertAdapter(g_, o.edge, OpKind::Reshape, targetShape(shape), change_);
    }
    return reshapeAfter;
  }

private:
  Graph& g_;
  IndexExpr batch_;
  GraphChange& change_;
  std::vector<Operand> operands_;
};

TensorType inferredType(const Graph& g, const Node& n) {
  std::vector<TensorType> in;
  for (const Edge* e : g.inputs(n.id)) in.push_back(g.readType(*e));
  TypeResult r = inferType(n.op, n.attrs, in);
  if (auto* message = std::get_if<std::string>(&r))
    throw std::logic_error("vectorising %" + std::to_string(n.id) + " (" + std::string(opName(n.op)) + "): " + *message);
  return std::get<TensorType>(r);
}

/// Adds a reshape of `id` to `type` and makes every reader of `id` read it instead.
void reshapeReaders(Graph& g, NodeId id, const TensorType& type, GraphChange& change) {
  Node r;
  r.op = OpKind::Reshape;
  r.attrs = targetShape(type.shape);
  r.domain = g.node(id).domain;
  r.type = type;
  r.loc = g.node(id).loc;
  NodeId rid = g.addNode(r);
  redirectUsers(g, id, rid);
  Edge read;
  read.consumer = rid;
  read.producer = id;
  read.index = identityAtoms(r.domain);
  g.addEdge(read);
  change.added.insert(rid);
}

}  // namespace

void batchNode(Graph& g, NodeId id, const IndexExpr& batch, const TensorType& unbatched,
               const std::map<EdgeId, bool>& batched, GraphChange& change) {
  NodeBatcher batcher(g, id, batch, batched, change);
  Node& n = g.node(id);
  OpAttrs& a = n.attrs;
  bool reshapeAfter = false;
  switch (opClass(n.op)) {
    case OpClass::Unary:
    case OpClass::Binary:
    case OpClass::Ternary:
    case OpClass::Cast:
    case OpClass::Identity:
    // A fused node runs a chain of elementwise steps that broadcast like
    // NumPy; padding every batched input to the result's rank behind the
    // batch axis lines it up in every step, so it batches like one elementwise
    // op. (The default pipeline fuses after vectorising; this is for a
    // pipeline that fuses first.)
    case OpClass::Fused: batcher.elementwise(unbatched.rank()); break;
    case OpClass::MatMul: reshapeAfter = batcher.matmul(); break;
    case OpClass::Reduce:
      for (int64_t& axis : a.axes) ++axis;
      batcher.expandAll();
      break;
    case OpClass::Movement:
      batcher.expandAll();
      if (n.op == OpKind::Expand) batcher.padToRank(static_cast<int>(a.shape.size()));
      if (n.op == OpKind::Permute) {
        for (int64_t& p : a.perm) ++p;
        a.perm.insert(a.perm.begin(), 0);
      } else if (n.op == OpKind::Reshape || n.op == OpKind::Expand) {
        a.shape.insert(a.shape.begin(), batch);
      } else {
        ++a.axis;  // Slice, Cat
      }
      break;
    case OpClass::Merge: batcher.expandAll(); break;
    case OpClass::Source: throw std::logic_error("vectorisation: a source has no batched form");
    case OpClass::Indexed:
      // One id per position of a row (take_along, scatter_along_add) and argtopk batch behind a
      // leading axis like a reduction; gather's and scatter_add's ids pick whole slices and do not.
      if (n.op == OpKind::Gather || n.op == OpKind::ScatterAdd)
        throw std::logic_error("vectorisation: a gather or scatter-add has no batched form");
      batcher.expandAll();
      ++a.axis;
      if (n.op == OpKind::ScatterAlongAdd) a.shape.insert(a.shape.begin(), batch);
      break;
  }
  change.rewritten.insert(id);
  TensorType want = unbatched;
  want.shape.insert(want.shape.begin(), batch);
  TensorType got = inferredType(g, g.node(id));
  if (got == want) return;
  if (!reshapeAfter)
    throw std::logic_error("vectorising %" + std::to_string(id) + ": batched type " + got.str() + ", expected " +
                           want.str());
  g.node(id).type = got;
  reshapeReaders(g, id, want, change);
}

}  // namespace tempo
