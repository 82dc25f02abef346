// Golden tests of each pass: tests/golden/passes/PASS/NAME.tpo is lowered,
// PASS alone runs on it, and the SDG text before and after must match
// NAME.before.sdg and NAME.after.sdg (TEMPO_UPDATE_GOLDENS=1 rewrites them).
// Both graphs must also give the same outputs under the reference interpreter
// (bit for bit, except after a rewrite that reassociates sums: PassTestUtil.h).
#include "PassTestUtil.h"

#include "graph/GraphPrinter.h"
#include "support/GoldenFiles.h"

namespace tempo::testing {
namespace {

std::filesystem::path goldenRoot() { return sourceDir() / "tests" / "golden" / "passes"; }

class PassGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(PassGolden, BeforeAndAfterMatchGoldensAndOutputsAgree) {
  const std::string pass = GetParam();
  auto programs = filesWithExtension(goldenRoot() / pass, ".tpo");
  EXPECT_GE(programs.size(), 3u) << "each pass needs at least 3 golden programs";
  for (const auto& program : programs) {
    SCOPED_TRACE(program.string());
    FrontendResult r = compileFile(program.string());
    ASSERT_TRUE(r.ok()) << r.renderedDiagnostics();
    Graph g = r.graph;
    g.file = program.filename().string();
    auto base = program.parent_path() / program.stem();
    expectGolden(base.string() + ".before.sdg", printGraph(g));
    Outputs before = evaluate(g);
    GraphChange change = runPass(g, pass);
    expectGolden(base.string() + ".after.sdg", printGraph(g));
    // Static tiling sums block by block, and some algebraic rules nest or contract
    // sums: the same values up to rounding.
    const double tolerance = reassociatesSums(pass, change) ? 1e-5 : 0;
    expectSameOutputs(before, evaluate(g), tolerance, program.filename().string());
  }
}

INSTANTIATE_TEST_SUITE_P(EveryPass, PassGolden, ::testing::ValuesIn(defaultPassNames()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace tempo::testing
