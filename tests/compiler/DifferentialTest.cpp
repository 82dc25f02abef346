// Differential test of the default pipeline: for every example program, the
// graph after each pass must give the same outputs under the reference
// interpreter as the unoptimised graph: bit for bit until a rewrite adds floats
// up in another order (reassociatesSums: static tiling, nested window sums,
// outer products as one matrix product), within 1e-5 relative after; every
// other rewrite is exact, constant folding included, since it reproduces the
// runtime's arithmetic.
#include "PassTestUtil.h"

#include "support/GoldenFiles.h"

namespace tempo::testing {
namespace {

TEST(PipelineDifferential, EveryPassKeepsEveryExampleOutput) {
  auto programs = examplePrograms();
  ASSERT_FALSE(programs.empty());
  for (const auto& program : programs) {
    SCOPED_TRACE(program.string());
    FrontendResult r = compileFile(program.string());
    ASSERT_TRUE(r.ok()) << r.renderedDiagnostics();
    Outputs reference = evaluate(r.graph);
    Graph g = r.graph;
    std::vector<PassSnapshot> snaps = defaultPipeline().run(g);
    ASSERT_EQ(snaps.size(), defaultPassNames().size());
    bool reassociated = false;
    for (const PassSnapshot& snap : snaps) {
      reassociated = reassociated || reassociatesSums(snap);
      expectSameOutputs(reference, evaluate(snap.graph), reassociated ? 1e-5 : 0,
                        program.filename().string() + " after " + snap.passName);
    }
  }
}

TEST(PipelineDifferential, PipelineShrinksTheExamples) {
  // Not a correctness check: the cleanup passes should find work on the examples
  // (later passes such as vectorisation add adapter nodes to save work per point).
  size_t before = 0, after = 0;
  for (const auto& program : examplePrograms()) {
    FrontendResult r = compileFile(program.string());
    ASSERT_TRUE(r.ok());
    Graph g = r.graph;
    before += g.nodes().size();
    Pipeline cleanup = defaultPipeline();
    cleanup.stopAfter("dead-code-elimination");
    cleanup.run(g);
    after += g.nodes().size();
  }
  EXPECT_LT(after, before);
}

TEST(PipelineDifferential, ReportedChangesMatchTheDiff) {
  for (const auto& program : examplePrograms()) {
    SCOPED_TRACE(program.string());
    FrontendResult r = compileFile(program.string());
    ASSERT_TRUE(r.ok());
    Graph g = r.graph;
    for (const PassSnapshot& snap : defaultPipeline().run(g)) {
      SCOPED_TRACE(snap.passName);
      EXPECT_EQ(snap.change.added, snap.diff.added);
      EXPECT_EQ(snap.change.removed, snap.diff.removed);
      // Every node whose text changed was reported (a pass may report more).
      for (NodeId id : snap.diff.rewritten) EXPECT_TRUE(snap.change.rewritten.count(id)) << "%" << id;
      EXPECT_EQ(snap.changed, !snap.diff.empty());
    }
  }
}

}  // namespace
}  // namespace tempo::testing
