// Differential test of the default pipeline on generated programs
// (tests/support/RandomProgram): after every pass, every output must equal
// the unoptimised graph's (bit for bit until a rewrite reassociates sums, see
// reassociatesSums in PassTestUtil.h). Fixed seeds, so a failure names a
// program that can be printed with the generator and replayed.
#include "PassTestUtil.h"

#include "support/RandomProgram.h"

namespace tempo::testing {
namespace {

TEST(PipelineDifferential, RandomProgramsKeepTheirOutputsAfterEveryPass) {
  int compared = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    std::string text = generateRandomProgram(seed);
    FrontendResult r = compileSource(text, "random.tpo", ".");
    ASSERT_TRUE(r.ok()) << "seed " << seed << "\n" << r.renderedDiagnostics() << text;
    Outputs reference = evaluate(r.graph);
    Graph g = r.graph;
    std::vector<PassSnapshot> snaps;
    try {
      snaps = defaultPipeline().run(g);
    } catch (const PassError& e) {
      FAIL() << "seed " << seed << ": " << e.what() << "\n" << text;
    }
    bool reassociated = false;
    for (const PassSnapshot& snap : snaps) {
      reassociated = reassociated || reassociatesSums(snap);
      expectSameOutputs(reference, evaluate(snap.graph), reassociated ? 1e-5 : 0,
                        "seed " + std::to_string(seed) + " after " + snap.passName);
    }
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "program of seed " << seed << ":\n" << text;
      return;
    }
    ++compared;
  }
  EXPECT_EQ(compared, 150);
}

}  // namespace
}  // namespace tempo::testing
