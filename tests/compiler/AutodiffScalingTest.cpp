// How the backward graph grows, without timing anything.
//
// Work: the *read volume* of the backward nodes — over every point of each
// backward node's domain, the number of elements its input edges read there
// (edges whose condition holds) — counted from the graph at given bounds. A
// window read whose gradient is O(T^2) (like its forward read) doubles T and
// multiplies the volume by about 4; the old scatter adjoint, whose every
// producer point read each reader's tensor placed along the full extent, was
// O(T^3) (about 8x). Each read form is checked at T = 32 and 64.
// Size: several grad() calls of one loss share one backward graph, so asking
// for more targets adds only what the new targets need.
#include "AutodiffTestUtil.h"

namespace tempo::testing {
namespace {

int64_t elements(const TensorType& t, const SymbolEnv& env) {
  int64_t n = 1;
  for (const IndexExpr& d : t.shape) n *= std::max<int64_t>(0, d.evaluate(env));
  return n;
}

/// The read volume of the nodes with an id >= firstBackward, at bound `T`.
int64_t backwardReadVolume(const Graph& g, NodeId firstBackward, int64_t T) {
  SymbolEnv bounds = g.boundDefaults;
  bounds["T"] = T;
  int64_t volume = 0;
  for (const auto& [id, n] : g.nodes()) {
    if (id < firstBackward) continue;
    std::vector<const Edge*> inputs = g.inputs(id);
    std::vector<int64_t> point(n.domain.size(), 0);
    std::vector<int64_t> extent;
    for (const std::string& d : n.domain) extent.push_back(bounds.at(g.boundOf(d)));
    bool empty = std::any_of(extent.begin(), extent.end(), [](int64_t e) { return e <= 0; });
    while (!empty) {
      SymbolEnv env = bounds;
      for (size_t i = 0; i < point.size(); ++i) env[n.domain[i]] = point[i];
      for (const Edge* e : inputs)
        if (e->condition.holds(env)) volume += elements(g.readType(*e), env);
      size_t i = 0;  // next point, last dimension fastest
      for (; i < point.size(); ++i) {
        size_t k = point.size() - 1 - i;
        if (++point[k] < extent[k]) break;
        point[k] = 0;
      }
      if (i == point.size()) break;
    }
  }
  return volume;
}

/// The read volume of d(loss)/d(x) for `program` (which declares `dim t < T`,
/// a param x over (t) and a loss) at bound T.
int64_t gradientVolume(const std::string& program, int64_t T) {
  Graph g = compiledOrFail(program);
  NodeId firstBackward = g.nodes().rbegin()->first + 1;
  addGradients(g, nodeNamed(g, "loss"), {nodeNamed(g, "x")});
  return backwardReadVolume(g, firstBackward, T);
}

TEST(AutodiffScaling, WindowGradientsGrowLikeTheirForwardReads) {
  const std::string header = "dim t < T\nset T = 8\nconst W = 4\nparam x : f64[4] over (t) = normal(seed=1)\n";
  const std::vector<std::pair<std::string, std::string>> reads = {
      {"growing window", "a = sum(tanh(x[0:t+1]), dim=0)\n"},
      {"future range", "a = sum(tanh(x[t:T]), dim=0)\n"},
      {"whole range from every step", "a = sum(tanh(x[0:T]), dim=0) * x\n"},
      {"sliding window", "a = sum(tanh(x[max(0, t-W+1):t+1]), dim=0)\n"},
      {"clamped point", "a = tanh(x[max(t-1, 0)]) * x\n"},
      {"growing window in a recurrence",
       "a : f64[4] over (t)\na[0] = tanh(x[0])\na[t] = tanh(x[t] + sum(a[0:t], dim=0) / 4.0)\n"},
      {"future window in a recurrence",
       "a : f64[4] over (t)\na[T-1] = tanh(x[T-1])\na[t] = tanh(x[t] + sum(a[t+1:T], dim=0) / 4.0)\n"},
  };
  for (const auto& [form, read] : reads) {
    std::string program = header + read + "out loss = sum(a * a)\n";
    int64_t small = gradientVolume(program, 32), large = gradientVolume(program, 64);
    double growth = static_cast<double>(large) / static_cast<double>(small);
    EXPECT_LT(growth, 4.6) << form << ": read volume " << small << " at T = 32, " << large << " at T = 64";
    EXPECT_GT(growth, 1.9) << form << ": read volume " << small << " at T = 32, " << large << " at T = 64";
  }
}

TEST(AutodiffScaling, MoreTargetsOfOneLossShareTheBackwardGraph) {
  Graph g = compiledOrFail(
      "dim b < B\ndim t < T\nset B = 2, T = 6\nconst IN = 3, H = 4\n"
      "input x : f64[IN] over (b, t) = normal(seed=1)\n"
      "param W : f64[IN, H] = normal(seed=2, std=0.5)\n"
      "param U : f64[H, H] = normal(seed=3, std=0.5)\n"
      "h : f64[H] over (b, t)\nh[b, 0] = tanh(x[b, 0] @ W)\nh[b, t] = tanh(x[b, t] @ W + h[b, t-1] @ U)\n"
      "out loss = sum(h[b, 0:T] * h[b, 0:T])\n");
  NodeId loss = nodeNamed(g, "loss");
  Graph separate = g;
  size_t before = g.nodes().size();

  BackwardGraph shared(g, loss);
  NodeId gW = shared.gradients({nodeNamed(g, "W")}).at(0);
  size_t oneTarget = g.nodes().size() - before;
  EXPECT_EQ(shared.gradients({nodeNamed(g, "W")}).at(0), gW) << "asking again adds nothing";
  EXPECT_EQ(g.nodes().size() - before, oneTarget);
  std::vector<NodeId> more = shared.gradients({nodeNamed(g, "U"), nodeNamed(g, "x")});
  size_t threeTargets = g.nodes().size() - before;
  // U and x add their own accumulators and the contributions of the matmuls
  // reading them, not another pass through the recurrence (three separate
  // backward graphs would be about 3x the nodes of one).
  EXPECT_LT(threeTargets, oneTarget * 3 / 2) << oneTarget << " nodes for W, " << threeTargets << " for W, U, x";

  // The shared gradients are the separate ones.
  std::vector<NodeId> ids = {nodeNamed(separate, "W"), nodeNamed(separate, "U"), nodeNamed(separate, "x")};
  std::vector<NodeId> alone;
  for (NodeId id : ids) alone.push_back(addGradients(separate, nodeNamed(separate, "loss"), {id}).at(0));
  std::vector<NodeId> together = {gW, more[0], more[1]};
  for (size_t k = 0; k < ids.size(); ++k) {
    Tensor a = wholeValue(g, together[k]), b = wholeValue(separate, alone[k]);
    ASSERT_EQ(a.shape(), b.shape());
    for (int64_t i = 0; i < a.numel(); ++i) EXPECT_NEAR(a.at(i), b.at(i), 1e-12) << "target " << k << " #" << i;
  }
  expectCompiledMatchesInterpreter(g, together, "shared backward graph");
}

TEST(AutodiffScaling, GradCallsInAProgramShareTheBackwardGraph) {
  const std::string program =
      "dim t < T\nset T = 6\nparam x : f64[3] over (t) = normal(seed=1)\nparam W : f64[3, 3] = normal(seed=2)\n"
      "h : f64[3] over (t)\nh[0] = tanh(x[0])\nh[t] = tanh(x[t] + h[t-1] @ W)\nout loss = sum(h * h)\n";
  auto nodes = [](const std::string& source) { return compiledOrFail(source).nodes().size(); };
  size_t none = nodes(program);
  size_t one = nodes(program + "out gW = grad(loss, W)\n") - none;
  size_t again = nodes(program + "out gW = grad(loss, W)\nout gW2 = grad(loss, W)\n") - none;
  size_t two = nodes(program + "out gW = grad(loss, W)\nout gx = grad(loss, x)\n") - none;
  EXPECT_EQ(again, one + 1) << "the same gradient again is one identity node";
  // Two backward graphs would be about twice the nodes of one.
  EXPECT_LT(two, one + one / 2) << one << " nodes for grad(loss, W), " << two << " with grad(loss, x)";
}

}  // namespace
}  // namespace tempo::testing
