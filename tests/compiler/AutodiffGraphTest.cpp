// The backward graph as a graph: its golden text for a tiny recurrence, the
// compiled engine running it like any program (same gradients as the
// reference interpreter), the spatial slice op, and request errors.
#include "AutodiffTestUtil.h"

#include "graph/GraphPrinter.h"
#include "support/GoldenFiles.h"

namespace tempo::testing {
namespace {

const std::string kTinyRecurrence =
    "dim t < T\nset T = 4\n"
    "param x : f64[2] over (t) = normal(seed=1)\n"
    "y : f64[2] over (t)\n"
    "y[0] = x[0]\n"
    "y[t] = tanh(x[t] + y[t-1])\n"
    "out loss = sum(y)\n";

/// `source` with the gradient of `loss` for each target added as an output `grad_<target>`.
Graph withGradientOutputs(const std::string& source, const std::vector<std::string>& targets) {
  Graph g = compiledOrFail(source);
  std::vector<NodeId> ids;
  for (const std::string& t : targets) ids.push_back(nodeNamed(g, t));
  std::vector<NodeId> grads = addGradients(g, nodeNamed(g, "loss"), ids);
  for (size_t i = 0; i < grads.size(); ++i) g.outputs.push_back({"grad_" + targets[i], grads[i], {}});
  return g;
}

TEST(AutodiffGraph, BackwardGraphOfATinyRecurrenceIsGolden) {
  Graph g = withGradientOutputs(kTinyRecurrence, {"x"});
  expectGolden(sourceDir() / "tests" / "golden" / "autodiff" / "tiny_recurrence.sdg", printGraph(g));
}

TEST(AutodiffGraph, PastShiftGradientKeepsItsBoundaryCondition) {
  // y[t] = x[t-1] for t >= 1: grad_x[t] = grad_y[t+1] only where t + 1 < T.
  Graph g = withGradientOutputs(kTinyRecurrence, {"x"});
  std::string text = printGraph(g);
  // The read itself is conditional: no point t = T - 1 reads grad_y[T].
  EXPECT_NE(text.find("[t + 1] if t + 1 < T, "), std::string::npos) << text;
}

TEST(AutodiffGraph, CompiledEngineGivesTheInterpretersGradients) {
  // Every finite-difference check also compares the engines; these add
  // longer sequences and several read forms in one program.
  const std::vector<std::pair<std::string, std::vector<std::string>>> programs = {
      {"dim b < B\ndim t < T\nset B = 2, T = 9\nconst IN = 3, H = 2\n"
       "input x : f64[IN] over (b, t) = normal(seed=1)\n"
       "param W : f64[IN, H] = normal(seed=2, std=0.5)\n"
       "param U : f64[H, H] = normal(seed=3, std=0.5)\n"
       "h : f64[H] over (b, t)\nh[b, 0] = tanh(x[b, 0] @ W)\nh[b, t] = tanh(x[b, t] @ W + h[b, t-1] @ U)\n"
       "out loss = sum(h)\n",
       {"W", "U", "x"}},
      {"dim t < T\nset T = 8\nconst W = 3\nparam x : f64[2] over (t) = normal(seed=1)\n"
       "a = sum(tanh(x[max(0, t-W+1):t+1]), dim=0) + mean(x[t:T], dim=0) + sum(x[0:t+1], dim=0)\n"
       "out loss = sum(a * a * x[T-1] + sum(x[1:T], dim=0))\n",
       {"x"}},
      {"dim t < T\nset T = 7\nparam x : f64[2] over (t) = normal(seed=1)\n"
       "y : f64[2] over (t)\ny[0] = tanh(x[0])\ny[t] = tanh(sum(x[t-1:t+1], dim=0) * y[t-1] + x[max(t-2, 0)])\n"
       "out loss = sum(y * x)\n",
       {"x"}},
  };
  for (const auto& [source, targets] : programs) {
    Graph g = compiledOrFail(source);
    std::vector<NodeId> ids;
    for (const std::string& t : targets) ids.push_back(nodeNamed(g, t));
    std::vector<NodeId> grads = addGradients(g, nodeNamed(g, "loss"), ids);
    expectCompiledMatchesInterpreter(g, grads, source);
  }
}

TEST(AutodiffGraph, SpatialSliceGradientMatchesFiniteDifferences) {
  // No built-in lowers to a spatial slice, so the graph is written by hand:
  // loss = sum(tanh(a[:, 1:3]) * a[:, 0:2]).
  Graph g;
  auto node = [&](OpKind op, TensorType type, OpAttrs attrs, std::vector<NodeId> inputs, std::string name = "") {
    Node n;
    n.op = op;
    n.attrs = std::move(attrs);
    n.type = std::move(type);
    n.name = std::move(name);
    NodeId id = g.addNode(std::move(n));
    for (size_t i = 0; i < inputs.size(); ++i) g.addEdge(Edge{-1, id, static_cast<int>(i), inputs[i], {}, {}, {}});
    return id;
  };
  OpAttrs init;
  init.seed = 1;
  init.b = 1.0;
  NodeId a = node(OpKind::RandomNormal, {DType::F64, {3, 4}}, init, {}, "a");
  auto slice = [&](int64_t start) {
    OpAttrs at;
    at.axis = 1;
    at.start = start;
    at.stop = start + 2;
    return node(OpKind::Slice, {DType::F64, {3, 2}}, at, {a});
  };
  NodeId t = node(OpKind::Tanh, {DType::F64, {3, 2}}, {}, {slice(1)});
  NodeId m = node(OpKind::Mul, {DType::F64, {3, 2}}, {}, {t, slice(0)});
  OpAttrs all;
  all.axes = {0, 1};
  node(OpKind::ReduceSum, {DType::F64, {}}, all, {m}, "loss");
  expectGradientsMatchFiniteDifferences(g, "loss", {"a"}, "spatial_slice");
}

TEST(AutodiffGraph, ALossThatDoesNotDependOnTheTargetHasZeroGradient) {
  Graph g = withGradientOutputs("param a : f64[2] = normal(seed=1)\nparam b : f64[2] = normal(seed=2)\n"
                                "out loss = sum(a * a)\n",
                                {"b"});
  Tensor grad = wholeValue(g, g.outputs.back().node);
  ASSERT_EQ(grad.numel(), 2);
  EXPECT_EQ(grad.at(0), 0.0);
  EXPECT_EQ(grad.at(1), 0.0);
}

TEST(AutodiffGraph, ANonScalarLossIsRejected) {
  Graph g = compiledOrFail("param a : f64[2] = normal(seed=1)\nout loss = a * a\n");
  EXPECT_THROW(addGradients(g, nodeNamed(g, "loss"), {nodeNamed(g, "a")}), AutodiffError);
}

}  // namespace
}  // namespace tempo::testing

namespace tempo::testing {
namespace {

TEST(AutodiffLanguage, GradExpressionMatchesFiniteDifferences) {
  // The program's own `out g = grad(loss, W)` against finite differences of loss.
  Graph g = compiledOrFail(
      "dim t < T\nset T = 5\nconst H = 2\n"
      "input x : f64[H] over (t) = normal(seed=1)\n"
      "param W : f64[H, H] = normal(seed=2, std=0.5)\n"
      "h : f64[H] over (t)\nh[0] = tanh(x[0] @ W)\nh[t] = tanh(x[t] @ W + h[t-1])\n"
      "loss = sum(h * h)\nout g = grad(loss, W)\n");
  NodeId w = nodeNamed(g, "W");
  NodeId loss = nodeNamed(g, "loss");
  std::string path = scratchDir("grad_expr") + "/W.npy";
  Tensor value = turnIntoLoad(g, w, path);
  Tensor ad = wholeValue(g, g.outputs.back().node);
  for (int64_t i = 0; i < value.numel(); ++i) {
    Tensor plus = value.clone(), minus = value.clone();
    plus.set(i, value.at(i) + kFiniteDifferenceStep);
    minus.set(i, value.at(i) - kFiniteDifferenceStep);
    writeNpy(path, plus);
    double lp = lossValue(g, loss);
    writeNpy(path, minus);
    double lm = lossValue(g, loss);
    double fd = (lp - lm) / (2 * kFiniteDifferenceStep);
    EXPECT_NEAR(ad.at(i), fd, kGradientTolerance * (1 + std::fabs(fd))) << "element " << i;
  }
}

TEST(AutodiffLanguage, DetachStopsTheGradient) {
  // loss = sum(detach(a) * a): the gradient is a, not 2a.
  Graph g = compiledOrFail("param a : f64[3] = normal(seed=1)\nloss = sum(detach(a) * a)\nout g = grad(loss, a)\n");
  Tensor a = wholeValue(g, nodeNamed(g, "a"));
  Tensor grad = wholeValue(g, g.outputs.back().node);
  for (int64_t i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(grad.at(i), a.at(i));
}

}  // namespace
}  // namespace tempo::testing
