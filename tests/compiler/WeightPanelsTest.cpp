// WeightPanels in the default pipeline: a recurrence's step multiplies a few rows by a
// 1 MiB weight matrix at every step, so the matrix is copied once as column panels
// (a permute of [K, N/64, 64]) and every step multiplies by the panels; the graph gives
// the reference interpreter's outputs bit for bit (the same dot products, summed in
// double). Many rows, a small matrix, a width that is not a multiple of 64 or fewer than
// 16 steps (the copy would not pay) leave the product as it was.
#include "PassTestUtil.h"

#include "graph/GraphPrinter.h"

namespace tempo::testing {
namespace {

/// An Elman recurrence of T steps over B sequences with an E x E weight matrix.
std::string recurrence(int64_t batch, int64_t width, int64_t steps = 16) {
  const std::string e = std::to_string(width);
  return "dim t < T\n"
         "dim b < B\n"
         "set T = " + std::to_string(steps) + ", B = " + std::to_string(batch) + "\n"
         "input x : f32[" + e + "] over (t, b) = hash(key=1, scale=1.0)\n"
         "param W : f32[" + e + ", " + e + "] = hash(key=2, scale=0.04)\n"
         "h : f32[" + e + "] over (t, b)\n"
         "h[0, b] = tanh(x[0, b])\n"
         "h[t, b] = tanh(h[t-1, b] @ W + x[t, b])\n"
         "out y = sum(h[0:T, b], dim=0)\n";
}

/// The same with one sequence and no batch dimension: the product's left operand is a vector.
const char* const kVector =
    "dim t < T\n"
    "set T = 16\n"
    "input x : f32[512] over (t) = hash(key=1, scale=1.0)\n"
    "param W : f32[512, 512] = hash(key=2, scale=0.04)\n"
    "h : f32[512] over (t)\n"
    "h[0] = tanh(x[0])\n"
    "h[t] = tanh(h[t-1] @ W + x[t])\n"
    "out y = sum(h[0:T], dim=0)\n";

/// The types of the matmuls' right operands, in node order.
std::vector<std::string> rightOperands(const Graph& g) {
  std::vector<std::string> out;
  for (const auto& [id, n] : g.nodes())
    if (n.op == OpKind::MatMul)
      for (const Edge* in : g.inputs(id))
        if (in->inputIndex == 1) out.push_back(g.readType(*in).str());
  return out;
}

TEST(WeightPanels, AStepsProductReadsTheWeightsAsPanelsCopiedOnceWithTheSameOutputs) {
  for (const std::string& source : {recurrence(4, 512), std::string(kVector)}) {
    SCOPED_TRACE(source);
    Graph before = throughPass(source, "view-selection");
    Graph after = throughPass(source, "weight-panels");
    EXPECT_EQ(rightOperands(before), std::vector<std::string>{"f32[512, 512]"}) << printGraph(before);
    EXPECT_EQ(rightOperands(after), std::vector<std::string>{"f32[8, 512, 64]"}) << printGraph(after);
    // The panels are made over W's own (empty) domain: once, not at every step.
    bool panels = false;
    for (const auto& [id, n] : after.nodes())
      if (n.op == OpKind::Permute && n.type.str() == "f32[8, 512, 64]") {
        panels = true;
        EXPECT_TRUE(n.domain.empty()) << printGraph(after);
        EXPECT_FALSE(n.attrs.view) << "the panels are a copy";
      }
    EXPECT_TRUE(panels) << printGraph(after);
    expectSameOutputs(evaluate(before), evaluate(after), 0, "panels");
  }
}

TEST(WeightPanels, ManyRowsASmallMatrixAnUnevenWidthOrFewStepsKeepTheProduct) {
  for (const std::string& source : {recurrence(64, 512), recurrence(4, 256), recurrence(4, 520), recurrence(4, 512, 8)}) {
    SCOPED_TRACE(source);
    Graph g = throughPass(source, "view-selection");
    const std::string text = printGraph(g);
    GraphChange change = runPass(g, "weight-panels");
    EXPECT_TRUE(change.empty()) << printGraph(g);
    EXPECT_EQ(printGraph(g), text);
  }
}

}  // namespace
}  // namespace tempo::testing
