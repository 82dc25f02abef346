// ReferenceInterpreter: the oracle — evaluates the SDG point by point.
//
// The value of a node at a point of its domain is computed in the most
// obvious way: bind the bounds and the point's coordinates, evaluate every
// input edge's index atoms there (a point atom reads one producer point, a
// slice atom reads a range of them, stacked into a new leading spatial axis in
// atom order), and apply the op with the reference kernels. A merge takes the
// first input whose edge condition holds and evaluates only that producer.
// Sources are generated per node: constants per point; loaded arrays and
// random/hash initialisers once as the whole array over the node's domain,
// then indexed at the point. Every (node, point) value is memoised and kept
// for the interpreter's lifetime (memory grows with the number of points
// evaluated; that is fine for an oracle). Evaluation uses an explicit work
// stack instead of recursion, so a recurrence over 10^5+ steps cannot
// overflow the C++ stack, and a point that needs itself is reported as a
// cycle. Every failure is an EvalError naming the node, its source position
// and the point. A dimension that ends `until` a condition is decided before the
// first value: its bound is bound to the steps the condition allows (UntilExtents). Nothing here is optimised: it is meant to be obviously right.
#pragma once

#include "graph/Graph.h"
#include "interp/UntilExtents.h"
#include "tensor/Tensor.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tempo {

struct InterpreterOptions {
  /// Values of the bounds (B, T, ...). Bounds missing here fall back to the
  /// graph's `boundDefaults`; a bound missing from both is an EvalError when
  /// it is needed.
  SymbolEnv bounds;
  /// Bind each `until` dimension's bound to the extent its condition reaches
  /// (UntilExtents); false evaluates at the bounds as given (the resolution itself).
  bool resolveUntil = true;
};

/// An evaluation failure. `what()` is the full message; when the failure is
/// tied to a node, `node` and `point` say where (node == -1 otherwise).
class EvalError : public std::runtime_error {
public:
  explicit EvalError(const std::string& message) : std::runtime_error(message) {}
  EvalError(const std::string& message, NodeId node, std::vector<int64_t> point)
      : std::runtime_error(message), node(node), point(std::move(point)) {}

  NodeId node = -1;
  std::vector<int64_t> point;
};

class ReferenceInterpreter {
public:
  /// `g` must outlive the interpreter and must not change while it is used.
  ReferenceInterpreter(const Graph& g, InterpreterOptions options);

  /// The value of `node` at `point` (one coordinate per domain dim, in
  /// node.domain order). The reference stays valid for the interpreter's lifetime.
  const Tensor& valueAt(NodeId node, const std::vector<int64_t>& point);

  /// The whole output as one array: shape = the bounds of its node's domain
  /// dims (in domain order) followed by its spatial shape, which must be the
  /// same at every point (EvalError otherwise).
  Tensor evaluateOutput(const GraphOutput& out);
  /// Every output of the graph, in `g.outputs` order, with its name.
  std::vector<std::pair<std::string, Tensor>> evaluateOutputs();

  /// The extent each `until` dimension reaches (its bound is bound to it), in graph order; decided
  /// by the first evaluation (or here), step by step (UntilExtents).
  const std::vector<ReachedExtent>& reachedExtents();

  /// Number of (node, point) values computed so far (memoised ones count once).
  size_t pointsEvaluated() const { return pointsEvaluated_; }

  /// When `*flag` becomes true, evaluation stops with EvalError("cancelled").
  /// Checked every few hundred work items. nullptr disables.
  void setCancelFlag(const std::atomic<bool>* flag) { cancel_ = flag; }
  /// Called with pointsEvaluated() after every `every` newly computed points.
  void setProgressCallback(std::function<void(size_t pointsDone)> callback, size_t every = 4096);

  using Point = std::vector<int64_t>;

private:
  struct PointHash {
    size_t operator()(const Point& p) const;
  };
  using NodeMemo = std::unordered_map<Point, Tensor, PointHash>;
  struct SliceRead;   // producer points of one input edge at one consumer point
  struct Frame;       // one (node, point) on the work stack

  // Work stack driver and its steps (ReferenceInterpreter.cpp).
  const Tensor& evaluate(NodeId node, const Point& point);
  Frame makeFrame(NodeId node, const Point& point) const;
  const Tensor* lookup(NodeId node, const Point& point) const;
  std::string cycleTrail(const std::vector<Frame>& stack, NodeId node, const Point& point) const;
  Tensor compute(const Frame& frame);
  Tensor readInput(const Frame& frame, const SliceRead& read) const;
  Tensor computeSource(const Frame& frame);
  const Tensor& wholeSourceArray(const Node& n, const Point& point);
  void noteComputed();

  // Helpers shared by the steps.
  const Node& nodeOf(NodeId id) const;
  int64_t boundValue(const std::string& dim) const;
  std::vector<int64_t> domainBounds(const Node& n) const;
  SymbolEnv pointEnv(const Node& n, const Point& point) const;
  SliceRead planRead(const Node& consumer, const Point& point, const SymbolEnv& env, const Edge& e) const;
  std::vector<int64_t> spatialShape(const Node& n, const SymbolEnv& env, const Point& point) const;
  [[noreturn]] void fail(const Node& n, const Point& point, const std::string& message) const;
  std::string describe(const Node& n, const Point& point) const;

  const Graph& graph_;
  SymbolEnv bounds_;
  std::vector<ReachedExtent> reached_;
  bool untilPending_ = false;  ///< the until extents are still to be decided (resolveExtents)
  void resolveExtents();
  std::map<NodeId, std::vector<const Edge*>> inputs_;
  std::map<NodeId, NodeMemo> memo_;
  std::map<NodeId, Tensor> wholeArrays_;  // per source node, over its whole domain
  size_t pointsEvaluated_ = 0;
  size_t workItems_ = 0;
  const std::atomic<bool>* cancel_ = nullptr;
  std::function<void(size_t)> progress_;
  size_t progressEvery_ = 4096;
};

}  // namespace tempo
