// Statement clusters: chains of same-point statements that isl schedules as
// one, the clusters left out because a dependence inside them runs backwards
// at one point, and the retry without clusters when a path leaves a cluster
// and comes back at the same point. Every schedule is checked by running its
// loops at concrete bounds.
#include "interp/InterpTestGraphs.h"
#include "schedule/Scheduler.h"
#include "schedule/StatementClusters.h"

#include "LoopEnumeration.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

using namespace interp_test;

void expectValid(const Graph& g, const LoopProgram& p, const std::vector<SymbolEnv>& sizes) {
  for (const SymbolEnv& bounds : sizes)
    EXPECT_EQ(testing::checkExecutionOrder(g, testing::enumerateExecutions(p, bounds), bounds), "");
}

const std::vector<SymbolEnv> kSizes = {{{"T", 1}}, {{"T", 2}}, {{"T", 6}}};

/// Clusters are an input of isl's scheduler (the fusion schedule needs none).
ScheduleOptions islOnly() { return {ScheduleOptions::Algorithm::Isl}; }

/// h[t] = merge(c if t == 0, s[t] if t > 0), s = p + 1, p = 2 * h[t-1].
Graph recurrence() {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId c = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(1), "c");
  NodeId h = addNode(g, OpKind::Merge, {"t"}, f32(), {}, "h");
  NodeId p = addNode(g, OpKind::Mul, {"t"}, f32(), {}, "p");
  NodeId s = addNode(g, OpKind::Add, {"t"}, f32(), {}, "s");
  NodeId two = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(2));
  addEdge(g, h, 0, c, {}, when(dim("t"), Constraint::Rel::Eq, 0));
  addEdge(g, h, 1, s, {at(dim("t"))}, when(dim("t"), Constraint::Rel::Gt, 0));
  addEdge(g, p, 0, h, {at(dim("t") - 1)});
  addEdge(g, p, 1, two, {});
  addEdge(g, s, 0, p, {at(dim("t"))});
  addEdge(g, s, 1, two, {});
  return g;
}

TEST(StatementClusters, AStepsChainIsOneClusterWithItsRootLast) {
  Graph g = recurrence();
  IslContext ctx;
  StatementClusters c = clusterStatements(g, buildDependenceRelations(g, ctx), ctx);
  EXPECT_EQ(c.str(), "%1 <- %2 %3\n");  // h <- p s, in dependence order
  EXPECT_EQ(c.clusteredStatements(), 3u);
  ScheduleResult r = computeSchedule(g, ctx, islOnly());
  EXPECT_FALSE(r.usedFallback);
  EXPECT_EQ(r.clusters.str(), c.str());
  expectValid(g, r.program, kSizes);
}

TEST(StatementClusters, AValueReadElsewhereOrAtAnotherPointStaysItsOwnStatement) {
  Graph g = recurrence();
  NodeId p = 2;
  NodeId late = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "late");
  addEdge(g, late, 0, p, {at(IndexExpr::max(0, dim("t") - 1))});
  IslContext ctx;
  StatementClusters c = clusterStatements(g, buildDependenceRelations(g, ctx), ctx);
  EXPECT_EQ(c.str(), "%1 <- %3\n");  // p has a reader outside: only s joins h
  expectValid(g, computeSchedule(g, ctx, islOnly()).program, kSizes);
}

/// g[t] = merge(c if t == T-1, f[t] if t < T-1), f = g[min(t + 1, T - 1)] + 1:
/// f at T-1 reads g at T-1, which takes the other branch.
Graph lastStepReadsItself(bool throughAnotherStatement) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId c = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(1), "c");
  NodeId m = addNode(g, OpKind::Merge, {"t"}, f32(), {}, "g");
  NodeId f = addNode(g, OpKind::Add, {"t"}, f32(), {}, "f");
  NodeId one = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(1));
  Condition last = when(dim("t"), Constraint::Rel::Eq, bound("T") - 1);
  addEdge(g, m, 0, c, {}, last);
  addEdge(g, m, 1, f, {at(dim("t"))}, when(dim("t"), Constraint::Rel::Lt, bound("T") - 1));
  IndexExpr next = IndexExpr::min(dim("t") + 1, bound("T") - 1);
  if (throughAnotherStatement) {
    // x reads g there and has a reader of its own, so it is in no cluster.
    NodeId x = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "x");
    NodeId y = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "y");
    addEdge(g, x, 0, m, {at(next)});
    addEdge(g, y, 0, x, {at(IndexExpr::max(0, dim("t") - 1))});
    addEdge(g, f, 0, x, {at(dim("t"))});
  } else {
    addEdge(g, f, 0, m, {at(next)});
  }
  addEdge(g, f, 1, one, {});
  return g;
}

TEST(StatementClusters, AClusterWhoseRootAMemberReadsAtTheSamePointIsLeftOut) {
  Graph g = lastStepReadsItself(false);
  IslContext ctx;
  EXPECT_EQ(clusterStatements(g, buildDependenceRelations(g, ctx), ctx).str(), "");
  ScheduleResult r = computeSchedule(g, ctx, islOnly());
  EXPECT_FALSE(r.usedFallback) << r.fallbackReason;
  expectValid(g, r.program, kSizes);
}

TEST(StatementClusters, APathBackIntoTheClusterAtTheSamePointSchedulesWithoutClusters) {
  Graph g = lastStepReadsItself(true);
  IslContext ctx;
  ASSERT_NE(clusterStatements(g, buildDependenceRelations(g, ctx), ctx).str(), "");  // {f, g}
  ScheduleResult r = computeSchedule(g, ctx, islOnly());
  EXPECT_FALSE(r.usedFallback) << r.fallbackReason;
  EXPECT_EQ(r.clusters.str(), "");  // scheduled again without them
  expectValid(g, r.program, kSizes);
  // The statements run in one order at T - 1 and in another elsewhere: no
  // loop nest of the fusion schedule's shape has that, so it says why and
  // the default scheduling falls back to isl's.
  ScheduleResult byDefault = computeSchedule(g, ctx);
  EXPECT_EQ(byDefault.used, ScheduleOptions::Algorithm::Isl);
  EXPECT_NE(byDefault.fusionFailure.find("no loop carries the cycle through %1 %2 %4"), std::string::npos)
      << byDefault.fusionFailure;
  expectValid(g, byDefault.program, kSizes);
}

TEST(StatementClusters, ClusteringCanBeTurnedOff) {
  Graph g = recurrence();
  IslContext ctx;
  ScheduleOptions options = islOnly();
  options.clusterStatements = false;
  ScheduleResult r = computeSchedule(g, ctx, options);
  EXPECT_TRUE(r.clusters.clusters.empty());
  expectValid(g, r.program, kSizes);
}

TEST(StatementClusters, TheContractionMapsEveryStatementToItsRoot) {
  Graph g = recurrence();
  IslContext ctx;
  StatementClusters c = clusterStatements(g, buildDependenceRelations(g, ctx), ctx);
  EXPECT_EQ(c.contractionText(g, {"T"}),
            "[T] -> { S_0[] -> S_0[]; S_1[c0] -> S_1[c0]; S_2[c0] -> S_1[c0]; S_3[c0] -> S_1[c0]; S_4[] -> S_4[] }");
  EXPECT_EQ(c.positionText(g, {"T"}), "[T] -> { S_0[] -> [0]; S_1[c0] -> [2]; S_2[c0] -> [0]; S_3[c0] -> [1]; S_4[] -> [0] }");
}

}  // namespace
}  // namespace tempo
