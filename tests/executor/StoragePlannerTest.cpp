// The storage planner on hand-built graphs and schedules: which store each
// node gets, that the planned run gives the same values with a lower peak,
// and that a wrong plan is caught by the stores instead of reading stale values.
#include "ExecutorTestSupport.h"

#include "executor/Executor.h"
#include "memory/StoragePlanner.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

using namespace interp_test;
using namespace exec_test;
using Rel = Constraint::Rel;

const IndexExpr t = dim("t");
const IndexExpr T = bound("T");

/// acc[t] = v[t] (t == 0) else acc[t - 1] + v[t]; out o[t] = acc[t] + acc[t - 1 or t]; v[t] = t + 1.
struct RunningSum {
  Graph g;
  NodeId v, add, acc, o;
  RunningSum() {
    g.dims = {{"t", "T"}};
    g.boundDefaults = {{"T", 6}};
    v = addNode(g, OpKind::EvalIndex, {"t"}, f32({2}), indexAttrs(t + 1), "v");
    g.node(v).type = f32();
    add = addNode(g, OpKind::Add, {"t"}, f32());
    acc = addNode(g, OpKind::Merge, {"t"}, f32(), {}, "acc");
    o = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "o");
    addEdge(g, add, 0, acc, {at(t - 1)});
    addEdge(g, add, 1, v, {at(t)});
    addEdge(g, acc, 0, v, {at(t)}, interp_test::when(t, Rel::Eq, 0));
    addEdge(g, acc, 1, add, {at(t)}, interp_test::when(t, Rel::Ge, 1));
    addEdge(g, o, 0, acc, {at(t)});
    g.outputs = {{"o", o, {}}};
  }
  LoopProgram fused() const {
    return {{loop("t", 0, T, {exec(v, {t}), exec_test::when(interp_test::when(t, Rel::Ge, 1), {exec(add, {t})}),
                              exec(acc, {t}), exec(o, {t})})}};
  }
};

TEST(StoragePlanner, PicksPointCircularAndWhole) {
  RunningSum k;
  LoopProgram p = k.fused();
  SymbolEnv bounds{{"T", 6}};
  StoragePlan plan = planStorage(k.g, p, bounds);
  EXPECT_EQ(plan.at(k.v).kind, StoreKind::Point);
  EXPECT_EQ(plan.at(k.add).kind, StoreKind::Point);
  EXPECT_EQ(plan.at(k.acc).kind, StoreKind::Circular);
  EXPECT_EQ(plan.at(k.acc).window, 2);
  EXPECT_EQ(plan.at(k.o).kind, StoreKind::Whole);  // an output
  EXPECT_EQ(plan.at(k.acc).predictedBytes, 8);
  EXPECT_EQ(plan.at(k.o).predictedBytes, 24);

  Executor whole(k.g, p, {bounds, std::nullopt});
  whole.run();
  Executor planned(k.g, p, {bounds, plan});
  planned.run();
  EXPECT_EQ(values(planned.outputs()[0].second), (std::vector<double>{1, 3, 6, 10, 15, 21}));
  EXPECT_EQ(values(whole.outputs()[0].second), values(planned.outputs()[0].second));
  // Distinct buffers only: v's store holds windows of its array, and acc (a
  // merge) holds v's and add's values themselves (add runs only for t >= 1).
  EXPECT_EQ(whole.stats().peakBytes, 44);
  EXPECT_EQ(planned.stats().peakBytes, 28);
  EXPECT_LT(planned.stats().peakBytes, whole.stats().peakBytes);
  EXPECT_LE(planned.stats().peakBytes, predictedTotalBytes(plan));  // the plain sum counts shared buffers twice
}

TEST(StoragePlanner, SplitLoopsKeepWholeStores) {
  // v is computed for every t in a first loop and read in a second: no point store.
  RunningSum k;
  LoopProgram p{{loop("t", 0, T, {exec(k.v, {t})}),
                 loop("t", 0, T, {exec_test::when(interp_test::when(t, Rel::Ge, 1), {exec(k.add, {t})}),
                                  exec(k.acc, {t})}),
                 loop("t", 0, T, {exec(k.o, {t})})}};
  StoragePlan plan = planStorage(k.g, p, {{"T", 6}});
  EXPECT_EQ(plan.at(k.v).kind, StoreKind::Whole);
  EXPECT_EQ(plan.at(k.acc).kind, StoreKind::Whole);  // o reads it in another loop
  EXPECT_EQ(plan.at(k.add).kind, StoreKind::Point);
  Executor ex(k.g, p, {{{"T", 6}}, plan});
  ex.run();
  EXPECT_EQ(values(ex.outputs()[0].second), (std::vector<double>{1, 3, 6, 10, 15, 21}));
}

/// m[t] = sum(v[max(0, t - 2):t + 1]) read in the same loop, v[t] = 2 t.
struct SlidingSum {
  Graph g;
  NodeId v, m;
  LoopProgram p;
  SlidingSum() {
    g.dims = {{"t", "T"}};
    v = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t * 2), "v");
    m = addNode(g, OpKind::ReduceSum, {"t"}, f32(), reduceAttrs({0}), "m");
    addEdge(g, m, 0, v, {range(IndexExpr::max(0, t - 2), t + 1)});
    g.outputs = {{"m", m, {}}};
    p = {{loop("t", 0, T, {exec(v, {t}), exec(m, {t})})}};
  }
};

TEST(StoragePlanner, SlidingWindowGetsItsWidth) {
  SlidingSum k;
  Graph& g = k.g;
  NodeId v = k.v;
  LoopProgram& p = k.p;
  StoragePlan plan = planStorage(g, p, {{"T", 10}});
  ASSERT_EQ(plan.at(v).kind, StoreKind::Circular);
  EXPECT_EQ(plan.at(v).window, 3);
  Executor ex(g, p, {{{"T", 10}}, plan});
  ex.run();
  EXPECT_EQ(values(ex.outputs()[0].second), (std::vector<double>{0, 2, 6, 12, 18, 24, 30, 36, 42, 48}));
  EXPECT_EQ(ex.stats().peakBytes, 3 * 4 + 10 * 4);
  // A growing window 0:t+1 keeps every point.
  g.edge(0).index = {range(0, t + 1)};
  EXPECT_EQ(planStorage(g, p, {{"T", 10}}).at(v).kind, StoreKind::Whole);
}

// A window of large values read by a kernel that makes a fresh value keeps them in one
// buffer (2 * window lanes) and is read in place; read by an identity, which would keep a
// view of lanes written again later, it is not; nor are small values (SlidingSum's).
TEST(StoragePlanner, LargeWindowsReadByFreshKernelsKeepOneBuffer) {
  Graph g;
  g.dims = {{"t", "T"}};
  g.boundDefaults = {{"T", 10}};
  NodeId h = addNode(g, OpKind::HashInit, {"t"}, f32({16384}), hashAttrs(5, 1.0), "h");
  NodeId v = addNode(g, OpKind::Neg, {"t"}, f32({16384}), {}, "v");
  NodeId m = addNode(g, OpKind::ReduceSum, {"t"}, f32({16384}), reduceAttrs({0}), "m");
  addEdge(g, v, 0, h, {at(t)});
  addEdge(g, m, 0, v, {range(IndexExpr::max(0, t - 2), t + 1)});
  g.outputs = {{"m", m, {}}};
  LoopProgram p{{loop("t", 0, T, {exec(h, {t}), exec(v, {t}), exec(m, {t})})}};
  StoragePlan plan = planStorage(g, p, {{"T", 10}});
  ASSERT_EQ(plan.at(v).kind, StoreKind::Circular);
  EXPECT_TRUE(plan.at(v).oneBuffer);
  EXPECT_EQ(storeSpecName(plan.at(v), g.node(v).domain), "circular(t, 3) in one buffer");
  EXPECT_EQ(plan.at(v).predictedBytes, 2 * 3 * 65536);
  Executor planned(g, p, {{{"T", 10}}, plan});
  planned.run();
  EXPECT_EQ(planned.memory().nodePeakBytes(v), 2 * 3 * 65536);
  Executor whole(g, p, {{{"T", 10}}, std::nullopt});
  whole.run();
  EXPECT_EQ(values(planned.outputs()[0].second), values(whole.outputs()[0].second));
  g.node(m).op = OpKind::Identity;
  EXPECT_FALSE(planStorage(g, p, {{"T", 10}}).at(v).oneBuffer);
  SlidingSum small;
  EXPECT_FALSE(planStorage(small.g, small.p, {{"T", 10}}).at(small.v).oneBuffer);
}

// A window of W steps with W a bound (decode_window_peer's `k[b, l, max(0, t-W+1):t+1]`)
// keeps W coordinates, evaluated when the store is made: the size is printed in W.
TEST(StoragePlanner, AWindowWhoseWidthIsABoundKeepsThatManyCoordinates) {
  SlidingSum k;
  k.g.dims.push_back({"w", "W"});
  k.g.edge(0).index = {range(IndexExpr::max(0, t - bound("W") + 1), t + 1)};
  StoragePlan plan = planStorage(k.g, k.p, {{"T", 10}, {"W", 4}});
  ASSERT_EQ(plan.at(k.v).kind, StoreKind::Circular) << plan.at(k.v).reason;
  EXPECT_EQ(plan.at(k.v).window.str(), "max(1, W)");
  EXPECT_EQ(plan.at(k.v).predictedBytes, 4 * 4);
  EXPECT_EQ(planStorage(k.g, k.p, {{"T", 10}, {"W", 40}}).at(k.v).predictedBytes, 10 * 4);  // at most T
  Executor ex(k.g, k.p, {{{"T", 10}, {"W", 4}}, plan});
  ex.run();
  EXPECT_EQ(values(ex.outputs()[0].second), (std::vector<double>{0, 2, 6, 12, 20, 28, 36, 44, 52, 60}));
  EXPECT_EQ(ex.stats().peakBytes, 4 * 4 + 10 * 4);
}

// A reader after the loop of the last coordinates (decode's `last = y[T - 1]`)
// needs only as many as it reads from the end; one inside the loop does not count.
TEST(StoragePlanner, TheLastCoordinatesReadAfterTheLoopStayCircular) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId v = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t * 3), "v");
  NodeId last = addNode(g, OpKind::Add, {}, f32(), {}, "last");
  addEdge(g, last, 0, v, {at(T - 1)});
  addEdge(g, last, 1, v, {at(T - 3)});
  g.outputs = {{"last", last, {}}};
  LoopProgram after = {{loop("t", 0, T, {exec(v, {t})}), exec(last, {})}};
  StoragePlan plan = planStorage(g, after, {{"T", 10}});
  ASSERT_EQ(plan.at(v).kind, StoreKind::Circular) << plan.at(v).reason;
  EXPECT_EQ(plan.at(v).window, 3);
  Executor ex(g, after, {{{"T", 10}}, plan});
  ex.run();
  EXPECT_EQ(values(ex.outputs()[0].second), (std::vector<double>{27 + 21}));
  // Before the loop has finished, the last coordinates are not written yet.
  LoopProgram before = {{exec(last, {}), loop("t", 0, T, {exec(v, {t})})}};
  EXPECT_EQ(planStorage(g, before, {{"T", 10}}).at(v).kind, StoreKind::Whole);
}

// A backward loop's last coordinate is its lowest: t = -c0 for c0 in -T + 1..1 ends at t = 0, so
// a reader of v[0] after it (autodiff's first-step gradient, computed once) leaves v circular.
TEST(StoragePlanner, TheLastCoordinateOfABackwardLoopReadAfterItStaysCircular) {
  Graph g;
  g.dims = {{"t", "T"}};
  const IndexExpr c0 = dim("c0");
  NodeId v = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t * 3 + 1), "v");
  NodeId o = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "o");
  NodeId first = addNode(g, OpKind::Identity, {}, f32(), {}, "first");
  addEdge(g, o, 0, v, {at(t)});
  addEdge(g, first, 0, v, {at(0)});
  g.outputs = {{"o", o, {}}, {"first", first, {}}};
  LoopProgram after = {{loop("c0", 1 - T, 1, {exec(v, {-c0}), exec(o, {-c0})}), exec(first, {})}};
  StoragePlan plan = planStorage(g, after, {{"T", 5}});
  ASSERT_EQ(plan.at(v).kind, StoreKind::Circular) << plan.at(v).reason;
  EXPECT_EQ(plan.at(v).window, 1);
  Executor ex(g, after, {{{"T", 5}}, plan});
  ex.run();
  EXPECT_EQ(values(ex.outputs()[0].second), (std::vector<double>{1, 4, 7, 10, 13}));
  EXPECT_EQ(values(ex.outputs()[1].second), (std::vector<double>{1}));
  // v[T - 1] is the first the loop writes: gone by the end.
  g.edge(g.inputs(first).front()->id).index = {at(T - 1)};
  EXPECT_EQ(planStorage(g, after, {{"T", 5}}).at(v).kind, StoreKind::Whole);
}

TEST(StoragePlanner, WrongPlanIsCaughtByTheStores) {
  SlidingSum k;
  StoragePlan tooSmall = planStorage(k.g, k.p, {{"T", 10}});
  tooSmall[k.v] = StoreSpec::circular(0, 2);  // v[t - 2] needs a window of 3
  Executor ex(k.g, k.p, {{{"T", 10}}, tooSmall});
  try {
    ex.run();
    FAIL() << "expected an ExecError";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("evicted"), std::string::npos) << e.what();
    EXPECT_EQ(e.node, k.v);
    EXPECT_EQ(e.point, (std::vector<int64_t>{0}));
  }
  StoragePlan pointOutput;
  pointOutput[k.m] = StoreSpec::point();
  Executor ex2(k.g, k.p, {{{"T", 10}}, pointOutput});
  ex2.run();
  EXPECT_THROW(ex2.outputs(), ExecError);
}

TEST(StoragePlanner, LookAheadInABackwardLoop) {
  // f[t] = v[t] + f[t + 1] (f[T - 1] = v[T - 1]); out o = f[t] * 1 read in the same backward loop.
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId v = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t), "v");
  NodeId add = addNode(g, OpKind::Add, {"t"}, f32());
  NodeId f = addNode(g, OpKind::Merge, {"t"}, f32(), {}, "f");
  NodeId o = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "o");
  addEdge(g, add, 0, v, {at(t)});
  addEdge(g, add, 1, f, {at(t + 1)});
  addEdge(g, f, 0, v, {at(t)}, interp_test::when(t, Rel::Eq, T - 1));
  addEdge(g, f, 1, add, {at(t)}, interp_test::when(t, Rel::Lt, T - 1));
  addEdge(g, o, 0, f, {at(t)});
  g.outputs = {{"o", o, {}}};
  LoopProgram p{{loop("t", 0, T, {exec(v, {t}), exec_test::when(interp_test::when(t, Rel::Lt, T - 1), {exec(add, {t})}),
                                  exec(f, {t}), exec(o, {t})}, -1)}};
  StoragePlan plan = planStorage(g, p, {{"T", 5}});
  ASSERT_EQ(plan.at(f).kind, StoreKind::Circular);
  EXPECT_EQ(plan.at(f).window, 2);
  Executor ex(g, p, {{{"T", 5}}, plan});
  ex.run();
  EXPECT_EQ(values(ex.outputs()[0].second), (std::vector<double>{10, 10, 9, 7, 4}));
  // The same reads in a forward loop are not circular.
  std::get<ForStmt>(p.body[0].node).step = 1;
  EXPECT_EQ(planStorage(g, p, {{"T", 5}}).at(f).kind, StoreKind::Whole);
}


/// v[t] = 2 t runs only when b == 0, inside `for b: for t:`; r[b, t] reads it
/// for every b: a[b, t] = v[t], or m[b, t] = sum(v[max(0, t - 1):t + 1]).
struct FirstIterationProducer {
  Graph g;
  NodeId v, r;
  LoopProgram p;
  explicit FirstIterationProducer(bool window) {
    g.dims = {{"b", "B"}, {"t", "T"}};
    const IndexExpr b = dim("b"), B = bound("B");
    v = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t * 2), "v");
    if (window) {
      r = addNode(g, OpKind::ReduceSum, {"b", "t"}, f32(), reduceAttrs({0}), "m");
      addEdge(g, r, 0, v, {range(IndexExpr::max(0, t - 1), t + 1)});
    } else {
      r = addNode(g, OpKind::Identity, {"b", "t"}, f32(), {}, "a");
      addEdge(g, r, 0, v, {at(t)});
    }
    g.outputs = {{"r", r, {}}};
    p = {{loop("b", 0, B, {loop("t", 0, T, {exec_test::when(interp_test::when(b, Rel::Eq, 0), {exec(v, {t})}),
                                            exec(r, {b, t})})})}};
  }
};

TEST(StoragePlanner, ProducerRunInOneOuterIterationOnlyIsNotPointOrCircular) {
  // Every b > 0 reads values written B - 1 loops of t ago: neither the latest
  // point nor a window along t holds them (regression: seed 5 of the generated programs).
  SymbolEnv bounds{{"B", 3}, {"T", 4}};
  for (bool window : {true, false}) {
    FirstIterationProducer k(window);
    StoragePlan plan = planStorage(k.g, k.p, bounds);
    EXPECT_EQ(plan.at(k.v).kind, StoreKind::Whole) << printStoragePlan(k.g, plan);
    Executor planned(k.g, k.p, {bounds, plan});
    planned.run();
    std::vector<double> row = window ? std::vector<double>{0, 2, 6, 10} : std::vector<double>{0, 2, 4, 6};
    std::vector<double> all;
    for (int i = 0; i < 3; ++i) all.insert(all.end(), row.begin(), row.end());
    EXPECT_EQ(values(planned.outputs()[0].second), all);
  }
}

TEST(StoragePlanner, GuardedProducerIsPointWhenItsGuardCoversTheRead) {
  // The guard of the producer (b == 0) is implied by the reader's own guard and edge
  // condition (b == 0 too): a point store is safe; under `b < 2` it is not.
  Graph g;
  g.dims = {{"b", "B"}, {"t", "T"}};
  const IndexExpr b = dim("b"), B = bound("B");
  NodeId v = addNode(g, OpKind::EvalIndex, {"b", "t"}, f32(), indexAttrs(t * 2), "v");
  NodeId z = addNode(g, OpKind::Constant, {"b", "t"}, f32(), constantAttrs(0), "z");
  NodeId h = addNode(g, OpKind::Merge, {"b", "t"}, f32(), {}, "h");
  addEdge(g, h, 0, v, {at(b), at(t)}, interp_test::when(b, Rel::Eq, 0));
  addEdge(g, h, 1, z, {at(b), at(t)}, interp_test::when(b, Rel::Ge, 1));
  g.outputs = {{"h", h, {}}};
  auto schedule = [&](Condition guard) {
    return LoopProgram{{loop("b", 0, B, {loop("t", 0, T, {exec_test::when(guard, {exec(v, {b, t})}),
                                                         exec(z, {b, t}), exec(h, {b, t})})})}};
  };
  SymbolEnv bounds{{"B", 3}, {"T", 4}};
  LoopProgram exact = schedule(interp_test::when(b, Rel::Eq, 0));
  EXPECT_EQ(planStorage(g, exact, bounds).at(v).kind, StoreKind::Point);
  LoopProgram wider = schedule(interp_test::when(b, Rel::Lt, 2));
  EXPECT_EQ(planStorage(g, wider, bounds).at(v).kind, StoreKind::Point);  // runs where read, and more
  LoopProgram narrower = schedule(interp_test::when(t, Rel::Lt, 2));
  EXPECT_NE(planStorage(g, narrower, bounds).at(v).kind, StoreKind::Point);  // not run at (0, 3)
}

}  // namespace
}  // namespace tempo
