// Pipeline: order, snapshots, disable, stop-after, unknown names, and a
// buggy pass turned into a PassError naming it.
#include "PassTestUtil.h"

#include "graph/GraphPrinter.h"

namespace tempo::testing {
namespace {

const char* const kCounter =
    "dim t < T\n"
    "set T = 5\n"
    "c : f32[] over (t)\n"
    "c[0] = 1.0\n"
    "c[t] = c[t-1] + 1.0\n"
    "unused = c[t] * 2.0\n"
    "out c\n";

TEST(Pipeline, DefaultPipelineListsEveryPassWithADescription) {
  Pipeline p = defaultPipeline();
  std::vector<std::string> expected = {"branch-lowering", "constant-folding", "algebraic-simplification",
                                       "common-subexpression-elimination", "domain-reduction",
                                       "dead-code-elimination", "slice-sinking", "vectorisation", "permute-sinking",
                                       "static-tiling", "fusion", "view-selection", "weight-panels"};
  EXPECT_EQ(p.passNames(), expected);
  EXPECT_EQ(defaultPassNames(), expected);
  for (const auto& pass : p.passes()) EXPECT_GT(pass->description().size(), 100u) << pass->name();
}

TEST(Pipeline, KeepsOneSnapshotPerPassAndMarksUnchangedOnes) {
  Graph g = lowered(kCounter);
  std::vector<PassSnapshot> snaps = defaultPipeline().run(g);
  ASSERT_EQ(snaps.size(), defaultPassNames().size());
  EXPECT_EQ(snaps[0].passName, "branch-lowering");
  EXPECT_TRUE(snaps[0].changed);
  EXPECT_FALSE(snaps[1].changed);  // nothing to fold
  EXPECT_TRUE(snaps[1].change.empty());
  EXPECT_TRUE(snaps[3].changed);   // the two 1.0 constants merge
  EXPECT_TRUE(snaps[5].changed);   // `unused` is dead
  EXPECT_EQ(printGraph(snaps.back().graph), printGraph(g));
  for (const PassSnapshot& s : snaps) EXPECT_FALSE(s.description.empty());
}

TEST(Pipeline, DisableSkipsAPass) {
  Graph g = lowered(kCounter);
  Pipeline p = defaultPipeline();
  p.disable("dead-code-elimination");
  EXPECT_TRUE(p.isDisabled("dead-code-elimination"));
  std::vector<PassSnapshot> snaps = p.run(g);
  ASSERT_EQ(snaps.size(), defaultPassNames().size() - 1);
  for (const PassSnapshot& s : snaps) EXPECT_NE(s.passName, "dead-code-elimination");
  EXPECT_NE(printGraph(g).find("unused"), std::string::npos);
}

TEST(Pipeline, StopAfterEndsTheRun) {
  Graph g = lowered(kCounter);
  Pipeline p = defaultPipeline();
  p.stopAfter("constant-folding");
  std::vector<PassSnapshot> snaps = p.run(g);
  ASSERT_EQ(snaps.size(), 2u);
  EXPECT_EQ(snaps.back().passName, "constant-folding");
}

TEST(Pipeline, StopAfterADisabledPassStillStopsThere) {
  Graph g = lowered(kCounter);
  Pipeline p = defaultPipeline();
  p.disable("constant-folding");
  p.stopAfter("constant-folding");
  EXPECT_EQ(p.run(g).size(), 1u);
}

TEST(Pipeline, UnknownPassNamesListTheValidOnes) {
  Pipeline p = defaultPipeline();
  try {
    p.disable("loop-unrolling");
    FAIL() << "expected UnknownPassError";
  } catch (const UnknownPassError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("loop-unrolling"), std::string::npos) << msg;
    EXPECT_NE(msg.find("branch-lowering"), std::string::npos) << msg;
    EXPECT_NE(msg.find("dead-code-elimination"), std::string::npos) << msg;
  }
  EXPECT_THROW(p.stopAfter("nope"), UnknownPassError);
  EXPECT_THROW(makePass("nope"), UnknownPassError);
}

TEST(Pipeline, DuplicatePassNamesAreRejected) {
  Pipeline p;
  p.add(makePass("dead-code-elimination"));
  EXPECT_THROW(p.add(makePass("dead-code-elimination")), std::invalid_argument);
}

/// A pass that breaks an invariant: it drops an index atom of some edge.
class BreakingPass : public Pass {
public:
  std::string name() const override { return "breaking"; }
  std::string description() const override { return "drops an index atom"; }
  void run(Graph& g, PassContext&) override {
    for (const auto& [id, e] : g.edges())
      if (!e.index.empty()) {
        g.edge(id).index.pop_back();
        return;
      }
  }
};

/// A pass that throws.
class ThrowingPass : public Pass {
public:
  std::string name() const override { return "throwing"; }
  std::string description() const override { return "throws"; }
  void run(Graph&, PassContext&) override { throw std::runtime_error("boom"); }
};

TEST(Pipeline, AnInvalidGraphIsAnErrorNamingThePass) {
  Graph g = lowered(kCounter);
  Pipeline p;
  p.add(makePass("branch-lowering")).add(std::make_unique<BreakingPass>());
  try {
    p.run(g);
    FAIL() << "expected PassError";
  } catch (const PassError& e) {
    EXPECT_EQ(e.pass, "breaking");
    EXPECT_NE(std::string(e.what()).find("invalid graph"), std::string::npos) << e.what();
  }
}

TEST(Pipeline, AThrowingPassIsAnErrorNamingThePass) {
  Graph g = lowered(kCounter);
  Pipeline p;
  p.add(std::make_unique<ThrowingPass>());
  try {
    p.run(g);
    FAIL() << "expected PassError";
  } catch (const PassError& e) {
    EXPECT_EQ(e.pass, "throwing");
    EXPECT_NE(std::string(e.what()).find("boom"), std::string::npos);
  }
}

}  // namespace
}  // namespace tempo::testing
