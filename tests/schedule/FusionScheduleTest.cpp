// The fusion schedule on hand-built graphs: statements at the same point
// share a loop, a whole read closes it, a training step is one loop over
// iterations with a forward and a backward loop over time inside, a statement
// computed only for a later loop sinks into it, and a cycle at one point is an
// IslError naming its statements (the scheduler then asks isl). Every loop
// program is also run at concrete bounds and checked instance by instance.
#include "interp/InterpTestGraphs.h"
#include "schedule/FusionSchedule.h"
#include "schedule/Scheduler.h"

#include "LoopEnumeration.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

using namespace interp_test;

ScheduleResult fusion(const Graph& g, const std::vector<SymbolEnv>& sizes) {
  IslContext ctx;
  ScheduleResult r = computeSchedule(g, ctx);
  EXPECT_EQ(r.used, ScheduleOptions::Algorithm::Fusion) << r.fusionFailure;
  for (const SymbolEnv& bounds : sizes)
    EXPECT_EQ(testing::checkExecutionOrder(g, testing::enumerateExecutions(r.program, bounds), bounds), "");
  return r;
}

TEST(FusionSchedule, StatementsAtTheSamePointShareOneLoop) {
  // a[t] = a[t-1] + 1; y[t] = a[t] + a[t]: one loop, y after a in each step.
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId a = addNode(g, OpKind::Add, {"t"}, f32(), {}, "a");
  NodeId y = addNode(g, OpKind::Add, {"t"}, f32(), {}, "y");
  addEdge(g, a, 0, a, {at(dim("t") - 1)});
  addEdge(g, y, 0, a, {at(dim("t"))});
  addEdge(g, y, 1, a, {at(dim("t"))});
  ScheduleResult r = fusion(g, {{{"T", 1}}, {{"T", 5}}});
  EXPECT_EQ(printLoopProgram(g, r.program),
            "for c0 in 0..T:\n"
            "  exec %0 a[t=c0]\n"
            "  exec %1 y[t=c0]\n");
}

/// a[t] = a[t-1] + 1; s = sum(a[0:T]); z[t] = a[t] + s — or, with `big`,
/// z[t] = big[t] + s where big[t] = expand(a[t]) is 64 floats (T = 8 by default).
Graph wholeReadAfterALoop(bool big) {
  Graph g;
  g.dims = {{"t", "T"}};
  g.boundDefaults["T"] = 8;
  TensorType element = big ? f32({IndexExpr(64)}) : f32();
  NodeId a = addNode(g, OpKind::Add, {"t"}, f32(), {}, "a");
  NodeId b = big ? addNode(g, OpKind::Identity, {"t"}, element, {}, "big") : a;
  NodeId s = addNode(g, OpKind::ReduceSum, {}, f32(), reduceAttrs({0}), "s");
  NodeId z = addNode(g, OpKind::Add, {"t"}, element, {}, "z");
  addEdge(g, a, 0, a, {at(dim("t") - 1)});
  if (big) addEdge(g, b, 0, a, {at(dim("t"))});
  addEdge(g, s, 0, a, {range(0, bound("T"))});
  addEdge(g, z, 0, b, {at(dim("t"))});
  addEdge(g, z, 1, s, {});
  return g;
}

TEST(FusionSchedule, AWholeReadClosesTheLoop) {
  // s needs every step of a: z runs in a second loop.
  Graph g = wholeReadAfterALoop(false);
  ScheduleResult r = fusion(g, {{{"T", 1}}, {{"T", 4}}});
  EXPECT_EQ(printLoopProgram(g, r.program),
            "for c0 in 0..T:\n"
            "  exec %0 a[t=c0]\n"
            "exec %1 s\n"
            "for c0 in 0..T:\n"
            "  exec %2 z[t=c0]\n");
}

TEST(FusionSchedule, ATrainingStepIsOneIterationLoopWithForwardsAndBackwardsTimeInside) {
  // h[i, t] = h[i, t-1] + p[i]; r[i, t] = r[i, t+1] + h[i, t]; p[i] = p[i-1] + r[i-1, 0].
  Graph g;
  g.dims = {{"i", "I"}, {"t", "T"}};
  NodeId p = addNode(g, OpKind::Add, {"i"}, f32(), {}, "p");
  NodeId h = addNode(g, OpKind::Add, {"i", "t"}, f32(), {}, "h");
  NodeId r = addNode(g, OpKind::Add, {"i", "t"}, f32(), {}, "r");
  addEdge(g, h, 0, h, {at(dim("i")), at(dim("t") - 1)});
  addEdge(g, h, 1, p, {at(dim("i"))});
  addEdge(g, r, 0, r, {at(dim("i")), at(dim("t") + 1)});
  addEdge(g, r, 1, h, {at(dim("i")), at(dim("t"))});
  addEdge(g, p, 0, p, {at(dim("i") - 1)});
  addEdge(g, p, 1, r, {at(dim("i") - 1), at(0)});
  ScheduleResult s = fusion(g, {{{"I", 1}, {"T", 1}}, {{"I", 3}, {"T", 4}}});
  EXPECT_EQ(printLoopProgram(g, s.program),
            "for c0 in 0..I:\n"
            "  exec %0 p[i=c0]\n"
            "  for c1 in 0..T:\n"
            "    exec %1 h[i=c0, t=c1]\n"
            "  for c1 in -T + 1..1:\n"
            "    exec %2 r[i=c0, t=-c1]\n");
}

TEST(FusionSchedule, AStatementComputedOnlyForALaterLoopSinksIntoIt) {
  // big is read only by z: computed in a's loop it would be kept for every
  // step; in z's loop, for one.
  Graph g = wholeReadAfterALoop(true);
  ScheduleResult r = fusion(g, {{{"T", 1}}, {{"T", 4}}});
  EXPECT_EQ(printLoopProgram(g, r.program),
            "for c0 in 0..T:\n"
            "  exec %0 a[t=c0]\n"
            "exec %2 s\n"
            "for c0 in 0..T:\n"
            "  exec %1 big[t=c0]\n"
            "  exec %3 z[t=c0]\n");
}

TEST(FusionSchedule, ACycleAtOnePointIsAnErrorNamingItsStatements) {
  Graph g = samePointCycle();
  IslContext ctx;
  DependenceRelations rel = buildDependenceRelations(g, ctx);
  auto domain = islCheck(isl_union_set_read_from_str(ctx.get(), rel.domainUnion().c_str()), ctx.get(), "domain");
  auto validity = islCheck(isl_union_map_read_from_str(ctx.get(), rel.validityUnion().c_str()), ctx.get(), "deps");
  try {
    fusionSchedule(ctx.get(), g, domain.get(), validity.get());
    FAIL() << "expected an IslError";
  } catch (const IslError& e) {
    EXPECT_NE(std::string(e.what()).find("no loop carries the cycle through %0 %1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tempo
