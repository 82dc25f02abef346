// Permutes and expands run as strided views (view-selection): the same outputs
// bit for bit as with copies, the measured peak equal to the predicted one, and
// a view of an input's array counted once with the array.
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "pass/PassRegistry.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

// A permute of a stacked window of a recurrence, read by a sum, a max and an
// elementwise op; and a transpose of an input's array (an output, so live all
// run) beside it.
constexpr const char* kProgram = R"(
dim t < T
set T = 6
input x : f32[8, 4] over (t) = hash(key=1, scale=1.0)
input m : f32[32, 16] = hash(key=2, scale=1.0)
h : f32[8, 4] over (t)
h[0] = tanh(x[0])
h[t] = tanh(x[t] + h[t-1])
p = permute(h[0:T], (1, 0, 2))
mt = permute(m, (1, 0))
out y = sum(p, dim=1) + max(p * 2.0, dim=1)
out z = sum(mt * 0.5, dim=1)
out m
)";

CompiledProgram compile(bool views) {
  FrontendResult r = compileSource(kProgram, "views.tpo", ".");
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  Pipeline pipeline = defaultPipeline();
  if (!views) pipeline.disable("view-selection");
  return compileProgram(r.graph, std::move(pipeline));
}

int viewCount(const Graph& g) {
  int views = 0;
  for (const auto& [id, n] : g.nodes()) views += n.attrs.view ? 1 : 0;
  return views;
}

TEST(StridedViewRun, ViewsGiveTheOutputsOfCopiesWithAPredictedPeakCountingSharedBytesOnce) {
  CompiledProgram viewing = compile(true), copying = compile(false);
  EXPECT_EQ(viewCount(viewing.graph), 2) << "the window's permute and the array's transpose";
  EXPECT_EQ(viewCount(copying.graph), 0);
  for (int64_t T : {6, 30}) {
    SymbolEnv bounds{{"T", T}};
    CompiledRunResult views = runCompiled(viewing, bounds, CompiledRunOptions{});
    CompiledRunResult copies = runCompiled(copying, bounds, CompiledRunOptions{});
    ASSERT_EQ(views.outputs.size(), copies.outputs.size());
    for (size_t i = 0; i < views.outputs.size(); ++i)
      for (int64_t k = 0; k < views.outputs[i].second.numel(); ++k)
        ASSERT_EQ(views.outputs[i].second.at(k), copies.outputs[i].second.at(k)) << views.outputs[i].first << " T=" << T;
    EXPECT_EQ(views.stats.peakBytes, views.predictedBytes) << "T=" << T;
    EXPECT_EQ(copies.stats.peakBytes, copies.predictedBytes) << "T=" << T;
    EXPECT_LE(views.stats.peakBytes, copies.stats.peakBytes) << "T=" << T;
    // At T = 6 the peak is where mt is read: a view of m's array, not a second 2 KiB
    // (at T = 30 the window of h dominates, after mt is freed).
    if (T == 6) EXPECT_GE(copies.stats.peakBytes - views.stats.peakBytes, 32 * 16 * 4 - 64);
  }
}

}  // namespace
}  // namespace tempo
