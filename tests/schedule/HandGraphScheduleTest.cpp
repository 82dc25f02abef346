// Scheduling hand-built graphs: future reads run backwards, a read of the
// previous step's last layer puts time outside layers, strided reads, the
// fallback when isl's scheduler gives up, and graphs no schedule can order.
// Each schedule is checked by running its loops at concrete bounds.
#include "interp/InterpTestGraphs.h"
#include "schedule/ScheduleCheck.h"
#include "schedule/Scheduler.h"

#include "LoopEnumeration.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

using namespace interp_test;
using Algorithm = ScheduleOptions::Algorithm;

/// g[t] = merge(r[T-1] if t == T-1, r[t] + g[t+1]): returns from the future.
Graph futureRead() {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId r = addNode(g, OpKind::Constant, {"t"}, f32(), constantAttrs(1), "r");
  NodeId m = addNode(g, OpKind::Merge, {"t"}, f32(), {}, "g");
  NodeId add = addNode(g, OpKind::Add, {"t"}, f32());
  addEdge(g, m, 0, r, {at(bound("T") - 1)}, when(dim("t"), Constraint::Rel::Eq, bound("T") - 1));
  addEdge(g, m, 1, add, {at(dim("t"))});
  addEdge(g, add, 0, r, {at(dim("t"))});
  addEdge(g, add, 1, m, {at(dim("t") + 1)});
  return g;
}

/// x[l, t] = merge(c if l == 0 and t == 0, y[L-1, t-1] if l == 0, y[l-1, t]); y = x + 1.
Graph layersOverTime() {
  Graph g;
  g.dims = {{"l", "L"}, {"t", "T"}};
  NodeId c = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(0));
  NodeId x = addNode(g, OpKind::Merge, {"l", "t"}, f32(), {}, "x");
  NodeId one = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(1));
  NodeId y = addNode(g, OpKind::Add, {"l", "t"}, f32(), {}, "y");
  Condition first = when(dim("l"), Constraint::Rel::Eq, 0) && when(dim("t"), Constraint::Rel::Eq, 0);
  addEdge(g, x, 0, c, {}, first);
  addEdge(g, x, 1, y, {at(bound("L") - 1), at(dim("t") - 1)}, when(dim("l"), Constraint::Rel::Eq, 0));
  addEdge(g, x, 2, y, {at(dim("l") - 1), at(dim("t"))});
  addEdge(g, y, 0, x, {at(dim("l")), at(dim("t"))});
  addEdge(g, y, 1, one, {});
  return g;
}

void expectValid(const Graph& g, const LoopProgram& p, const std::vector<SymbolEnv>& sizes) {
  for (const SymbolEnv& bounds : sizes)
    EXPECT_EQ(testing::checkExecutionOrder(g, testing::enumerateExecutions(p, bounds), bounds), "");
}

std::vector<int64_t> timesOf(const Graph& g, const LoopProgram& p, const SymbolEnv& bounds, const std::string& name) {
  std::vector<int64_t> out;
  for (const auto& x : testing::enumerateExecutions(p, bounds))
    if (g.node(x.node).name == name) out.push_back(x.point.back());
  return out;
}

TEST(HandGraphSchedule, AFutureReadRunsTimeBackwards) {
  Graph g = futureRead();
  IslContext ctx;
  for (Algorithm a : {Algorithm::Fusion, Algorithm::Isl, Algorithm::Fallback}) {
    ScheduleResult r = computeSchedule(g, ctx, {a});
    EXPECT_EQ(timesOf(g, r.program, {{"T", 4}}, "g"), (std::vector<int64_t>{3, 2, 1, 0}));
    expectValid(g, r.program, {{{"T", 1}}, {{"T", 2}}, {{"T", 7}}});
  }
}

TEST(HandGraphSchedule, ReadingThePreviousStepsLastLayerPutsTimeOutside) {
  Graph g = layersOverTime();
  IslContext ctx;
  for (Algorithm a : {Algorithm::Fusion, Algorithm::Isl, Algorithm::Fallback}) {
    ScheduleResult r = computeSchedule(g, ctx, {a});
    SymbolEnv bounds{{"L", 3}, {"T", 2}};
    EXPECT_EQ(timesOf(g, r.program, bounds, "y"), (std::vector<int64_t>{0, 0, 0, 1, 1, 1}));
    expectValid(g, r.program, {{{"L", 3}, {"T", 2}}, {{"L", 1}, {"T", 4}}, {{"L", 2}, {"T", 1}}});
  }
}

TEST(HandGraphSchedule, StridedAndWindowReadsAreOrdered) {
  // b[t] = a[t // 2] + a[max(0, t-2):t+1] summed; c[t] = b[2*t mod T] (any order).
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId a = addNode(g, OpKind::Constant, {"t"}, f32(), constantAttrs(1), "a");
  NodeId w = addNode(g, OpKind::Identity, {"t"}, f32({3}), {}, "w");
  NodeId b = addNode(g, OpKind::Add, {"t"}, f32(), {}, "b");
  NodeId c = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "c");
  addEdge(g, w, 0, a, {range(IndexExpr::max(0, dim("t") - 2), dim("t") + 1)});
  addEdge(g, b, 0, a, {at(IndexExpr::floorDiv(dim("t"), 2))});
  addEdge(g, b, 1, w, {at(dim("t"))});
  addEdge(g, c, 0, b, {at(IndexExpr::mod(2 * dim("t"), 5))});
  IslContext ctx;
  for (Algorithm alg : {Algorithm::Fusion, Algorithm::Isl, Algorithm::Fallback}) {
    LoopProgram p = computeSchedule(g, ctx, {alg}).program;
    expectValid(g, p, {{{"T", 1}}, {{"T", 5}}, {{"T", 9}}});
  }
}

TEST(HandGraphSchedule, IslOutOfBudgetFallsBackWithAReason) {
  Graph g = layersOverTime();
  IslContext ctx;
  ScheduleOptions options;
  options.algorithm = Algorithm::Isl;
  options.maxIslOperations = 1;
  ScheduleResult r = computeSchedule(g, ctx, options);
  EXPECT_TRUE(r.usedFallback);
  EXPECT_NE(r.fallbackReason.find("budget"), std::string::npos) << r.fallbackReason;
  expectValid(g, r.program, {{{"L", 2}, {"T", 3}}});
  // The budget is restored: the next schedule uses isl again.
  EXPECT_FALSE(computeSchedule(g, ctx, {Algorithm::Isl}).usedFallback);
}

TEST(HandGraphSchedule, AZeroDistanceCycleCannotBeScheduled) {
  Graph g = samePointCycle();
  IslContext ctx;
  EXPECT_THROW(computeSchedule(g, ctx), IslError);
  EXPECT_THROW(computeSchedule(g, ctx, {Algorithm::Fallback}), IslError);
}

TEST(HandGraphSchedule, AnEmptyGraphHasAnEmptyProgram) {
  Graph g;
  IslContext ctx;
  EXPECT_TRUE(scheduleGraph(g, ctx).body.empty());
}

TEST(HandGraphSchedule, HoistedStatementsRunFirstInDependenceOrder) {
  // A scalar chain c2 = c1 + c0 with no domain, read by a loop over t.
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId sum = addNode(g, OpKind::Add, {}, f32(), {}, "c2");
  NodeId c0 = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(1), "c0");
  NodeId c1 = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(2), "c1");
  NodeId x = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "x");
  addEdge(g, sum, 0, c1, {});
  addEdge(g, sum, 1, c0, {});
  addEdge(g, x, 0, sum, {});
  IslContext ctx;
  ScheduleResult r = computeSchedule(g, ctx);
  EXPECT_FALSE(r.usedFallback);
  EXPECT_EQ(printLoopProgram(g, r.program),
            "exec %1 c0\n"
            "exec %2 c1\n"
            "exec %0 c2\n"
            "for c0 in 0..T:\n"
            "  exec %3 x[t=c0]\n");
}

TEST(HandGraphSchedule, ABoundNamedLikeAnIteratorGetsOtherLoopNames) {
  Graph g;
  g.dims = {{"t", "c0"}};
  NodeId a = addNode(g, OpKind::Constant, {"t"}, f32(), constantAttrs(1), "a");
  NodeId b = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "b");
  addEdge(g, b, 0, a, {at(dim("t"))});
  IslContext ctx;
  LoopProgram p = scheduleGraph(g, ctx);
  std::string text = printLoopProgram(g, p);
  EXPECT_NE(text.find("for i0 in 0..c0:"), std::string::npos) << text;
  expectValid(g, p, {{{"c0", 3}}});
}

}  // namespace
}  // namespace tempo
