// PermuteSinking in the default pipeline: the permute that vectorisation puts in front
// of a hoisted product (x[0:T, 0:B] permuted to [B, T, H]) is gone once the pass has run,
// every step reads its row of the product as a window (a slice along the leading axis),
// and the graph still gives the reference interpreter's outputs bit for bit.
#include "PassTestUtil.h"

#include "graph/GraphPrinter.h"

namespace tempo::testing {
namespace {

const char* const kRnn =
    "dim t < T\n"
    "dim b < B\n"
    "set T = 5, B = 3\n"
    "input x : f32[4] over (t, b) = normal(seed=1)\n"
    "param W : f32[4, 4] = normal(seed=2, std=0.5)\n"
    "param U : f32[4, 4] = normal(seed=3, std=0.5)\n"
    "h : f32[4] over (t, b)\n"
    "h[0, b] = tanh(x[0, b] @ W)\n"
    "h[t, b] = tanh(x[t, b] @ W + h[t-1, b] @ U)\n"
    "out y = sum(h[0:T, b], dim=0)\n";

int count(const Graph& g, OpKind op) {
  int n = 0;
  for (const auto& [id, node] : g.nodes()) n += node.op == op;
  return n;
}

TEST(PermuteSinking, HoistedProductReadsTheWindowInPlaceAndStepsTakeWindowsOfIt) {
  Graph before = throughPass(kRnn, "vectorisation");
  ASSERT_EQ(count(before, OpKind::Permute), 1) << printGraph(before);
  Graph after = throughPass(kRnn, "permute-sinking");
  EXPECT_EQ(count(after, OpKind::Permute), 0) << printGraph(after);
  // The hoisted product over every step reads x's window as it lies: t first.
  bool hoisted = false;
  for (const auto& [id, n] : after.nodes()) {
    if (n.op != OpKind::MatMul || !n.domain.empty() || n.type.rank() != 3) continue;
    hoisted = true;
    EXPECT_EQ(n.type.str(), "f32[T, B, 4]");
    for (const Edge* user : after.users(id)) {
      const Node& slice = after.node(user->consumer);
      EXPECT_EQ(slice.op, OpKind::Slice);
      EXPECT_EQ(slice.attrs.axis, 0) << "a step's row is a window along the leading axis";
    }
  }
  EXPECT_TRUE(hoisted) << printGraph(after);
  expectSameOutputs(evaluate(before), evaluate(after), 0, "rnn");
}

TEST(PermuteSinking, ChangesNothingWithoutAPermute) {
  Graph g = lowered("input v : f32[4] = normal(seed=1)\nout w = v * 2.0\n");
  const std::string text = printGraph(g);
  GraphChange change = runPass(g, "permute-sinking");
  EXPECT_TRUE(change.empty());
  EXPECT_EQ(printGraph(g), text);
}

}  // namespace
}  // namespace tempo::testing
