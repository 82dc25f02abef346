// `dim t < T until done` (docs/language.md, 4.14): both engines run t to the first step
// where `done` holds everywhere and bind T to the steps run. The compiled engine stops
// its loop over t (one run, the statements of a run at that T) or, where something
// before the stop uses T, runs twice; either way every output equals the reference
// interpreter's, which equals the same program without `until` run at the steps reached.
#include "executor/CompiledEngine.h"
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

TEST(Until, TheLoopStopsAtTheFirstStepThatHoldsAndTheRunIsTheRunAtThatExtent) {
  Graph g = checked(kRunningSum);
  ReferenceInterpreter reference(g, InterpreterOptions{});
  Outputs want = reference.evaluateOutputs();
  ASSERT_EQ(reference.reachedExtents().size(), 1u);
  const ReachedExtent reached = reference.reachedExtents()[0];
  EXPECT_TRUE(reached.stopped);
  EXPECT_EQ(reached.maximum, 40);
  EXPECT_GT(reached.reached, 3);
  EXPECT_LT(reached.reached, 40);
  ASSERT_EQ(want.size(), 2u);  // s, then the condition
  EXPECT_EQ(want[0].second.shape(), std::vector<int64_t>{reached.reached});
  EXPECT_EQ(want[1].first, "done");

  CompiledProgram p = compileProgram(g, defaultPipeline());
  std::vector<UntilLoop> plans = planUntilLoops(p.graph, p.loops);
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_GE(plans[0].topStatement, 0) << plans[0].whyNot;
  CompiledRunResult r = runCompiled(p, {}, CompiledRunOptions{});
  EXPECT_EQ(r.runs, 1);
  ASSERT_EQ(r.reached.size(), 1u);
  EXPECT_EQ(r.reached[0].reached, reached.reached);
  EXPECT_TRUE(r.reached[0].stopped);
  EXPECT_EQ(testing::compareOutputs(r.outputs, want), "");

  // The same program without `until`, at the steps reached: the same values and statements.
  Graph plain = checked(withoutUntil(kRunningSum, "done"));
  CompiledProgram q = compileProgram(plain, defaultPipeline());
  CompiledRunResult atReached = runCompiled(q, {{"T", reached.reached}}, CompiledRunOptions{});
  EXPECT_EQ(testing::compareOutputs(byName(atReached.outputs, want), want), "");
  EXPECT_EQ(r.stats.execs, atReached.stats.execs);
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
  Graph g = checked(kEpisodes);
  ReferenceInterpreter reference(g, InterpreterOptions{});
  Outputs want = reference.evaluateOutputs();
  ASSERT_EQ(reference.reachedExtents().size(), 1u);
  const int64_t reached = reference.reachedExtents()[0].reached;
  ASSERT_TRUE(reference.reachedExtents()[0].stopped);
  ASSERT_LT(reached, 30);

  CompiledProgram p = compileProgram(g, defaultPipeline());
  CompiledRunResult r = runCompiled(p, {}, CompiledRunOptions{});
  EXPECT_EQ(r.runs, 1) << planUntilLoops(p.graph, p.loops).at(0).whyNot;  // the backward pass follows the stop
  ASSERT_EQ(r.reached.size(), 1u);
  EXPECT_EQ(r.reached[0].reached, reached);
  EXPECT_EQ(testing::compareOutputs(r.outputs, want), "");

  // The oracle's meaning: the program without `until` at the steps run.
  Graph plain = checked(withoutUntil(kEpisodes, "ended"));
  ReferenceInterpreter atReached(plain, InterpreterOptions{{{"T", reached}}});
  EXPECT_EQ(testing::compareOutputs(byName(atReached.evaluateOutputs(), want), want), "");
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
