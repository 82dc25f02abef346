// GraphDiff: added/removed/rewritten nodes by id, and the unified text diff.
#include "PassTestUtil.h"

#include "graph/GraphPrinter.h"
#include "pass/GraphDiff.h"

namespace tempo::testing {
namespace {

const char* const kProgram =
    "dim t < T\n"
    "set T = 3\n"
    "input x : f32[] over (t) = normal(seed=1)\n"
    "y = x[t] * 1.0\n"
    "z = y[t] + 2.0\n"
    "out z\n";

TEST(GraphDiff, IdenticalGraphsHaveNoChange) {
  Graph g = lowered(kProgram);
  GraphDiff d = diffGraphs(g, g);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(d.summary(), "no change");
  EXPECT_EQ(unifiedDiff(printGraph(g), printGraph(g), "a", "b"), "");
}

TEST(GraphDiff, FindsAddedRemovedAndRewrittenNodesById) {
  Graph before = lowered(kProgram);
  Graph after = before;
  NodeId y = -1, z = -1;
  for (const auto& [id, n] : after.nodes()) {
    if (n.name == "y") y = id;
    if (n.name == "z") z = id;
  }
  ASSERT_GE(y, 0);
  ASSERT_GE(z, 0);
  after.node(z).op = OpKind::Sub;
  Node extra;
  extra.op = OpKind::Constant;
  extra.attrs.value = 5;
  NodeId added = after.addNode(extra);
  // Remove an unread node: the constant 2.0 stays read, so drop y's constant input instead.
  NodeId one = after.inputs(y).at(1)->producer;
  after.removeNode(y);
  after.removeNode(one);
  GraphDiff d = diffGraphs(before, after);
  EXPECT_EQ(d.added, std::set<NodeId>{added});
  EXPECT_EQ(d.removed, (std::set<NodeId>{std::min(y, one), std::max(y, one)}));
  EXPECT_EQ(d.rewritten, std::set<NodeId>{z});
  EXPECT_FALSE(d.outputsChanged);
  EXPECT_EQ(d.summary(), "1 added, 2 removed, 1 rewritten");
}

TEST(GraphDiff, NoticesRedirectedOutputs) {
  Graph before = lowered(kProgram);
  Graph after = before;
  after.outputs[0].node = 0;
  EXPECT_TRUE(diffGraphs(before, after).outputsChanged);
}

TEST(GraphDiff, UnifiedDiffShowsHunksWithContext) {
  std::string a = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n";
  std::string b = "l1\nl2\nl3\nl4\nX5\nl6\nl7\nl8\nl9\nl10\nl11\n";
  std::string expected =
      "--- a\n+++ b\n"
      "@@ -2,9 +2,10 @@\n"
      " l2\n l3\n l4\n-l5\n+X5\n l6\n l7\n l8\n l9\n l10\n+l11\n";
  EXPECT_EQ(unifiedDiff(a, b, "a", "b"), expected);
}

TEST(GraphDiff, DistantChangesGetSeparateHunks) {
  std::string a, b;
  for (int i = 1; i <= 20; ++i) {
    a += "l" + std::to_string(i) + "\n";
    b += (i == 2 || i == 18 ? "X" : "l") + std::to_string(i) + "\n";
  }
  std::string d = unifiedDiff(a, b, "a", "b");
  EXPECT_NE(d.find("@@ -1,5 +1,5 @@\n l1\n-l2\n+X2\n l3\n l4\n l5\n"), std::string::npos) << d;
  EXPECT_NE(d.find("@@ -15,6 +15,6 @@\n l15\n l16\n l17\n-l18\n+X18\n l19\n l20\n"), std::string::npos) << d;
}

TEST(GraphDiff, InsertionIntoEmptyText) {
  EXPECT_EQ(unifiedDiff("", "a\n", "x", "y"), "--- x\n+++ y\n@@ -0,0 +1,1 @@\n+a\n");
}

TEST(GraphDiff, PassSnapshotDiffMatchesTheTextDiff) {
  Graph g = lowered(kProgram);
  Graph before = g;
  runPass(g, "algebraic-simplification");
  GraphDiff d = diffGraphs(before, g);
  EXPECT_FALSE(d.empty());
  std::string text = unifiedDiff(printGraph(before), printGraph(g), "before", "after");
  EXPECT_NE(text.find("-%"), std::string::npos) << text;
}

}  // namespace
}  // namespace tempo::testing
