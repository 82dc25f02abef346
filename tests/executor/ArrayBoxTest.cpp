// A loop nest that only records the points of a whole-array source (the schedule's
// `for t: for b: exec u[i, t, b]`) runs as one box (Executor::runArrayBox): the same
// outputs, statement and iteration counts as the nest run point by point (which a trace
// forces), and a store whose slots the points would share keeps the point-by-point path.
#include "executor/CompiledEngine.h"
#include "executor/TensorStore.h"
#include "frontend/Frontend.h"
#include "pass/PassRegistry.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

const char* kUniforms = R"(dim i < I
dim t < T
dim b < B
set I = 2, T = 5, B = 3
input u : f32[] over (i, t, b) = hash(key=7, scale=1.0)
v = u * 2.0
out m = sum(sum(v[i, 0:T, 0:B], dim=0), dim=0)
)";

TEST(ArrayBox, ANestOfArrayPointsRunsAsOneBoxWithThePointByPointCounts) {
  FrontendResult f = compileSource(kUniforms, "uniforms.tpo", ".");
  ASSERT_TRUE(f.ok()) << f.renderedDiagnostics();
  CompiledProgram p = compileProgram(f.graph, defaultPipeline());
  TraceCollector trace;  // follows every point: the nest runs point by point
  CompiledRunOptions traced;
  traced.trace = &trace;
  CompiledRunResult pointwise = runCompiled(p, {}, traced);
  CompiledRunResult boxed = runCompiled(p, {}, CompiledRunOptions{});
  EXPECT_EQ(boxed.stats.boxedExecs, 2 * 5 * 3);
  EXPECT_EQ(pointwise.stats.boxedExecs, 0);
  EXPECT_EQ(boxed.stats.execs, pointwise.stats.execs);
  EXPECT_EQ(boxed.stats.loopIterations, pointwise.stats.loopIterations);
  EXPECT_EQ(boxed.stats.peakBytes, pointwise.stats.peakBytes);
  ASSERT_EQ(boxed.outputs.size(), 1u);
  ASSERT_EQ(pointwise.outputs.size(), 1u);
  const Tensor &a = boxed.outputs[0].second, &b = pointwise.outputs[0].second;
  ASSERT_EQ(a.shape(), b.shape());
  for (int64_t k = 0; k < a.numel(); ++k) EXPECT_EQ(a.at(k), b.at(k)) << "element " << k;
}

TEST(ArrayBox, OnlyABoxWhosePointsHaveSlotsOfTheirOwnIsWrittenAtOnce) {
  StoreContext ctx{0, "%0 'u' (hash_init)", {"i", "t", "b"}, {2, 5, 3}, nullptr};
  CircularStore circular(ctx, 1, 2);  // two slots along t
  EXPECT_TRUE(circular.slotsDistinctIn({0, 3, 0}, {1, 5, 3}));
  EXPECT_FALSE(circular.slotsDistinctIn({0, 0, 0}, {1, 3, 3}));  // t = 0 and 2 share a slot
  CircularStore pinned(ctx, 1, 5, {0});  // one i at a time
  EXPECT_TRUE(pinned.slotsDistinctIn({1, 0, 0}, {2, 5, 3}));
  EXPECT_FALSE(pinned.slotsDistinctIn({0, 0, 0}, {2, 1, 1}));
  PointStore point(ctx);
  EXPECT_TRUE(point.slotsDistinctIn({1, 2, 0}, {2, 3, 1}));
  EXPECT_FALSE(point.slotsDistinctIn({1, 2, 0}, {2, 3, 2}));
  WholeStore whole(ctx);
  EXPECT_THROW(whole.writeArrayBox({0, 0, 0}, {1, 5, 3}), ExecError);  // not a source's store
  SourceArrays arrays(nullptr);
  whole.readViewsOf(&arrays);
  whole.writeArrayBox({1, 1, 0}, {2, 3, 3});
  EXPECT_TRUE(whole.holds({1, 2, 2}));
  EXPECT_FALSE(whole.holds({0, 2, 2}));
  EXPECT_THROW(whole.writeArrayBox({1, 1, 0}, {2, 6, 3}), ExecError);  // leaves the domain
}

}  // namespace
}  // namespace tempo
