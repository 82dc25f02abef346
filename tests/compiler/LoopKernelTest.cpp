// LoopKernel selection (compiler/kernels/LoopKernel): which loops of the
// lowered programs could run as one native function, and why the others stay
// interpreted. The plans of the RNN and REINFORCE peer programs are golden files;
// a loop that holds another loop stays interpreted (this first step takes single loops);
// the RNN's step loop qualifies with its recurrence as the one carried read, a
// growing attention window keeps its loop interpreted, and the kernel-formation
// stage's snapshot prints the plan after the kernel table.
#include "frontend/Frontend.h"
#include "kernels/LoopKernel.h"
#include "lowering/Lowering.h"
#include "pass/PassRegistry.h"
#include "support/GoldenFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace tempo {
namespace {

struct Lowered {
  Graph graph;
  LoweredProgram program;
};

Lowered lowerFile(const std::filesystem::path& relative, bool snapshots = false) {
  const std::filesystem::path path = testing::sourceDir() / relative;
  FrontendResult r = compileSource(testing::readFile(path), path.filename().string(), path.parent_path().string());
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  Lowered out{r.graph, {}};
  PassContext context;
  defaultPipeline().run(out.graph, context);
  IslContext isl;
  LoweringOptions options;
  options.codegen = false;
  options.snapshots = snapshots;
  out.program = lowerProgram(out.graph, isl, options);
  return out;
}

TEST(LoopKernel, TheRnnStepLoopQualifiesWithItsRecurrenceCarried) {
  Lowered l = lowerFile("bench/programs/rnn_peer.tpo");
  const LoopKernelPlan& plan = l.program.loopKernels;
  testing::expectGolden(testing::sourceDir() / "tests/golden/kernels/loop-kernels-rnn_peer.txt",
                        printLoopKernelPlan(l.graph, plan));
  // The step loop: the one whose statements include the step's product h @ U.
  auto step = std::find_if(plan.loops.begin(), plan.loops.end(), [&](const LoopKernelCandidate& c) {
    return std::count(c.forms.begin(), c.forms.end(), LoopStatementForm::Gemm) == 1 &&
           std::count(c.forms.begin(), c.forms.end(), LoopStatementForm::Merge) >= 1;
  });
  ASSERT_NE(step, plan.loops.end()) << printLoopKernelPlan(l.graph, plan);
  EXPECT_TRUE(step->qualifies);
  EXPECT_FALSE(step->carried.empty());  // h[t-1]: the iterations run in order
  EXPECT_FALSE(step->arena.empty());    // the step's temporaries are allocated and freed in it
  // A loop over independent points (the output's rows) carries nothing.
  EXPECT_TRUE(std::any_of(plan.loops.begin(), plan.loops.end(),
                          [](const LoopKernelCandidate& c) { return c.qualifies && c.carried.empty(); }));
}

TEST(LoopKernel, ReinforcesLoopsAreListedWithWhatKeepsThemInterpreted) {
  Lowered l = lowerFile("bench/programs/reinforce_peer.tpo");
  testing::expectGolden(testing::sourceDir() / "tests/golden/kernels/loop-kernels-reinforce_peer.txt",
                        printLoopKernelPlan(l.graph, l.program.loopKernels));
  const auto& loops = l.program.loopKernels.loops;
  ASSERT_FALSE(loops.empty());
  // The loop over iterations holds the step loops: interpreted in this first step.
  EXPECT_TRUE(loops.front().enclosing.empty());
  EXPECT_FALSE(loops.front().qualifies);
  EXPECT_NE(loops.front().reason.find("holds a loop"), std::string::npos) << loops.front().reason;
  for (size_t i = 1; i < loops.size(); ++i) {
    EXPECT_EQ(loops[i].qualifies, loops[i].reason.empty());
    EXPECT_FALSE(loops[i].enclosing.empty()) << "every step loop is inside the loop over i";
  }
}

TEST(LoopKernel, AGrowingWindowKeepsItsLoopInterpreted) {
  Lowered l = lowerFile("resources/examples/attention_causal.tpo");
  const auto& loops = l.program.loopKernels.loops;
  EXPECT_TRUE(std::any_of(loops.begin(), loops.end(), [](const LoopKernelCandidate& c) {
    return !c.qualifies && c.reason.find("changes from one point to the next") != std::string::npos;
  })) << printLoopKernelPlan(l.graph, l.program.loopKernels);
}

TEST(LoopKernel, TheKernelFormationSnapshotPrintsThePlan) {
  Lowered l = lowerFile("resources/examples/rnn.tpo", true);
  auto stage = std::find_if(l.program.snapshots.begin(), l.program.snapshots.end(),
                            [](const LoweringSnapshot& s) { return s.stage == "kernel-formation"; });
  ASSERT_NE(stage, l.program.snapshots.end());
  EXPECT_NE(stage->text.find("native loops: "), std::string::npos) << stage->text;
  EXPECT_NE(stage->text.find(printLoopKernelPlan(l.graph, l.program.loopKernels)), std::string::npos);
}

}  // namespace
}  // namespace tempo
