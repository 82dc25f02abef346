#include "tiling/TileRegion.h"

#include "ops/TypeInference.h"
#include "tiling/IndexBounds.h"

#include <limits>
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

  TiledRegionInfo run(const IndexExpr& maxSize) {
    IndexExpr blocks = IndexExpr::floorDiv(maxSize + (bs_ - 1), bs_);
    singleBlock_ = blocks == IndexExpr(1);
    blockDomain_ = r_.domain;
    std::string count;
    if (!singleBlock_) {  // one block holds every window: no block dimension at all
      ds_ = freshName(g_, "ds");
      count = freshName(g_, "DS");
      g_.dims.push_back({ds_, count});
      g_.derivedBounds[count] = blocks;
      g_.dimGuards[ds_] = Condition::of({Constraint{IndexExpr::dim(ds_) * bs_, Constraint::Rel::Le, w_.size() - 1}});
      blockDomain_.push_back(ds_);
      blockIndex_ = IndexExpr::dim(ds_);
    }
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
  NodeId binary(OpKind op, NodeId a, std::vector<IndexAtom> aAt, NodeId b, std::vector<IndexAtom> bAt) {
    NodeId n = add(op, {}, blockDomain_);
    read(n, a, std::move(aAt));
    read(n, b, std::move(bAt));
    inferTypeOf(n);
    return n;
  }

  /// The shift register of the producer of window `w`: at each point, the BS
  /// newest values of the producer along the window's dimension (the BS next
  /// ones for a suffix window), zeros where there are none.
  NodeId shiftRegister(const WindowRead& w) {
    auto key = std::make_pair(w.producer, w.atom);
    if (auto it = registers_.find(key); it != registers_.end()) return it->second;
    const Node p = g_.node(w.producer);
    const std::string dim = p.domain[w.atom];
    TensorType rows{p.type.dtype, p.type.shape};
    rows.shape.insert(rows.shape.begin(), IndexExpr(bs_));
    OpAttrs unsq;
    unsq.shape = p.type.shape;
    unsq.shape.insert(unsq.shape.begin(), IndexExpr(1));
    NodeId row = add(OpKind::Reshape, unsq, p.domain);
    read(row, w.producer, pointsOf(p.domain));
    inferTypeOf(row);
    if (bs_ == 1) return registers_[key] = row;
    NodeId reg = add(OpKind::Cat, {}, p.domain, rows);
    std::vector<IndexAtom> before = pointsOf(p.domain);
    before[w.atom] = IndexAtom::point(IndexExpr::dim(dim) + (w.newestAtEnd ? -1 : 1));
    Constraint exists = w.newestAtEnd ? atLeast(IndexExpr::dim(dim), 1)
                                      : atLeast(IndexExpr::bound(g_.boundOf(dim)) - 2 - IndexExpr::dim(dim), 0);
    NodeId previous = add(OpKind::Merge, {}, p.domain, rows);
    read(previous, reg, before, Condition::of({exists}));
    read(previous, zeros(rows), {});
    OpAttrs keep;
    keep.axis = 0;
    keep.start = w.newestAtEnd ? 1 : 0;
    keep.stop = w.newestAtEnd ? bs_ : bs_ - 1;
    NodeId kept = add(OpKind::Slice, keep, p.domain);
    read(kept, previous, pointsOf(p.domain));
    inferTypeOf(kept);
    read(reg, w.newestAtEnd ? kept : row, pointsOf(p.domain));
    read(reg, w.newestAtEnd ? row : kept, pointsOf(p.domain));
    return registers_[key] = reg;
  }
  NodeId zeros(const TensorType& type) {
    auto it = zeros_.find(type.str());
    if (it != zeros_.end()) return it->second;
    return zeros_[type.str()] = constant(0, type);
  }

  /// Block ds of window `w`: one point of the shift register, or zeros where
  /// the block is outside the window (never run under the guard of ds).
  NodeId block(const WindowRead& w) {
    NodeId reg = shiftRegister(w);
    const Edge& e = g_.edge(w.edge);
    std::vector<IndexAtom> at = e.index;
    IndexExpr step = blockIndex_ * bs_;
    at[w.atom] = IndexAtom::point(w.newestAtEnd ? w.hi - 1 - step : w.lo + step);
    TensorType type = g_.node(reg).type;
    if (singleBlock_) {  // the one block is always inside the window: read the register
      NodeId b = add(OpKind::Identity, {}, blockDomain_);
      read(b, reg, at);
      inferTypeOf(b);
      return b;
    }
    // The block is read where it lies in the window and where the window read
    // itself is defined (its other indices inside the producer's domain).
    std::vector<Constraint> live{atLeast(w.size() - 1 - step, 0)};
    const Node& p = g_.node(w.producer);
    for (size_t i = 0; i < at.size(); ++i) {
      if (static_cast<int>(i) == w.atom) continue;
      const IndexExpr& a = at[i].start;
      IndexExpr last = IndexExpr::bound(g_.boundOf(p.domain[i])) - 1;
      auto lowest = lowerBoundOverDims(a, g_);
      auto highest = upperBoundOverDims(a - last, g_);
      if (!(lowest && lowest->isConstant() && *lowest->constantValue() >= 0)) live.push_back(atLeast(a, 0));
      if (!(highest && highest->isConstant() && *highest->constantValue() <= 0)) live.push_back(atLeast(last - a, 0));
    }
    NodeId b = add(OpKind::Merge, {}, blockDomain_, type);
    read(b, reg, at, Condition::of(live));
    read(b, zeros(type), {});
    return b;
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
    IndexExpr step = blockIndex_ * bs_;
    IndexExpr first = w_.newestAtEnd ? w_.hi - bs_ - step : w_.lo + step;  // position of lane 0
    IndexExpr fromLane = w_.lo - first, toLane = w_.hi - first;
    auto fromMax = upperBoundOverDims(fromLane, g_);
    auto toMin = lowerBoundOverDims(toLane, g_);
    bool needFrom = !(fromMax && fromMax->isConstant() && *fromMax->constantValue() <= 0);
    bool needTo = !(toMin && toMin->isConstant() && *toMin->constantValue() >= bs_);
    NodeId lanes = laneIndices();
    std::vector<NodeId> limits;
    if (needFrom) {
      NodeId from = evalIndex(fromLane, dimsOf(fromLane));
      limits.push_back(binary(OpKind::Ge, lanes, {}, from, pointsOf(dimsOf(fromLane))));
    }
    if (needTo || limits.empty()) {
      NodeId to = evalIndex(toLane, dimsOf(toLane));
      limits.push_back(binary(OpKind::Lt, lanes, {}, to, pointsOf(dimsOf(toLane))));
    }
    mask_ = limits.size() == 1 ? limits[0]
                               : binary(OpKind::And, limits[0], pointsOf(blockDomain_), limits[1], pointsOf(blockDomain_));
  }

  /// The node of the tiled graph that stands for what `e` reads (read at the
  /// block domain's point): a block of a window, or a tiled carrier; -1 for
  /// a read from outside the region.
  NodeId tiledSource(const Edge& e) {
    for (const WindowRead& w : r_.windows)
      if (w.edge == e.id) return block(w);
    if (auto t = tiled_.find(e.producer); t != tiled_.end()) return t->second;
    return -1;
  }
  /// Reads `e` of an original region node from the tiled graph into `consumer`.
  void readTiled(NodeId consumer, const Edge& e) {
    NodeId source = tiledSource(e);
    if (source >= 0) return read(consumer, source, pointsOf(blockDomain_));
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

  /// where(mask, x, neutral) with the mask along `axis` of x.
  NodeId masked(NodeId x, int axis, double neutral) {
    const TensorType type = g_.node(x).type;
    NodeId m = mask_;
    if (type.rank() != 1) {
      OpAttrs shape;
      shape.shape.assign(type.rank(), IndexExpr(1));
      shape.shape[axis] = IndexExpr(bs_);
      m = add(OpKind::Reshape, shape, blockDomain_);
      read(m, mask_, pointsOf(blockDomain_));
      inferTypeOf(m);
    }
    NodeId fill = constant(neutral, TensorType{type.dtype, {}});
    NodeId w = add(OpKind::Where, {}, blockDomain_);
    read(w, m, pointsOf(blockDomain_));
    read(w, x, pointsOf(blockDomain_));
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
      read(partial, masked(tiledSource(*e), axis->second, neutral), pointsOf(blockDomain_));
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
    if (!singleBlock_) last.push_back(IndexAtom::point(IndexExpr::floorDiv(w_.size() - 1, bs_)));
    read(id, acc, last);
    change_.rewritten.insert(id);
  }

  /// acc[ds] = combine(acc[ds - 1], partial[ds]), from the neutral value.
  NodeId accumulate(NodeId partial, bool isMax, double neutral, const TensorType& type) {
    NodeId acc = add(isMax ? OpKind::Maximum : OpKind::Add, {}, blockDomain_, type);
    NodeId previous = add(OpKind::Merge, {}, blockDomain_, type);
    std::vector<IndexAtom> before = pointsOf(blockDomain_);
    before.back() = IndexAtom::point(IndexExpr::dim(ds_) - 1);
    read(previous, acc, before, Condition::of({atLeast(IndexExpr::dim(ds_), 1)}));
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
  IndexExpr blockIndex_ = 0;  ///< `ds`, or 0 for a single block
  bool singleBlock_ = false;  ///< one block holds every window: no accumulation over ds
  std::map<std::pair<NodeId, int>, NodeId> registers_;
  std::map<std::string, NodeId> zeros_;
  std::map<NodeId, NodeId> tiled_;
};

}  // namespace

TiledRegionInfo tileRegion(Graph& g, const WindowRegion& region, int64_t blockSize, const IndexExpr& maxSize,
                           GraphChange& change) {
  if (region.windows.empty() || blockSize < 1) throw std::invalid_argument("tileRegion: no window or block size < 1");
  return Tiler(g, region, blockSize, change).run(maxSize);
}

}  // namespace tempo
