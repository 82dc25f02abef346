// `dim t < T until done` (docs/language.md, 4.14): both engines run t to the first step
// where `done` holds everywhere and bind T to the steps run. The compiled engine stops
// its loop over t (one run, the statements of a run at that T) or, where something
// before the stop uses T, runs twice; either way every output equals the reference
// interpreter's, which equals the same program without `until` run at the steps reached.
#include "executor/CompiledEngine.h"
#include "executor/PeakAgreement.h"
#include "frontend/Frontend.h"
#include "interp/ReferenceInterpreter.h"
#include "pass/PassRegistry.h"
#include "support/OutputCompare.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

using Outputs = std::vector<std::pair<std::string, Tensor>>;

Graph checked(const std::string& text) {
  FrontendResult f = compileSource(text, "until.tpo", ".");
  EXPECT_TRUE(f.ok()) << f.renderedDiagnostics() << text;
  return f.graph;
}

/// `text` without its `until NAME` (the condition stays an ordinary tensor, and an output).
std::string withoutUntil(std::string text, const std::string& condition) {
  const std::string clause = " until " + condition;
  text.erase(text.find(clause), clause.size());
  return text + "out " + condition + "\n";
}

/// The outputs of `g` named as in `names`' order (the until output is last without `until`).
Outputs byName(Outputs outputs, const Outputs& names) {
  Outputs out;
  for (const auto& [name, value] : names)
    for (const auto& o : outputs)
      if (o.first == name) out.push_back(o);
  return out;
}

// A running sum of uniforms in [0, 1) passes 3 after a few steps of 40.
const char* kRunningSum = R"(dim t < T until done
set T = 40
input x : f32[] over (t) = uniform(seed=3, low=0.0, high=1.0)
s : f32[] over (t)
s[0] = x[0]
s[t] = s[t-1] + x[t]
done = s > 3.0
out s
)";

/// What the reference interpreter gives and what one compiled run gives.
struct StoppedRuns {
  ReachedExtent reached;  ///< the reference's
  Outputs want;           ///< the reference's outputs
  CompiledRunResult run;
};

/// Runs `g` in both engines (compiled with `pipeline`): the reference stops its one until
/// dimension, and the engine stops its loop there too, in one run, with the same outputs and
/// the memory predicted for the steps run.
StoppedRuns expectOneRunStopsWhereTheReferenceDoes(const Graph& g, const Pipeline& pipeline) {
  StoppedRuns s;
  ReferenceInterpreter reference(g, InterpreterOptions{});
  s.want = reference.evaluateOutputs();
  EXPECT_EQ(reference.reachedExtents().size(), 1u);
  if (reference.reachedExtents().size() != 1) return s;
  s.reached = reference.reachedExtents()[0];
  EXPECT_TRUE(s.reached.stopped);
  CompiledProgram p = compileProgram(g, pipeline);
  std::vector<UntilLoop> plans = planUntilLoops(p.graph, p.loops);
  EXPECT_EQ(plans.size(), 1u);
  if (plans.size() == 1) EXPECT_GE(plans[0].topStatement, 0) << plans[0].whyNot;
  s.run = runCompiled(p, {}, CompiledRunOptions{});
  EXPECT_EQ(s.run.runs, 1);
  EXPECT_EQ(s.run.reached.size(), 1u);
  if (s.run.reached.size() == 1) {
    EXPECT_EQ(s.run.reached[0].reached, s.reached.reached);
    EXPECT_TRUE(s.run.reached[0].stopped);
  }
  EXPECT_EQ(testing::compareOutputs(s.run.outputs, s.want), "");
  // The memory is predicted for the run as it went (the loop to its stop, T bound to the steps
  // run after it): the same memory statements as the run, and its peak (PeakAgreement's rule).
  EXPECT_EQ(s.run.predictedTimeline.statements(), s.run.measuredTimeline.statements());
  EXPECT_TRUE(testing::peaksAgree(s.run.stats.peakBytes, s.run.predictedBytes));
  return s;
}

TEST(Until, TheLoopStopsAtTheFirstStepThatHoldsAndTheRunIsTheRunAtThatExtent) {
  Graph g = checked(kRunningSum);
  const StoppedRuns s = expectOneRunStopsWhereTheReferenceDoes(g, defaultPipeline());
  const ReachedExtent& reached = s.reached;
  const Outputs& want = s.want;
  EXPECT_EQ(reached.maximum, 40);
  EXPECT_GT(reached.reached, 3);
  EXPECT_LT(reached.reached, 40);
  ASSERT_EQ(want.size(), 2u);  // s, then the condition
  EXPECT_EQ(want[0].second.shape(), std::vector<int64_t>{reached.reached});
  EXPECT_EQ(want[1].first, "done");

  // The same program without `until`, at the steps reached: the same values and statements.
  Graph plain = checked(withoutUntil(kRunningSum, "done"));
  CompiledProgram q = compileProgram(plain, defaultPipeline());
  CompiledRunResult atReached = runCompiled(q, {{"T", reached.reached}}, CompiledRunOptions{});
  EXPECT_EQ(testing::compareOutputs(byName(atReached.outputs, want), want), "");
  EXPECT_EQ(s.run.stats.execs, atReached.stats.execs);
}

TEST(Until, AConditionThatNeverHoldsRunsEveryStep) {
  std::string text = kRunningSum;
  text.replace(text.find("3.0"), 3, "1e9");
  Graph g = checked(text);
  ReferenceInterpreter reference(g, InterpreterOptions{{{"T", 12}}});
  Outputs want = reference.evaluateOutputs();
  ASSERT_EQ(reference.reachedExtents().size(), 1u);
  EXPECT_FALSE(reference.reachedExtents()[0].stopped);
  EXPECT_EQ(reference.reachedExtents()[0].reached, 12);
  EXPECT_EQ(reference.reachedExtents()[0].str("done"), "t: ran all 12 steps (done never held everywhere)");
  CompiledRunResult r = runCompiled(compileProgram(g, defaultPipeline()), {{"T", 12}}, CompiledRunOptions{});
  ASSERT_EQ(r.reached.size(), 1u);
  EXPECT_FALSE(r.reached[0].stopped);
  EXPECT_EQ(testing::compareOutputs(r.outputs, want), "");
}

// Episodes of a batch end at their own steps; t ends when every one has ended. The returns
// read the future through T (after the stop), and the gradient sums over the steps run.
const char* kEpisodes = R"(dim t < T until ended
dim b < B
set B = 3, T = 30
const LIMIT = 1.5
input u : f32[] over (t, b) = uniform(seed=5, low=-1.0, high=1.0)
param w : f32[] = ones()
x : f32[] over (t, b)
x[0, b] = 0.0
x[t, b] = x[t=t-1] * w * 0.8 + u
alive : f32[] over (t, b)
alive[0, b] = 1.0
alive[t, b] = alive[t=t-1] * where(abs(x[t=t-1]) > LIMIT, 0.0, 1.0)
ended = alive < 0.5
g : f32[] over (t, b)
g[T-1, b] = alive * x
g[t, b] = alive * x + 0.9 * g[t=t+1]
loss = sum(sum(g[0:T, 0:B], dim=0), dim=0)
out steps = sum(alive[0:T, b])
out dw = grad(loss, w)
)";

TEST(Until, EveryEpisodeMustEndAndWhatFollowsTheStopRunsAtTheStepsRun) {
  // One run: the backward pass follows the stop.
  const StoppedRuns s = expectOneRunStopsWhereTheReferenceDoes(checked(kEpisodes), defaultPipeline());
  const int64_t reached = s.reached.reached;
  const Outputs& want = s.want;
  ASSERT_LT(reached, 30);

  // The oracle's meaning: the program without `until` at the steps run.
  Graph plain = checked(withoutUntil(kEpisodes, "ended"));
  ReferenceInterpreter atReached(plain, InterpreterOptions{{{"T", reached}}});
  EXPECT_EQ(testing::compareOutputs(byName(atReached.evaluateOutputs(), want), want), "");
}

// Decoding until every sequence has produced an end id, with the positions declared last and a
// value over the sequences alone (the prompt) first, b not batched (as in llama_decode, whose
// attention and gather keep it a loop): the fusion schedule still runs the positions as the
// top-level loop, so it stops once (before, it fused them into the loop over b made for the
// prompt, and the engine ran the program twice).
const char* kUntilEnd = R"(dim b < B
dim t < T until fin
set B = 3, T = 40
input start : f32[] over (b) = uniform(seed=2, low=0.0, high=1.0)
input u : f32[] over (t) = uniform(seed=4, low=0.0, high=1.0)
tok : f32[] over (b, t)
fin : bool over (b, t)
first = start * 0.5 + 0.25
tok[b, 0] = first
tok[b, t] = where(fin[t=t-1], 0.0, tok[t=t-1] * 0.5 + u + first)
fin[b, 0] = false
fin[b, t] = fin[t=t-1] or tok > 1.8
out tok
)";

TEST(Until, AnUntilDimensionDeclaredLastIsStillTheLoopThatStops) {
  Pipeline unbatched = defaultPipeline();
  unbatched.disable("vectorisation");
  expectOneRunStopsWhereTheReferenceDoes(checked(kUntilEnd), unbatched);
}

TEST(Until, SomethingComputedWithTBeforeTheStopMakesTheEngineRunTwice) {
  // `scale` is computed from T and read inside the loop over t, by a value the condition does not read.
  std::string text = kRunningSum;
  text += "scale = cast(T, f32)\nout y = s * scale\n";
  Graph g = checked(text);
  ReferenceInterpreter reference(g, InterpreterOptions{});
  Outputs want = reference.evaluateOutputs();
  CompiledProgram p = compileProgram(g, defaultPipeline());
  std::vector<UntilLoop> plans = planUntilLoops(p.graph, p.loops);
  ASSERT_EQ(plans.size(), 1u);
  CompiledRunResult r = runCompiled(p, {}, CompiledRunOptions{});
  ASSERT_EQ(r.reached.size(), 1u);
  EXPECT_EQ(r.reached[0].reached, reference.reachedExtents()[0].reached);
  EXPECT_EQ(testing::compareOutputs(r.outputs, want), "");
  EXPECT_LT(plans[0].topStatement, 0);
  EXPECT_NE(plans[0].whyNot.find("computed with T"), std::string::npos) << plans[0].whyNot;
  EXPECT_EQ(r.runs, 2);
}

}  // namespace
}  // namespace tempo
