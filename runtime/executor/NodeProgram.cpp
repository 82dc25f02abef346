#include "executor/NodeProgram.h"

#include "memory/BufferSharing.h"

#include "executor/ExecError.h"
#include "executor/NativeCall.h"
#include "kernels/cpu/CpuKernels.h"
#include "tensor/LaneStack.h"

#include <algorithm>

namespace tempo {

namespace {

bool usesPointAttrs(OpKind op) { return op == OpKind::Slice || op == OpKind::Reshape || op == OpKind::Expand; }

}  // namespace

std::string nodeLabel(const Node& n) {
  std::string s = "%" + std::to_string(n.id);
  if (!n.name.empty()) s += " '" + n.name + "'";
  return s + " (" + std::string(opName(n.op)) + ")";
}

NodeProgram::NodeProgram(const Graph& g, const Node& n, const SymbolEnv& bounds, const cpu::KernelOptions& kernels)
    : graph_(&g), node_(&n), bounds_(bounds), kernels_(kernels) {
  SlotLayout layout;
  for (const auto& [name, value] : bounds) slots_.push_back(value), layout.add(name);
  firstDimSlot_ = static_cast<int>(layout.size());
  for (const std::string& dim : n.domain) {
    if (layout.find(dim) >= 0) throw ExecError(nodeLabel(n) + ": dimension '" + dim + "' appears twice", n.id);
    layout.add(dim);
    slots_.push_back(0);
    std::string bound = g.boundOf(dim);
    auto it = bounds.find(bound);
    if (bound.empty() || it == bounds.end())
      throw ExecError(nodeLabel(n) + ": no value for the bound of dimension '" + dim + "'", n.id);
    domainBounds_.push_back(it->second);
  }
  std::string where = "node " + nodeLabel(n);
  for (const IndexExpr& s : n.type.shape) shape_.emplace_back(s, layout, where + " shape");
  if (usesPointAttrs(n.op)) {
    attrsHere_ = n.attrs;
    attrStart_ = CompiledIndex(n.attrs.start, layout, where + " attribute");
    attrStop_ = CompiledIndex(n.attrs.stop, layout, where + " attribute");
    for (const IndexExpr& s : n.attrs.shape) attrShape_.emplace_back(s, layout, where + " attribute");
  }
  if (n.op == OpKind::EvalIndex) {
    if (!n.attrs.index) throw ExecError(where + ": eval_index without an index expression", n.id);
    evalIndex_ = CompiledIndex(*n.attrs.index, layout, where + " eval_index");
  }
  arraySource_ = isWholeArraySource(n.op);
  isSource_ = opClass(n.op) == OpClass::Source;
  if (isSource_) return;
  takesBlocksAsStored_ = makesFreshValue(n);
  copiesSourceWindows_ = keepsItsOwnValues(g, n);
  for (const Edge* e : g.inputs(n.id)) {
    const Node& p = g.node(e->producer);
    if (e->index.size() != p.domain.size())
      throw ExecError(where + ": input " + e->str() + " has " + std::to_string(e->index.size()) +
                          " index atoms but " + nodeLabel(p) + " has " + std::to_string(p.domain.size()) + " dims",
                      n.id);
    Input in;
    in.edge = e;
    in.producer = &p;
    in.fromSourceArray = isWholeArraySource(p.op);
    std::string what = where + " input " + e->str();
    for (size_t i = 0; i < e->index.size(); ++i) {
      const IndexAtom& a = e->index[i];
      in.lo.emplace_back(a.start, layout, what);
      in.hi.push_back(a.isSlice() ? CompiledIndex(*a.stop, layout, what) : CompiledIndex());
      in.isSlice.push_back(a.isSlice());
      if (a.isBlock()) {
        int slices = 0;
        for (const IndexAtom& other : e->index) slices += other.isSlice();
        if (slices != 1) throw ExecError(what + ": a block read with another slice", n.id);
        in.blockAtom = static_cast<int>(i);
        in.blockFirst = CompiledIndex(a.block->first, layout, what);
        in.blockLanes = a.block->size;
      }
      auto it = bounds.find(g.boundOf(p.domain[i]));
      if (it == bounds.end()) throw ExecError(what + ": no value for the bound of '" + p.domain[i] + "'", n.id);
      in.producerBounds.push_back(it->second);
    }
    in.condition = CompiledCondition(e->condition, layout, what + " condition");
    inputs_.push_back(std::move(in));
  }
}

void NodeProgram::rebind(const SymbolEnv& bounds) {
  size_t slot = 0;  // the bounds' slots come first, in the map's order (the constructor's)
  for (auto& [name, value] : bounds_) slots_[slot++] = value = bounds.at(name);
  for (size_t d = 0; d < node_->domain.size(); ++d) domainBounds_[d] = bounds.at(graph_->boundOf(node_->domain[d]));
  for (Input& in : inputs_)
    for (size_t d = 0; d < in.producer->domain.size(); ++d)
      in.producerBounds[d] = bounds.at(graph_->boundOf(in.producer->domain[d]));
}

std::string NodeProgram::describe(const std::vector<int64_t>& point) const {
  std::string s = "node " + nodeLabel(*node_);
  if (node_->loc.valid())
    s += " at " + (graph_->file.empty() ? "" : graph_->file + ":") + std::to_string(node_->loc.begin.line) + ":" +
         std::to_string(node_->loc.begin.col);
  s += ", point (";
  for (size_t i = 0; i < point.size(); ++i)
    s += (i ? ", " : "") + (i < node_->domain.size() ? node_->domain[i] : "?") + "=" + std::to_string(point[i]);
  return s + ")";
}

void NodeProgram::fail(const std::vector<int64_t>& point, const std::string& message) const {
  throw ExecError(describe(point) + ": " + message, node_->id, point);
}

void NodeProgram::bindPoint(const std::vector<int64_t>& point) {
  if (point.size() != domainBounds_.size()) fail(point, "a point of the wrong rank");
  for (size_t i = 0; i < point.size(); ++i) {
    if (point[i] < 0 || point[i] >= domainBounds_[i])
      fail(point, "point outside the domain: " + node_->domain[i] + " not in [0, " +
                      std::to_string(domainBounds_[i]) + ")");
    slots_[firstDimSlot_ + i] = point[i];
  }
}

int64_t NodeProgram::prepareArrayPoint(const std::vector<int64_t>& point, SourceArrays& sources) {
  if (!arraySource_) fail(point, "not a whole-array source");
  bindPoint(point);
  const Tensor* whole = sources.find(node_->id);
  if (!whole) whole = &sources.get(*node_, domainBounds_, bounds_, describe(point));
  int64_t points = 1;  // > 0: the point is in the domain
  for (int64_t b : domainBounds_) points *= b;
  return static_cast<int64_t>(whole->nbytes()) / points;
}

std::optional<Tensor> NodeProgram::compute(const std::vector<int64_t>& point, const StoreTable& stores,
                                           SourceArrays& sources) {
  const Node& n = *node_;
  bindPoint(point);
  std::vector<int64_t>& shape = shapeHere_;  // reused: no allocation per point
  shape.clear();
  for (const CompiledIndex& s : shape_) {
    shape.push_back(s.eval(slots_.data()));
    if (shape.back() < 0) fail(point, "the shape " + n.type.shapeStr() + " is negative here");
  }
  std::optional<Tensor> computed;  // not a default Tensor: that is a buffer of its own
  const Input* taken = nullptr;     // the last input read (a merge's branch)
  if (isSource_) {
    computed = source(point, shape, sources);
  } else {
    // The gathered inputs, in a vector that keeps its capacity from point to point; emptied on
    // every way out, so that no input buffer stays held past the statement.
    std::vector<Tensor>& args = argsHere_;
    struct Clear {
      std::vector<Tensor>& v;
      ~Clear() { v.clear(); }
    } clearArgs{args};
    for (Input& in : inputs_) {
      bool live = in.condition.holds(slots_.data());
      if (n.op == OpKind::Merge && !live) continue;
      taken = &in;
      if (!live)
        fail(point, "the condition `" + in.edge->condition.str() + "` of input " + in.edge->str() +
                        " does not hold, and only merge inputs may be conditional");
      std::optional<Tensor> arg = gather(in, point, stores);
      // An undefined input (computed where it read outside a domain) makes this
      // point undefined too, for a merge's branch as for any input: static
      // tiling's accumulators run where the untiled reduction was undefined and
      // never read. A merge branch that itself reads outside fails in gather, and
      // reading an undefined value as an output fails in the store.
      if (!arg) return std::nullopt;
      args.push_back(std::move(*arg));
      if (n.op == OpKind::Merge) break;
    }
    if (n.op == OpKind::Merge) {
      if (args.empty()) fail(point, "no branch of the merge covers this point");
      computed = std::move(args.front());
    } else if (isStridedView(n)) {
      try {  // a strided view of the input's buffer (ViewSelection): no copy
        Tensor in = std::move(args.at(0));
        // A stacked slice that is a window of a computed store's buffer (consecutive block lanes):
        // the view owns a copy, as BufferSharing predicts for every input but a source's array.
        if (!inputs_.at(0).fromSourceArray && !in.ownsBufferAlone())
          in = in.clone();
        computed = n.op == OpKind::Permute ? in.permutedView(n.attrs.perm) : in.expandedView(shape);
      } catch (const std::exception& ex) {
        fail(point, std::string("cannot view the input: ") + ex.what());
      }
    } else {
      std::optional<Tensor> generated = native_ ? callNative(*native_, args, shape) : std::nullopt;
      if (generated) {
        computed = std::move(generated);
        ++*nativeCalls_;
      } else try {
        computed = usesPointAttrs(n.op) ? cpu::evalOp(n.op, attrsHere(), args, n.type.dtype, shape, kernels_)
                                        : cpu::evalOp(n.op, n.attrs, args, n.type.dtype, shape, kernels_);
      } catch (const std::exception& ex) {
        fail(point, std::string("kernel failed: ") + ex.what());
      }
      if (!sharesInputBuffer(n))  // a window of an input (a slice) is copied: see BufferSharing.h
        for (size_t i = 0; i < args.size(); ++i) {  // not a merge: args[i] is inputs_[i]'s
          if (computed->sharesBufferWith(args[i]) && !inputs_[i].keepsWindow) {
            computed = computed->clone();
            break;
          }
        }
    }
  }
  if (copiesSourceWindows_ && taken->fromSourceArray && !computed->ownsBufferAlone())
    computed = computed->clone();  // an output's identity, reshape or merge of a source's window
  const Tensor& result = *computed;
  if (result.shape() != shape || result.dtype() != n.type.dtype)
    fail(point, "computed " + std::string(dtypeName(result.dtype())) + shapeString(result.shape()) +
                    " but the node's type is " + std::string(dtypeName(n.type.dtype)) + shapeString(shape) + " here");
  return computed;
}

std::optional<Tensor> NodeProgram::gather(Input& in, const std::vector<int64_t>& point,
                                          const StoreTable& stores) {
  const Node& producer = *in.producer;
  const TensorStore* store = stores.at(producer.id).get();
  size_t rank = in.lo.size();
  std::vector<int64_t>&lo = in.readLo, &hi = in.readHi, &leading = in.readLeading;  // reused: no allocation per point
  lo.resize(rank), hi.resize(rank), leading.clear();
  int64_t laneOffset = 0;
  int sliceDim = -1;
  for (size_t i = 0; i < rank; ++i) {
    lo[i] = in.lo[i].eval(slots_.data());
    hi[i] = in.isSlice[i] ? in.hi[i].eval(slots_.data()) : lo[i] + 1;
    if (static_cast<int>(i) == in.blockAtom) {
      // The part of block ds inside the window; empty when the block lies outside it.
      int64_t first = in.blockFirst.eval(slots_.data());
      hi[i] = std::max(hi[i], lo[i]);
      if (lo[i] < hi[i] && (lo[i] < first || hi[i] > first + in.blockLanes))
        fail(point, "the block read " + in.edge->str() + " reads [" + std::to_string(lo[i]) + ", " +
                        std::to_string(hi[i]) + "), outside its lanes [" + std::to_string(first) + ", " +
                        std::to_string(first + in.blockLanes) + ")");
      laneOffset = lo[i] - first;
      if (lo[i] == hi[i]) lo[i] = hi[i] = 0;  // nothing is read
    }
    bool inside = in.isSlice[i] ? (0 <= lo[i] && lo[i] <= hi[i] && hi[i] <= in.producerBounds[i])
                                : (0 <= lo[i] && lo[i] < in.producerBounds[i]);
    if (!inside) {
      if (node_->op != OpKind::Merge) return std::nullopt;
      fail(point, "reads " + nodeLabel(producer) + " outside its domain through " + in.edge->str() + ": " +
                      producer.domain[i] + " in [" + std::to_string(lo[i]) + ", " + std::to_string(hi[i]) +
                      "), valid is [0, " + std::to_string(in.producerBounds[i]) + ")");
    }
    if (in.isSlice[i]) leading.push_back(hi[i] - lo[i]), sliceDim = static_cast<int>(i);
  }
  if (leading.empty()) return store->readIfDefined(lo);
  if (in.blockAtom >= 0 && takesBlocksAsStored_) {  // the block as stored: the same lanes and zeros, no copy
    const int b = in.blockAtom;
    if (const Tensor* block = store->blockAsRead(lo, b, lo[b] - laneOffset, in.blockLanes, lo[b], hi[b])) return *block;
  }
  std::optional<Tensor> run;
  if (in.fromSourceArray && in.blockAtom < 0)  // the window of the source's array, without a header per point
    run = store->arrayRunAsRead(lo, hi);
  else if (store->inOneBuffer() && takesBlocksAsStored_ && in.blockAtom < 0)  // in place, for a fresh value
    run = store->windowRunAsRead(lo, hi, sliceDim);
  if (run) {
    std::vector<int64_t> shape = leading;
    shape.insert(shape.end(), run->shape().begin() + 1, run->shape().end());
    return run->reshaped(std::move(shape));
  }
  std::vector<Tensor> parts;
  std::vector<int64_t> p = lo;
  bool empty = false;
  for (size_t i = 0; i < rank; ++i) empty = empty || lo[i] == hi[i];
  if (!empty) {
    do {
      std::optional<Tensor> part = store->readIfDefined(p);
      if (!part) return std::nullopt;
      parts.push_back(std::move(*part));
    } while (nextPointInBox(p, lo, hi));
  }
  std::vector<int64_t> partShape;
  try {
    partShape = parts.empty() ? producer.type.evaluateShape(bounds_) : parts.front().shape();
  } catch (const std::exception&) {
    fail(point, "empty slice read " + in.edge->str() + " of a producer whose shape " + producer.type.shapeStr() +
                    " depends on its dimensions");
  }
  std::vector<int64_t> shape = leading;
  shape.insert(shape.end(), partShape.begin(), partShape.end());
  try {
    if (in.blockAtom >= 0) return stackInLanes(parts, laneOffset, in.blockLanes, producer.type.dtype, partShape);
    return Tensor::stack(parts, producer.type.dtype, partShape, stackScratch(in, parts)).reshaped(shape);
  } catch (const std::exception& ex) {
    fail(point, "cannot stack the slice read " + in.edge->str() + ": " + ex.what());
  }
}

const Tensor* NodeProgram::stackScratch(Input& in, const std::vector<Tensor>& parts) {
  if (parts.empty()) return nullptr;
  const Tensor& part = parts.front();
  const size_t bytes = parts.size() * part.nbytes();
  if (bytes < kMappedTensorBytes) return nullptr;  // the heap reuses its pages well
  Tensor& scratch = in.stackScratch;
  if (!scratch.ownsBufferAlone() || scratch.bufferBytes() < bytes)  // twice the size: room for a growing window
    scratch = Tensor::uninitialized(part.dtype(), {2 * static_cast<int64_t>(parts.size()) * part.numel()},
                                    PageHint::Small);  // its back half may never be written
  return &scratch;
}

Tensor NodeProgram::source(const std::vector<int64_t>& point, const std::vector<int64_t>& shape,
                           SourceArrays& sources) {
  const Node& n = *node_;
  switch (n.op) {
    case OpKind::Constant: return Tensor::full(n.type.dtype, shape, n.attrs.value);
    case OpKind::EvalIndex:
      return Tensor::scalar(n.type.dtype, static_cast<double>(evalIndex_.eval(slots_.data())));
    default:
      if (!arraySource_) fail(point, "not a source op");
      const Tensor* whole = sources.find(n.id);
      if (!whole) whole = &sources.get(n, domainBounds_, bounds_, describe(point));
      return point.empty() ? *whole : whole->viewAt(point);
  }
}

const OpAttrs& NodeProgram::attrsHere() {
  // The node's attributes, copied once; the point's values are set in place, and only when they
  // differ from the last point's (an IndexExpr is made on the heap; most are the same at every point).
  std::vector<int64_t>& values = attrValuesHere_;
  const size_t n = 2 + attrShape_.size();
  bool same = values.size() == n;
  values.resize(n);
  auto set = [&](size_t i, const CompiledIndex& x) {
    const int64_t v = x.eval(slots_.data());
    same = same && values[i] == v;
    values[i] = v;
  };
  set(0, attrStart_);
  set(1, attrStop_);
  for (size_t i = 0; i < attrShape_.size(); ++i) set(2 + i, attrShape_[i]);
  if (same) return attrsHere_;
  attrsHere_.start = IndexExpr(values[0]);
  attrsHere_.stop = IndexExpr(values[1]);
  for (size_t i = 0; i < attrShape_.size(); ++i) attrsHere_.shape[i] = IndexExpr(values[2 + i]);
  return attrsHere_;
}

}  // namespace tempo
