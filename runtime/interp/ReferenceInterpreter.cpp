#include "interp/ReferenceInterpreter.h"

#include "tensor/LaneStack.h"

#include "init/SourceArray.h"

#include "kernels/ReferenceKernels.h"

#include <sstream>
#include <unordered_set>

namespace tempo {

namespace {

using Point = ReferenceInterpreter::Point;

constexpr size_t kCancelCheckEvery = 256;
constexpr size_t kCycleTraceLimit = 8;

std::string pointString(const Node& n, const Point& p) {
  std::string s = "(";
  for (size_t i = 0; i < p.size(); ++i) {
    if (i) s += ", ";
    s += (i < n.domain.size() ? n.domain[i] : "?") + "=" + std::to_string(p[i]);
  }
  return s + ")";
}

std::string nodeLabel(const Node& n) {
  std::string s = "%" + std::to_string(n.id);
  if (!n.name.empty()) s += " '" + n.name + "'";
  return s + " (" + std::string(opName(n.op)) + ")";
}

bool isSourceOp(OpKind op) { return opClass(op) == OpClass::Source; }

/// Advances `p` to the next point of the box [0, bounds) in row-major order; false at the end.
bool nextPoint(Point& p, const std::vector<int64_t>& bounds) {
  for (size_t i = p.size(); i-- > 0;) {
    if (++p[i] < bounds[i]) return true;
    p[i] = 0;
  }
  return false;
}

int64_t product(const std::vector<int64_t>& v) {
  int64_t n = 1;
  for (int64_t x : v) n *= x;
  return n;
}

std::vector<int64_t> concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

/// The producer points one input edge reads at one consumer point: the
/// slice sizes (leading spatial dims, in atom order) and every producer
/// point, in row-major order over the slice atoms.
struct ReferenceInterpreter::SliceRead {
  const Edge* edge = nullptr;
  std::vector<int64_t> leading;
  std::vector<Point> points;
  int64_t blockLanes = 0;   ///< a block read: the static lanes (leading is {blockLanes})
  int64_t laneOffset = 0;   ///< a block read: the lane of the first point
};

/// One (node, point) on the work stack, with the reads it needs and a cursor
/// over them (everything before the cursor is already memoised).
struct ReferenceInterpreter::Frame {
  NodeId node = -1;
  Point point;
  std::vector<SliceRead> reads;
  size_t nextRead = 0;
  size_t nextPointInRead = 0;
};

size_t ReferenceInterpreter::PointHash::operator()(const Point& p) const {
  size_t h = 0xcbf29ce484222325ull;
  for (int64_t x : p) h = (h ^ std::hash<int64_t>{}(x)) * 0x100000001b3ull;
  return h;
}

ReferenceInterpreter::ReferenceInterpreter(const Graph& g, InterpreterOptions options)
    : graph_(g), bounds_(std::move(options.bounds)) {
  for (const auto& [name, value] : g.boundDefaults) bounds_.emplace(name, value);  // options win
  untilPending_ = options.resolveUntil && !untilOutputs(g).empty();
  try {
    bounds_ = g.withDerivedBounds(std::move(bounds_));
  } catch (const std::out_of_range&) {
    // A bound a derived one needs is missing: reported like any missing bound when read.
  }
  for (const auto& [id, node] : g.nodes()) inputs_[id] = g.inputs(id);
}

void ReferenceInterpreter::resolveExtents() {
  if (!untilPending_) return;
  untilPending_ = false;
  SymbolEnv given = bounds_;
  for (const auto& [name, expr] : graph_.derivedBounds) given.erase(name);
  reached_ = resolveUntilExtents(graph_, given, cancel_);
  for (const ReachedExtent& r : reached_) given[r.bound] = r.reached;
  try {
    bounds_ = graph_.withDerivedBounds(std::move(given));
  } catch (const std::out_of_range&) {
    bounds_ = std::move(given);  // reported like any missing bound when read
  }
}

const std::vector<ReachedExtent>& ReferenceInterpreter::reachedExtents() {
  resolveExtents();
  return reached_;
}

void ReferenceInterpreter::setProgressCallback(std::function<void(size_t)> callback, size_t every) {
  progress_ = std::move(callback);
  progressEvery_ = every == 0 ? 1 : every;
}

// ---------------------------------------------------------------------------
// Public entry points

const Tensor& ReferenceInterpreter::valueAt(NodeId node, const std::vector<int64_t>& point) {
  resolveExtents();
  return evaluate(node, point);
}

Tensor ReferenceInterpreter::evaluateOutput(const GraphOutput& out) {
  resolveExtents();
  const Node& n = nodeOf(out.node);
  std::vector<int64_t> bounds = domainBounds(n);
  std::vector<Tensor> parts;
  if (product(bounds) > 0) {
    Point p(bounds.size(), 0);
    do parts.push_back(evaluate(n.id, p));
    while (nextPoint(p, bounds));
  }
  std::vector<int64_t> spatial;
  if (!parts.empty()) {
    spatial = parts.front().shape();
  } else {
    try {
      spatial = n.type.evaluateShape(bounds_);
    } catch (const std::exception&) {
      throw EvalError("output '" + out.name + "': its domain is empty and its spatial shape " +
                      n.type.shapeStr() + " depends on a dimension", n.id, {});
    }
  }
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].shape() != spatial)
      throw EvalError("output '" + out.name + "': spatial shape varies over the domain (" +
                      shapeString(spatial) + " at the first point, " + shapeString(parts[i].shape()) +
                      " at point #" + std::to_string(i) + ")", n.id, {});
  Tensor stacked = Tensor::stack(parts, n.type.dtype, spatial);
  return stacked.reshaped(concat(bounds, spatial));
}

std::vector<std::pair<std::string, Tensor>> ReferenceInterpreter::evaluateOutputs() {
  std::vector<std::pair<std::string, Tensor>> result;
  for (const GraphOutput& out : graph_.outputs) result.emplace_back(out.name, evaluateOutput(out));
  return result;
}

// ---------------------------------------------------------------------------
// The work stack

const Tensor& ReferenceInterpreter::evaluate(NodeId node, const Point& point) {
  if (const Tensor* known = lookup(node, point)) return *known;
  std::vector<Frame> stack;
  std::map<NodeId, std::unordered_set<Point, PointHash>> active;  // the frames on the stack
  stack.push_back(makeFrame(node, point));
  active[node].insert(point);
  while (!stack.empty()) {
    if (++workItems_ % kCancelCheckEvery == 0 && cancel_ && cancel_->load()) throw EvalError("cancelled");
    Frame& top = stack.back();
    const Point* missing = nullptr;
    NodeId missingNode = -1;
    for (; top.nextRead < top.reads.size(); ++top.nextRead, top.nextPointInRead = 0) {
      const SliceRead& read = top.reads[top.nextRead];
      for (; top.nextPointInRead < read.points.size(); ++top.nextPointInRead)
        if (!lookup(read.edge->producer, read.points[top.nextPointInRead])) break;
      if (top.nextPointInRead < read.points.size()) {
        missing = &read.points[top.nextPointInRead];
        missingNode = read.edge->producer;
        break;
      }
    }
    if (missing) {
      if (active[missingNode].count(*missing)) {
        const Node& mn = nodeOf(missingNode);
        throw EvalError("cycle at " + describe(mn, *missing) + ": the point needs itself: " +
                        cycleTrail(stack, missingNode, *missing), missingNode, *missing);
      }
      Frame child = makeFrame(missingNode, *missing);
      active[missingNode].insert(child.point);
      stack.push_back(std::move(child));  // invalidates `top`
      continue;
    }
    Tensor value = compute(top);
    active[top.node].erase(top.point);
    memo_[top.node].emplace(top.point, std::move(value));
    stack.pop_back();
    noteComputed();
  }
  return *lookup(node, point);
}

std::string ReferenceInterpreter::cycleTrail(const std::vector<Frame>& stack, NodeId node,
                                             const Point& point) const {
  // The stack is the chain of pending points, each needed by the one below it;
  // the cycle is the part from `point`'s frame to the top, then `point` again.
  size_t first = 0;
  while (first < stack.size() && !(stack[first].node == node && stack[first].point == point)) ++first;
  auto label = [&](NodeId id, const Point& p) {
    const Node& n = nodeOf(id);
    return nodeLabel(n) + " at " + pointString(n, p);
  };
  std::string trail;
  size_t length = stack.size() - first;
  for (size_t i = first; i < stack.size(); ++i) {
    if (length > kCycleTraceLimit && i == first + kCycleTraceLimit / 2) {
      trail += "... (" + std::to_string(length - kCycleTraceLimit) + " more) needs ";
      i = stack.size() - kCycleTraceLimit / 2;
    }
    trail += label(stack[i].node, stack[i].point) + " needs ";
  }
  return trail + label(node, point);
}

const Tensor* ReferenceInterpreter::lookup(NodeId node, const Point& point) const {
  auto perNode = memo_.find(node);
  if (perNode == memo_.end()) return nullptr;
  auto it = perNode->second.find(point);
  return it == perNode->second.end() ? nullptr : &it->second;
}

void ReferenceInterpreter::noteComputed() {
  ++pointsEvaluated_;
  if (progress_ && pointsEvaluated_ % progressEvery_ == 0) progress_(pointsEvaluated_);
}

// ---------------------------------------------------------------------------
// Planning a frame: which producer points a (node, point) needs

ReferenceInterpreter::Frame ReferenceInterpreter::makeFrame(NodeId node, const Point& point) const {
  const Node& n = nodeOf(node);
  SymbolEnv env = pointEnv(n, point);
  Frame frame{node, point, {}, 0, 0};
  if (isSourceOp(n.op)) return frame;
  const std::vector<const Edge*>& edges = inputs_.at(node);
  for (const Edge* e : edges) {
    bool live = false;
    try {
      live = e->condition.holds(env);
    } catch (const std::exception& ex) {
      fail(n, point, "cannot evaluate the condition `" + e->condition.str() + "` of input " +
                         std::to_string(e->inputIndex) + ": " + ex.what());
    }
    if (n.op == OpKind::Merge) {
      if (!live) continue;
      frame.reads.push_back(planRead(n, point, env, *e));
      return frame;
    }
    if (!live)
      fail(n, point, "the condition `" + e->condition.str() + "` of input " + std::to_string(e->inputIndex) +
                         " (" + e->str() + ") does not hold, and only merge inputs may be conditional");
    frame.reads.push_back(planRead(n, point, env, *e));
  }
  if (n.op == OpKind::Merge) fail(n, point, "no branch covers point " + pointString(n, point));
  return frame;
}

ReferenceInterpreter::SliceRead ReferenceInterpreter::planRead(const Node& consumer, const Point& point,
                                                               const SymbolEnv& env, const Edge& e) const {
  const Node& producer = nodeOf(e.producer);
  if (e.index.size() != producer.domain.size())
    fail(consumer, point, "input " + std::to_string(e.inputIndex) + " (" + e.str() + ") has " +
                              std::to_string(e.index.size()) + " index atoms but " + nodeLabel(producer) +
                              " has " + std::to_string(producer.domain.size()) + " domain dims");
  // Per producer dim: the range [lo, hi) it reads (a point atom is [v, v + 1)).
  std::vector<int64_t> lo(e.index.size()), hi(e.index.size());
  SliceRead read{&e, {}, {}};
  int slices = 0;
  for (const IndexAtom& atom : e.index) slices += atom.isSlice();
  for (size_t i = 0; i < e.index.size(); ++i) {
    const IndexAtom& atom = e.index[i];
    const std::string& dim = producer.domain[i];
    int64_t bound = boundValue(dim);
    int64_t first = 0;
    try {
      lo[i] = atom.start.evaluate(env);
      hi[i] = atom.isSlice() ? atom.stop->evaluate(env) : lo[i] + 1;
      if (atom.isBlock()) first = atom.block->first.evaluate(env);
    } catch (const std::exception& ex) {
      fail(consumer, point, "cannot evaluate the index `" + atom.str() + "` of " + e.str() + ": " + ex.what());
    }
    if (atom.isBlock()) {
      // The part of a block inside the window: empty when the block lies outside it.
      if (slices != 1) fail(consumer, point, "the block read " + e.str() + " has another slice");
      hi[i] = std::max(hi[i], lo[i]);
      bool fits = lo[i] == hi[i] || (first <= lo[i] && hi[i] <= first + atom.block->size);
      if (!fits)
        fail(consumer, point, "the block read `" + atom.str() + "` of " + e.str() + " reads [" +
                                  std::to_string(lo[i]) + ", " + std::to_string(hi[i]) + "), outside its lanes [" +
                                  std::to_string(first) + ", " + std::to_string(first + atom.block->size) + ")");
      read.blockLanes = atom.block->size;
      read.laneOffset = lo[i] - first;
      if (lo[i] == hi[i]) lo[i] = hi[i] = 0;  // nothing is read
    }
    bool inside = atom.isSlice() ? (0 <= lo[i] && lo[i] <= hi[i] && hi[i] <= bound)
                                 : (0 <= lo[i] && lo[i] < bound);
    if (!inside)
      fail(consumer, point, "reads " + nodeLabel(producer) + " outside its domain: " + dim + " index `" +
                                atom.str() + "` is " +
                                (atom.isSlice() ? "[" + std::to_string(lo[i]) + ", " + std::to_string(hi[i]) + ")"
                                                : std::to_string(lo[i])) +
                                ", valid is [0, " + std::to_string(bound) + ")");
    if (atom.isSlice()) read.leading.push_back(hi[i] - lo[i]);
  }
  if (product(read.leading) == 0) {
    if (read.blockLanes > 0) read.leading = {read.blockLanes};
    return read;
  }
  Point p = lo;
  do read.points.push_back(p);
  while ([&] {  // row-major over [lo, hi)
    for (size_t i = p.size(); i-- > 0;) {
      if (++p[i] < hi[i]) return true;
      p[i] = lo[i];
    }
    return false;
  }());
  if (read.blockLanes > 0) read.leading = {read.blockLanes};
  return read;
}

// ---------------------------------------------------------------------------
// Computing a frame once its inputs are memoised

namespace {

/// A copy of `attrs` whose point-dependent IndexExprs (slice bounds, target
/// shapes) are replaced by their values at `env`, as the kernels expect.
OpAttrs concreteAttrs(OpKind op, const OpAttrs& attrs, const SymbolEnv& env) {
  if (op != OpKind::Slice && op != OpKind::Reshape && op != OpKind::Expand) return attrs;
  OpAttrs out = attrs;
  out.start = IndexExpr(attrs.start.evaluate(env));
  out.stop = IndexExpr(attrs.stop.evaluate(env));
  for (IndexExpr& s : out.shape) s = IndexExpr(s.evaluate(env));
  return out;
}

}  // namespace

Tensor ReferenceInterpreter::compute(const Frame& frame) {
  const Node& n = nodeOf(frame.node);
  SymbolEnv env = pointEnv(n, frame.point);
  std::vector<int64_t> shape = spatialShape(n, env, frame.point);
  Tensor result;
  if (isSourceOp(n.op)) {
    result = computeSource(frame);
  } else {
    std::vector<Tensor> inputs;
    for (const SliceRead& read : frame.reads) inputs.push_back(readInput(frame, read));
    if (n.op == OpKind::Merge) {
      result = inputs.at(0);
    } else {
      try {
        result = ref::evalOp(n.op, concreteAttrs(n.op, n.attrs, env), inputs, n.type.dtype, shape);
      } catch (const std::exception& ex) {
        fail(n, frame.point, std::string("kernel failed: ") + ex.what());
      }
    }
  }
  if (result.shape() != shape || result.dtype() != n.type.dtype)
    fail(n, frame.point, "computed " + std::string(dtypeName(result.dtype())) + shapeString(result.shape()) +
                             " but the node's type is " + n.type.str() + " = " +
                             std::string(dtypeName(n.type.dtype)) + shapeString(shape) + " here");
  return result;
}

Tensor ReferenceInterpreter::readInput(const Frame& frame, const SliceRead& read) const {
  const Node& producer = nodeOf(read.edge->producer);
  if (read.leading.empty()) return *lookup(producer.id, read.points.at(0));
  std::vector<Tensor> parts;
  parts.reserve(read.points.size());
  for (const Point& p : read.points) parts.push_back(*lookup(producer.id, p));
  std::vector<int64_t> partShape;
  if (!parts.empty()) {
    partShape = parts.front().shape();
  } else {
    try {
      partShape = producer.type.evaluateShape(bounds_);
    } catch (const std::exception&) {
      fail(nodeOf(frame.node), frame.point,
           "empty slice read " + read.edge->str() + " of a producer whose shape " + producer.type.shapeStr() +
               " depends on its dimensions (its element shape is unknown)");
    }
  }
  try {
    if (read.blockLanes > 0)
      return stackInLanes(parts, read.laneOffset, read.blockLanes, producer.type.dtype, partShape);
    return Tensor::stack(parts, producer.type.dtype, partShape).reshaped(concat(read.leading, partShape));
  } catch (const std::exception& ex) {
    fail(nodeOf(frame.node), frame.point, "cannot stack the slice read " + read.edge->str() + ": " + ex.what());
  }
}

Tensor ReferenceInterpreter::computeSource(const Frame& frame) {
  const Node& n = nodeOf(frame.node);
  SymbolEnv env = pointEnv(n, frame.point);
  switch (n.op) {
    case OpKind::Constant:
      return Tensor::full(n.type.dtype, spatialShape(n, env, frame.point), n.attrs.value);
    case OpKind::EvalIndex:
      if (!n.attrs.index) fail(n, frame.point, "eval_index without an index expression");
      try {
        return Tensor::scalar(n.type.dtype, static_cast<double>(n.attrs.index->evaluate(env)));
      } catch (const std::exception& ex) {
        fail(n, frame.point, "cannot evaluate `" + n.attrs.index->str() + "`: " + ex.what());
      }
    case OpKind::Load:
    case OpKind::RandomNormal:
    case OpKind::RandomUniform:
    case OpKind::HashInit: {
      const Tensor& whole = wholeSourceArray(n, frame.point);
      return frame.point.empty() ? whole : whole.index(frame.point);
    }
    default:
      fail(n, frame.point, "not a source op");
  }
}

const Tensor& ReferenceInterpreter::wholeSourceArray(const Node& n, const Point& point) {
  if (auto it = wholeArrays_.find(n.id); it != wholeArrays_.end()) return it->second;
  std::vector<int64_t> shape = concat(domainBounds(n), spatialShape(n, pointEnv(n, point), point));
  Tensor whole;
  try {
    whole = buildSourceArray(n, shape);
  } catch (const SourceArrayError& ex) {
    fail(n, point, ex.what());
  }
  return wholeArrays_.emplace(n.id, std::move(whole)).first->second;
}

// ---------------------------------------------------------------------------
// Helpers

const Node& ReferenceInterpreter::nodeOf(NodeId id) const {
  if (!graph_.hasNode(id)) throw EvalError("no node %" + std::to_string(id) + " in the graph");
  return graph_.node(id);
}

int64_t ReferenceInterpreter::boundValue(const std::string& dim) const {
  std::string bound = graph_.boundOf(dim);
  if (bound.empty()) throw EvalError("unknown dimension '" + dim + "' (not declared in the graph)");
  auto it = bounds_.find(bound);
  if (it == bounds_.end())
    throw EvalError("no value for bound '" + bound + "' (of dimension '" + dim + "'): pass it in the options");
  return it->second;
}

std::vector<int64_t> ReferenceInterpreter::domainBounds(const Node& n) const {
  std::vector<int64_t> out;
  for (const std::string& dim : n.domain) out.push_back(boundValue(dim));
  return out;
}

SymbolEnv ReferenceInterpreter::pointEnv(const Node& n, const Point& point) const {
  if (point.size() != n.domain.size())
    fail(n, point, "a point of " + std::to_string(point.size()) + " coordinates for a domain of " +
                       std::to_string(n.domain.size()) + " dims");
  SymbolEnv env = bounds_;
  for (size_t i = 0; i < point.size(); ++i) {
    int64_t bound = boundValue(n.domain[i]);
    if (point[i] < 0 || point[i] >= bound)
      fail(n, point, "point outside the domain: " + n.domain[i] + " = " + std::to_string(point[i]) +
                         " not in [0, " + std::to_string(bound) + ")");
    env[n.domain[i]] = point[i];
  }
  return env;
}

std::vector<int64_t> ReferenceInterpreter::spatialShape(const Node& n, const SymbolEnv& env,
                                                        const Point& point) const {
  std::vector<int64_t> shape;
  try {
    shape = n.type.evaluateShape(env);
  } catch (const std::exception& ex) {
    fail(n, point, "cannot evaluate the shape " + n.type.shapeStr() + ": " + ex.what());
  }
  for (int64_t s : shape)
    if (s < 0) fail(n, point, "the shape " + n.type.shapeStr() + " is negative here: " + shapeString(shape));
  return shape;
}

std::string ReferenceInterpreter::describe(const Node& n, const Point& point) const {
  std::ostringstream s;
  s << "node " << nodeLabel(n);
  if (n.loc.valid())
    s << " at " << (graph_.file.empty() ? "" : graph_.file + ":") << n.loc.begin.line << ":" << n.loc.begin.col;
  s << ", point " << pointString(n, point);
  return s.str();
}

void ReferenceInterpreter::fail(const Node& n, const Point& point, const std::string& message) const {
  throw EvalError(describe(n, point) + ": " + message, n.id, point);
}

}  // namespace tempo
