// The executor on hand-built graphs and hand-written loop programs: values
// against hand-computed numbers and the reference interpreter, loud errors
// for wrong schedules, and memory statements.
#include "ExecutorTestSupport.h"

#include "executor/Executor.h"
#include "interp/ReferenceInterpreter.h"

#include <gtest/gtest.h>

#include <atomic>

namespace tempo {
namespace {

using namespace interp_test;
using namespace exec_test;
using Rel = Constraint::Rel;

const IndexExpr t = dim("t");
const IndexExpr T = bound("T");

struct Counter {
  Graph g;
  NodeId one, inc, c;
  Counter() {
    CounterGraph k = buildCounter(g);
    one = k.one;
    inc = k.inc;
    c = k.c;
    g.boundDefaults = {{"T", 5}};
  }
  LoopProgram schedule() const {
    return {{exec(one), loop("t", 0, T, {exec_test::when(interp_test::when(t, Rel::Ge, 1), {exec(inc, {t})}),
                                         exec(c, {t})})}};
  }
};

void expectMatchesInterpreter(const Graph& g, const Executor& ex, const SymbolEnv& bounds) {
  ReferenceInterpreter ref(g, {bounds});
  auto expected = ref.evaluateOutputs();
  auto actual = ex.outputs();
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(expected[i].first, actual[i].first);
    // Exact but for the CPU kernels' f32 tanh, within 1 ulp of the reference (FastMath.h).
    EXPECT_TRUE(closeTensors(expected[i].second, actual[i].second, 0x1p-23)) << expected[i].first;
  }
}

TEST(Executor, CounterMatchesHandValuesAndInterpreter) {
  Counter k;
  LoopProgram p = k.schedule();
  Executor ex(k.g, p, {});
  ex.run();
  auto out = ex.outputs();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].second.shape(), (std::vector<int64_t>{5}));
  EXPECT_EQ(values(out[0].second), (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_EQ(ex.stats().execs, 1 + 4 + 5);
  expectMatchesInterpreter(k.g, ex, {{"T", 5}});
}

TEST(Executor, BranchRunOutsideItsBranchIsUndefinedNotAnError) {
  // The schedule runs inc = c[t - 1] + 1 at t = 0 too, where it reads outside c's domain.
  Counter k;
  LoopProgram p{{exec(k.one), loop("t", 0, T, {exec(k.inc, {t}), exec(k.c, {t})})}};
  Executor ex(k.g, p, {});
  ex.run();
  EXPECT_EQ(values(ex.outputs()[0].second), (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_EQ(ex.stats().undefinedExecs, 1);
  EXPECT_TRUE(ex.store(k.inc).undefinedAt({0}));
  try {
    ex.valueAt(k.inc, {0});
    FAIL() << "expected an ExecError";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("undefined"), std::string::npos) << e.what();
  }
  // A merge that takes an undefined branch is undefined there; reading it as an output is an error.
  Graph g = k.g;
  for (const Edge* e : g.inputs(k.c))
    g.edge(e->id).condition = e->inputIndex == 0 ? interp_test::when(t, Rel::Eq, 1) : Condition::always();
  Executor bad(g, p, {});
  bad.run();
  EXPECT_TRUE(bad.store(k.c).undefinedAt({0}));
  EXPECT_THROW(bad.outputs(), ExecError);
}

TEST(Executor, OneScheduleRunsAtAnyBound) {
  Counter k;
  LoopProgram p = k.schedule();
  for (int64_t n : {1, 2, 7, 100}) {
    Executor ex(k.g, p, {{{"T", n}}, std::nullopt});
    ex.run();
    Tensor c = ex.outputs()[0].second;
    ASSERT_EQ(c.numel(), n);
    EXPECT_EQ(c.at(n - 1), static_cast<double>(n));
    expectMatchesInterpreter(k.g, ex, {{"T", n}});
  }
}

TEST(Executor, RunningSumOverTwoDims) {
  // s[b, t] = v[b, t] (t == 0) else s[b, t - 1] + v[b, t], with v = 10 b + t; b outer, t inner.
  Graph g;
  g.dims = {{"b", "B"}, {"t", "T"}};
  IndexExpr b = dim("b"), B = bound("B");
  OpAttrs va = indexAttrs(b * 10 + t);
  NodeId v = addNode(g, OpKind::EvalIndex, {"b", "t"}, f32(), va, "v");
  NodeId add = addNode(g, OpKind::Add, {"b", "t"}, f32());
  NodeId s = addNode(g, OpKind::Merge, {"b", "t"}, f32(), {}, "s");
  addEdge(g, add, 0, s, {at(b), at(t - 1)});
  addEdge(g, add, 1, v, {at(b), at(t)});
  addEdge(g, s, 0, v, {at(b), at(t)}, interp_test::when(t, Rel::Eq, 0));
  addEdge(g, s, 1, add, {at(b), at(t)}, interp_test::when(t, Rel::Ge, 1));
  g.outputs = {{"s", s, {}}};
  LoopProgram p{{loop("i", 0, B, {loop("j", 0, T, {exec(v, {dim("i"), dim("j")}),
                                                   exec_test::when(interp_test::when(dim("j"), Rel::Ge, 1),
                                                                   {exec(add, {dim("i"), dim("j")})}),
                                                   exec(s, {dim("i"), dim("j")})})})}};
  Executor ex(g, p, {{{"B", 2}, {"T", 3}}, std::nullopt});
  ex.run();
  Tensor out = ex.outputs()[0].second;
  EXPECT_EQ(out.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(out), (std::vector<double>{0, 1, 3, 10, 21, 33}));
  expectMatchesInterpreter(g, ex, {{"B", 2}, {"T", 3}});
}

TEST(Executor, FutureReadRunsBackwards) {
  // g[t] = r[T - 1] at T - 1, else r[t] + 0.5 g[t + 1], r[t] = t; the loop runs t from T - 1 down to 0.
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId r = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t), "r");
  NodeId half = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(0.5));
  NodeId scaled = addNode(g, OpKind::Mul, {"t"}, f32());
  NodeId sum = addNode(g, OpKind::Add, {"t"}, f32());
  NodeId ret = addNode(g, OpKind::Merge, {"t"}, f32(), {}, "g");
  addEdge(g, scaled, 0, half, {});
  addEdge(g, scaled, 1, ret, {at(t + 1)});
  addEdge(g, sum, 0, r, {at(t)});
  addEdge(g, sum, 1, scaled, {at(t)});
  addEdge(g, ret, 0, r, {at(T - 1)}, interp_test::when(t, Rel::Eq, T - 1));
  addEdge(g, ret, 1, sum, {at(t)}, interp_test::when(t, Rel::Lt, T - 1));
  g.outputs = {{"g", ret, {}}};
  Condition notLast = interp_test::when(t, Rel::Lt, T - 1);
  LoopProgram p{{exec(half), loop("t", 0, T, {exec(r, {t}), exec_test::when(notLast, {exec(scaled, {t}), exec(sum, {t})}),
                                              exec(ret, {t})},
                                  -1)}};
  Executor ex(g, p, {{{"T", 4}}, std::nullopt});
  ex.run();
  // g[3] = 3, g[2] = 2 + 1.5 = 3.5, g[1] = 1 + 1.75 = 2.75, g[0] = 0 + 1.375
  EXPECT_EQ(values(ex.outputs()[0].second), (std::vector<double>{1.375, 2.75, 3.5, 3}));
  expectMatchesInterpreter(g, ex, {{"T", 4}});
  // Run forwards, the same program reads g[t + 1] before it exists.
  LoopProgram forwards = p;
  std::get<ForStmt>(forwards.body[1].node).step = 1;
  Executor bad(g, forwards, {{{"T", 4}}, std::nullopt});
  try {
    bad.run();
    FAIL() << "expected an ExecError";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("never written"), std::string::npos) << e.what();
    EXPECT_EQ(e.node, ret);
    EXPECT_EQ(e.point, (std::vector<int64_t>{1}));
  }
}

TEST(Executor, GrowingWindowStacksSliceReads) {
  // w[t] = sum(v[0:t+1]) with v[t] = t + 1: [1, 3, 6, 10]; and a window max(0, t-1):t+1 kept as is.
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId v = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t + 1), "v");
  NodeId w = addNode(g, OpKind::ReduceSum, {"t"}, f32(), reduceAttrs({0}), "w");
  NodeId win = addNode(g, OpKind::Identity, {"t"}, f32({IndexExpr::min(2, t + 1)}), {}, "win");
  addEdge(g, w, 0, v, {range(0, t + 1)});
  addEdge(g, win, 0, v, {range(IndexExpr::max(0, t - 1), t + 1)});
  g.outputs = {{"w", w, {}}};
  LoopProgram p{{loop("t", 0, T, {exec(v, {t}), exec(w, {t}), exec(win, {t})})}};
  Executor ex(g, p, {{{"T", 4}}, std::nullopt});
  ex.run();
  EXPECT_EQ(values(ex.outputs()[0].second), (std::vector<double>{1, 3, 6, 10}));
  EXPECT_EQ(values(ex.valueAt(win, {0})), (std::vector<double>{1}));
  EXPECT_EQ(values(ex.valueAt(win, {3})), (std::vector<double>{3, 4}));
  expectMatchesInterpreter(g, ex, {{"T", 4}});
}

TEST(Executor, LargeStackedWindowsReuseTheirBuffer) {
  // w[t] = sum(y[max(0, t-299):t+1]): from t = 255 on the window is 1 MiB or more, and the read
  // copies it into the buffer of its previous stack (Tensor.StackCopiesIntoARecycledBuffer...),
  // growing it while the window grows.
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId h = addNode(g, OpKind::HashInit, {"t"}, f32({1024}), hashAttrs(3, 1.0), "h");
  NodeId y = addNode(g, OpKind::Neg, {"t"}, f32({1024}), {}, "y");
  NodeId w = addNode(g, OpKind::ReduceSum, {"t"}, f32({1024}), reduceAttrs({0}), "w");
  addEdge(g, y, 0, h, {at(t)});
  addEdge(g, w, 0, y, {range(IndexExpr::max(0, t - 299), t + 1)});
  g.outputs = {{"w", w, {}}};
  LoopProgram p{{loop("t", 0, T, {exec(h, {t}), exec(y, {t}), exec(w, {t})})}};
  Executor ex(g, p, {{{"T", 300}}, std::nullopt});
  ex.run();
  expectMatchesInterpreter(g, ex, {{"T", 300}});
}

TEST(Executor, LoadedSourceIsIndexedPerPoint) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId h = addNode(g, OpKind::HashInit, {"t"}, f32({3}), hashAttrs(7, 0.5), "h");
  NodeId y = addNode(g, OpKind::Tanh, {"t"}, f32({3}), {}, "y");
  addEdge(g, y, 0, h, {at(t)});
  g.outputs = {{"y", y, {}}};
  LoopProgram p{{loop("t", 0, T, {exec(h, {t}), exec(y, {t})})}};
  Executor ex(g, p, {{{"T", 6}}, std::nullopt});
  ex.run();
  expectMatchesInterpreter(g, ex, {{"T", 6}});
  // The whole 6 x 3 array (h's store holds windows of it), plus y.
  EXPECT_EQ(ex.memory().nodeBytes(h), 6 * 3 * 4);
  EXPECT_TRUE(ex.valueAt(h, {2}).sharesBufferWith(ex.valueAt(h, {5})));
  EXPECT_EQ(ex.memory().nodeBytes(y), 6 * 3 * 4);
}

TEST(Executor, ACancelFlagStopsTheRunAndProgressCountsExecs) {
  Counter k;
  std::atomic<bool> cancel{false};
  std::atomic<size_t> progress{0};
  Executor finished(k.g, k.schedule(), ExecutorOptions{{{"T", 2000}}, std::nullopt, &cancel, &progress});
  finished.run();
  EXPECT_GE(progress.load(), 2000u);  // every 256 execs, 2000 * 2 of them
  EXPECT_LE(progress.load(), static_cast<size_t>(finished.stats().execs));

  cancel = true;
  Executor stopped(k.g, k.schedule(), ExecutorOptions{{{"T", 2000}}, std::nullopt, &cancel, nullptr});
  EXPECT_THROW(stopped.run(), ExecCancelled);
  EXPECT_EQ(stopped.stats().execs, 256);  // the first check
}

TEST(Executor, ErrorsAreCaughtBeforeRunning) {
  Counter k;
  LoopProgram outOfScope{{exec(k.c, {t})}};  // `t` is no loop variable here
  EXPECT_THROW(Executor(k.g, outOfScope, {}), ExecError);
  LoopProgram unknownNode{{exec(99)}};
  EXPECT_THROW(Executor(k.g, unknownNode, {}), ExecError);
  LoopProgram wrongRank{{exec(k.c)}};
  EXPECT_THROW(Executor(k.g, wrongRank, {}), ExecError);
  Graph noDefault = k.g;
  noDefault.boundDefaults.clear();
  LoopProgram p = k.schedule();
  EXPECT_THROW(Executor(noDefault, p, {}), ExecError);
  LoopProgram shadow{{loop("t", 0, T, {loop("t", 0, T, {})})}};
  EXPECT_THROW(Executor(k.g, shadow, {}), ExecError);
}

TEST(Executor, MissingOutputPointIsReported) {
  Counter k;
  LoopProgram partial{{exec(k.one), loop("t", 0, T - 1, {exec_test::when(interp_test::when(t, Rel::Ge, 1), {exec(k.inc, {t})}),
                                                           exec(k.c, {t})})}};
  Executor ex(k.g, partial, {});
  ex.run();
  try {
    ex.outputs();
    FAIL() << "expected an ExecError";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("never written"), std::string::npos) << e.what();
    EXPECT_EQ(e.point, (std::vector<int64_t>{4}));
  }
}

TEST(Executor, FreeReleasesAndLaterReadsFail) {
  Counter k;
  LoopProgram p = k.schedule();
  p.body.insert(p.body.begin(), alloc(k.inc, T * 4));
  p.body.push_back(release(k.inc, T * 4));
  Executor ex(k.g, p, {});
  ex.run();
  // c (a merge) holds one's value and inc's four values themselves, so freeing
  // inc's store frees nothing: its bytes are charged to c from then on.
  EXPECT_EQ(ex.memory().nodeBytes(k.inc), 0);
  EXPECT_EQ(ex.memory().nodeBytes(k.c) + ex.memory().nodeBytes(k.one), 4 + 4 * 4);
  EXPECT_EQ(ex.stats().peakBytes, 4 + 4 * 4);
  EXPECT_EQ(ex.memory().liveBytes(), 4 + 4 * 4);
  EXPECT_THROW(ex.valueAt(k.inc, {2}), ExecError);
  EXPECT_EQ(values(ex.outputs()[0].second), (std::vector<double>{1, 2, 3, 4, 5}));
}

}  // namespace
}  // namespace tempo
