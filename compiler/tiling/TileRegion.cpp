#include "tiling/TileRegion.h"

#include "ops/TypeInference.h"
#include "tiling/IndexBounds.h"

#include <limits>
#include <optional>
#include <stdexcept>

namespace tempo {

namespace {

std::vector<IndexAtom> pointsOf(const std::vector<std::string>& dims) {
  std::vector<IndexAtom> out;
  for (const std::string& d : dims) out.push_back(IndexAtom::point(IndexExpr::dim(d)));
  return out;
}

bool nameTaken(const Graph& g, const std::string& name) {
  for (const DimDecl& d : g.dims)
    if (d.name == name || d.bound == name) return true;
  return g.boundDefaults.count(name) || g.derivedBounds.count(name);
}

std::string freshName(const Graph& g, const std::string& base) {
  if (!nameTaken(g, base)) return base;
  for (int i = 2;; ++i)
    if (!nameTaken(g, base + std::to_string(i))) return base + std::to_string(i);
}

Constraint atLeast(const IndexExpr& e, int64_t k) { return Constraint{e, Constraint::Rel::Ge, IndexExpr(k)}; }

class Tiler {
public:
  Tiler(Graph& g, const WindowRegion& r, int64_t bs, GraphChange& change)
      : g_(g), r_(r), bs_(bs), change_(change), w_(r.windows.front()), loc_(g.node(w_.consumer).loc) {}

  TiledRegionInfo run(const IndexExpr& maxSize, const IndexExpr& maxEnd) {
    IndexExpr blocks = IndexExpr::floorDiv(maxSize + (bs_ - 1), bs_);
    singleBlock_ = blocks == IndexExpr(1);
    blockDomain_ = r_.domain;
    std::string count;
    if (singleBlock_) {  // one block holds every window: no block dimension, lanes follow the window
      firstLane_ = w_.newestAtEnd ? w_.hi - bs_ : w_.lo;
    } else {  // block ds holds positions [BS*ds, BS*ds + BS) of the producers
      ds_ = freshName(g_, "ds");
      count = freshName(g_, "DS");
      g_.dims.push_back({ds_, count});
      g_.derivedBounds[count] = IndexExpr::floorDiv(maxEnd + (bs_ - 1), bs_);
      blockIndex_ = IndexExpr::dim(ds_);
      firstLane_ = blockIndex_ * bs_;
      // Only the blocks that meet the window exist: BS*ds < hi and BS*ds + BS > lo.
      std::vector<Constraint> meets{Constraint{firstLane_, Constraint::Rel::Le, w_.hi - 1}};
      if (!alwaysAtMost(w_.lo, 0)) meets.push_back(Constraint{firstLane_ + (bs_ - 1), Constraint::Rel::Ge, w_.lo});
      g_.dimGuards[ds_] = Condition::of(meets);
      blockDomain_.push_back(ds_);
    }
    clipBlock();
    buildMask();
    for (NodeId c : r_.carriers) tileCarrier(c);
    for (NodeId e : r_.eliminations) tileElimination(e);
    for (NodeId c : r_.carriers) {
      g_.removeNode(c);
      change_.removed.insert(c);
    }
    return {ds_, count, bs_};
  }

private:
  NodeId add(OpKind op, OpAttrs attrs, std::vector<std::string> domain, TensorType type = {}) {
    Node n;
    n.op = op;
    n.attrs = std::move(attrs);
    n.domain = std::move(domain);
    n.type = std::move(type);
    n.loc = loc_;
    NodeId id = g_.addNode(std::move(n));
    change_.added.insert(id);
    return id;
  }
  void read(NodeId consumer, NodeId producer, std::vector<IndexAtom> atoms, Condition c = Condition::always()) {
    Edge e;
    e.consumer = consumer;
    e.producer = producer;
    e.inputIndex = static_cast<int>(g_.inputs(consumer).size());
    e.index = std::move(atoms);
    e.condition = std::move(c);
    g_.addEdge(std::move(e));
  }
  /// Sets the type of `id` from its inputs (the typing rules of the front end).
  void inferTypeOf(NodeId id) {
    std::vector<TensorType> in;
    for (const Edge* e : g_.inputs(id)) in.push_back(g_.readType(*e));
    Node& n = g_.node(id);
    TypeResult t = inferType(n.op, n.attrs, in);
    if (auto* msg = std::get_if<std::string>(&t))
      throw std::logic_error("static tiling built an ill-typed " + std::string(opName(n.op)) + ": " + *msg);
    n.type = std::get<TensorType>(t);
  }
  NodeId constant(double value, TensorType type) {
    OpAttrs a;
    a.value = value;
    return add(OpKind::Constant, a, {}, std::move(type));
  }
  NodeId evalIndex(const IndexExpr& e, std::vector<std::string> domain) {
    OpAttrs a;
    a.index = e;
    return add(OpKind::EvalIndex, a, std::move(domain), TensorType{DType::I64, {}});
  }
  NodeId binary(OpKind op, NodeId a, std::vector<IndexAtom> aAt, NodeId b, std::vector<IndexAtom> bAt,
                std::vector<std::string> domain) {
    NodeId n = add(op, {}, std::move(domain));
    read(n, a, std::move(aAt));
    read(n, b, std::move(bAt));
    inferTypeOf(n);
    return n;
  }

  bool alwaysAtMost(const IndexExpr& e, int64_t k) const {
    auto hi = upperBoundOverDims(e, g_);
    return hi && hi->isConstant() && *hi->constantValue() <= k;
  }
  bool alwaysAtLeast(const IndexExpr& e, int64_t k) const {
    auto lo = lowerBoundOverDims(e, g_);
    return lo && lo->isConstant() && *lo->constantValue() >= k;
  }

  /// The part [from, to) of the block that lies in the window, with the
  /// min / max left out where one side always wins.
  void clipBlock() {
    IndexExpr end = firstLane_ + bs_;
    blockFrom_ = alwaysAtMost(w_.lo - firstLane_, 0)    ? firstLane_
                 : alwaysAtLeast(w_.lo - firstLane_, 0) ? w_.lo
                                                        : IndexExpr::max(firstLane_, w_.lo);
    blockTo_ = alwaysAtLeast(w_.hi - end, 0) ? end : alwaysAtMost(w_.hi - end, 0) ? w_.hi : IndexExpr::min(w_.hi, end);
  }

  /// The atoms of the block read of window `w`: its other atoms unchanged, the
  /// window atom the part of the block inside the window, in BS static lanes.
  std::vector<IndexAtom> blockAtoms(const WindowRead& w) const {
    std::vector<IndexAtom> at = g_.edge(w.edge).index;
    at[w.atom] = IndexAtom::blockOf(blockFrom_, blockTo_, firstLane_, bs_);
    return at;
  }

  /// The lanes 0, 1, ..., BS-1 (i64[BS]) from constants by doubling
  /// (`cat(l, l + n)`): nodes without a domain, computed once before the loops.
  NodeId laneIndices() {
    OpAttrs none;
    NodeId lanes = constant(0, TensorType{DType::I64, {IndexExpr(1)}});
    int64_t n = 1;
    for (; n < bs_; n *= 2) {
      NodeId shifted = add(OpKind::Add, none, {});
      read(shifted, lanes, {});
      read(shifted, constant(static_cast<double>(n), TensorType{DType::I64, {}}), {});
      inferTypeOf(shifted);
      NodeId both = add(OpKind::Cat, none, {});
      read(both, lanes, {});
      read(both, shifted, {});
      inferTypeOf(both);
      lanes = both;
    }
    if (n == bs_) return lanes;
    OpAttrs first;
    first.axis = 0;
    first.start = 0;
    first.stop = bs_;
    NodeId cut = add(OpKind::Slice, first, {});
    read(cut, lanes, {});
    inferTypeOf(cut);
    return cut;
  }

  /// The dimensions of the block domain that `e` names, in the block domain's order.
  std::vector<std::string> dimsOf(const IndexExpr& e) const {
    std::vector<std::string> out;
    for (const std::string& d : blockDomain_)
      if (e.dependsOn(d)) out.push_back(d);
    return out;
  }

  /// mask[ds] (bool[BS]): which positions of block ds lie in the window,
  /// `from <= lane < to`; a limit that holds for every lane is left out
  /// (a block of a growing window never passes its end, one of a suffix
  /// window never starts before it).
  void buildMask() {
    IndexExpr fromLane = w_.lo - firstLane_, toLane = w_.hi - firstLane_;
    bool needFrom = !alwaysAtMost(fromLane, 0);
    bool needTo = !alwaysAtLeast(toLane, bs_);
    NodeId lanes = laneIndices();
    // The mask lives over the dims its limits name only (not a batch or layer
    // dim of the region): fewer points to compute and to keep.
    bool useTo = needTo || !needFrom;
    maskDomain_.clear();
    for (const std::string& d : blockDomain_)
      if ((needFrom && fromLane.dependsOn(d)) || (useTo && toLane.dependsOn(d))) maskDomain_.push_back(d);
    std::vector<NodeId> limits;
    if (needFrom) {
      NodeId from = evalIndex(fromLane, dimsOf(fromLane));
      limits.push_back(binary(OpKind::Ge, lanes, {}, from, pointsOf(dimsOf(fromLane)), maskDomain_));
    }
    if (useTo) {
      NodeId to = evalIndex(toLane, dimsOf(toLane));
      limits.push_back(binary(OpKind::Lt, lanes, {}, to, pointsOf(dimsOf(toLane)), maskDomain_));
    }
    mask_ = limits.size() == 1 ? limits[0]
                               : binary(OpKind::And, limits[0], pointsOf(maskDomain_), limits[1],
                                        pointsOf(maskDomain_), maskDomain_);
  }

  /// What the tiled graph reads for `e` of an original region node: a block
  /// of a window (the window's producer through block atoms), or a tiled
  /// carrier at the block domain's point; nullopt for a read from outside the region.
  struct Source {
    NodeId node = -1;
    std::vector<IndexAtom> at;
  };
  std::optional<Source> tiledSource(const Edge& e) const {
    for (const WindowRead& w : r_.windows)
      if (w.edge == e.id) return Source{w.producer, blockAtoms(w)};
    if (auto t = tiled_.find(e.producer); t != tiled_.end()) return Source{t->second, pointsOf(blockDomain_)};
    return std::nullopt;
  }
  /// Reads `e` of an original region node from the tiled graph into `consumer`.
  void readTiled(NodeId consumer, const Edge& e) {
    if (auto source = tiledSource(e)) return read(consumer, source->node, source->at);
    read(consumer, e.producer, e.index, e.condition);
  }

  void tileCarrier(NodeId id) {
    const Node n = g_.node(id);
    OpAttrs attrs = n.attrs;
    if (n.op == OpKind::Reshape || n.op == OpKind::Expand) attrs.shape.at(r_.axisOf.at(id)) = IndexExpr(bs_);
    NodeId t = add(n.op, attrs, blockDomain_);
    for (const Edge* e : g_.inputs(id)) readTiled(t, *e);
    inferTypeOf(t);
    tiled_[id] = t;
  }

  /// The lanes of `x` outside the window hold 0: a block read (its lanes outside the window are
  /// zeros), or a tiled permute or reshape of one, which moves those zeros without changing them.
  bool zeroOutsideTheWindow(const Source& x) const {
    if (std::any_of(x.at.begin(), x.at.end(), [](const IndexAtom& a) { return a.isBlock(); })) return true;
    const Node& n = g_.node(x.node);
    const bool carrier = std::any_of(tiled_.begin(), tiled_.end(), [&](const auto& t) { return t.second == x.node; });
    if (!carrier || (n.op != OpKind::Permute && n.op != OpKind::Reshape)) return false;
    std::vector<const Edge*> in = g_.inputs(x.node);
    return in.size() == 1 && in.front()->condition.isAlways() &&
           zeroOutsideTheWindow(Source{in.front()->producer, in.front()->index});
  }

  /// where(mask, x, neutral) with the mask along `axis` of x.
  NodeId masked(const Source& x, int axis, double neutral) {
    TensorType type = g_.node(x.node).type;
    for (const IndexAtom& a : x.at)
      if (a.isSlice()) type.shape.insert(type.shape.begin(), a.size());
    NodeId m = mask_;
    if (type.rank() != 1) {  // the mask along `axis` of a value of this rank: one node per shape
      OpAttrs shape;
      shape.shape.assign(type.rank(), IndexExpr(1));
      shape.shape[axis] = IndexExpr(bs_);
      auto key = std::make_pair(type.rank(), axis);
      if (auto it = maskShapes_.find(key); it != maskShapes_.end()) {
        m = it->second;
      } else {
        m = maskShapes_[key] = add(OpKind::Reshape, shape, maskDomain_);
        read(m, mask_, pointsOf(maskDomain_));
        inferTypeOf(m);
      }
    }
    NodeId fill = constant(neutral, TensorType{type.dtype, {}});
    NodeId w = add(OpKind::Where, {}, blockDomain_);
    read(w, m, pointsOf(maskDomain_));
    read(w, x.node, x.at);
    read(w, fill, {});
    inferTypeOf(w);
    return w;
  }

  void tileElimination(NodeId id) {
    const Node n = g_.node(id);
    const bool isMax = n.op == OpKind::ReduceMax;
    const double neutral = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
    const std::map<int, int>& axes = r_.inputAxes.at(id);
    NodeId partial = add(n.op, n.attrs, blockDomain_);
    for (const Edge* e : g_.inputs(id)) {
      auto axis = axes.find(e->inputIndex);
      if (axis == axes.end()) {
        readTiled(partial, *e);
        continue;
      }
      const Source x = *tiledSource(*e);
      if (neutral == 0 && zeroOutsideTheWindow(x)) read(partial, x.node, x.at);  // a block of the KV cache: no mask
      else read(partial, masked(x, axis->second, neutral), pointsOf(blockDomain_));
    }
    inferTypeOf(partial);
    if (!(g_.node(partial).type == n.type))
      throw std::logic_error("static tiling: the partial result of %" + std::to_string(id) + " has type " +
                             g_.node(partial).type.str() + ", not " + n.type.str());
    NodeId acc = singleBlock_ ? partial : accumulate(partial, isMax, neutral, n.type);
    for (const Edge* e : g_.inputs(id)) g_.removeEdge(e->id);
    Node& final = g_.node(id);
    final.op = OpKind::Identity;
    final.attrs = {};
    std::vector<IndexAtom> last = pointsOf(r_.domain);
    if (!singleBlock_) last.push_back(IndexAtom::point(IndexExpr::floorDiv(w_.hi - 1, bs_)));
    read(id, acc, last);
    change_.rewritten.insert(id);
  }

  /// acc[ds] = combine(acc[ds - 1], partial[ds]), from the neutral value at
  /// the first block that meets the window.
  NodeId accumulate(NodeId partial, bool isMax, double neutral, const TensorType& type) {
    NodeId acc = add(isMax ? OpKind::Maximum : OpKind::Add, {}, blockDomain_, type);
    NodeId previous = add(OpKind::Merge, {}, blockDomain_, type);
    std::vector<IndexAtom> before = pointsOf(blockDomain_);
    before.back() = IndexAtom::point(IndexExpr::dim(ds_) - 1);
    // Block ds - 1 meets the window when BS*ds > lo (ds >= 1 for a window from 0).
    Constraint earlier = alwaysAtMost(w_.lo, 0) ? atLeast(IndexExpr::dim(ds_), 1)
                                                : atLeast(IndexExpr::dim(ds_) * bs_ - 1 - w_.lo, 0);
    read(previous, acc, before, Condition::of({earlier}));
    read(previous, constant(neutral, type), {});
    read(acc, previous, pointsOf(blockDomain_));
    read(acc, partial, pointsOf(blockDomain_));
    return acc;
  }

  Graph& g_;
  const WindowRegion& r_;
  int64_t bs_;
  GraphChange& change_;
  WindowRead w_;
  SourceRange loc_;
  std::string ds_;
  std::vector<std::string> blockDomain_;
  NodeId mask_ = -1;
  std::vector<std::string> maskDomain_;  ///< the block domain's dims the mask depends on
  IndexExpr blockIndex_ = 0;  ///< `ds`, or 0 for a single block
  IndexExpr firstLane_ = 0;   ///< the position of lane 0: BS*ds, or the window's start for a single block
  IndexExpr blockFrom_ = 0, blockTo_ = 0;  ///< the part of the block inside the window
  bool singleBlock_ = false;  ///< one block holds every window: no accumulation over ds
  std::map<NodeId, NodeId> tiled_;
  std::map<std::pair<int, int>, NodeId> maskShapes_;  ///< (rank, axis) -> the mask reshaped to it
};

}  // namespace

TiledRegionInfo tileRegion(Graph& g, const WindowRegion& region, int64_t blockSize, const IndexExpr& maxSize,
                           GraphChange& change) {
  if (region.windows.empty() || blockSize < 1) throw std::invalid_argument("tileRegion: no window or block size < 1");
  auto maxEnd = upperBoundOverDims(region.windows.front().hi, g);
  if (!maxEnd || maxEnd->dependsOnKind(SymbolKind::Dim))
    throw std::invalid_argument("tileRegion: the window's end has no upper bound of bounds only");
  return Tiler(g, region, blockSize, change).run(maxSize, *maxEnd);
}

}  // namespace tempo
