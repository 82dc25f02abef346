// REINFORCE on CartPole (resources/examples/reinforce.tpo and reinforce_nstep.tpo)
// learns: over a small fixed-seed run the mean episode return of the last
// iterations is clearly above that of the first ones. Every draw is fixed by
// the program's seeds, so the numbers are the same on every run; the margin
// leaves room for float differences between machines. (The engines are
// compared on every example, these included, by DifferentialTest and
// CompiledDifferentialTest.)
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "pass/PassRegistry.h"
#include "support/GoldenFiles.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace tempo {
namespace {

struct Curve {
  double first = 0, last = 0;  ///< mean return over the first / last `window` iterations
};

Curve returnCurve(const std::string& example, const SymbolEnv& bounds, int window) {
  auto path = testing::sourceDir() / "resources" / "examples" / example;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  FrontendResult r = compileSource(text.str(), path.string(), path.parent_path().string());
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  CompiledRunResult run = runCompiled(compileProgram(r.graph, defaultPipeline()), bounds);
  for (const auto& [name, ret] : run.outputs) {
    if (name != "ret") continue;
    int64_t n = ret.numel();
    EXPECT_GE(n, 2 * window);
    Curve c;
    for (int k = 0; k < window; ++k) c.first += ret.at(k) / window, c.last += ret.at(n - 1 - k) / window;
    return c;
  }
  ADD_FAILURE() << example << " has no output ret";
  return {};
}

TEST(ReinforceExample, MeanReturnRises) {
  Curve c = returnCurve("reinforce.tpo", {{"I", 40}, {"B", 16}, {"T", 100}}, 5);
  EXPECT_GT(c.last, 1.5 * c.first) << "first 5 iterations " << c.first << ", last 5 " << c.last;
}

TEST(ReinforceExample, NStepMeanReturnRises) {
  Curve c = returnCurve("reinforce_nstep.tpo", {{"I", 40}, {"B", 16}, {"T", 100}}, 5);
  EXPECT_GT(c.last, 1.5 * c.first) << "first 5 iterations " << c.first << ", last 5 " << c.last;
}

}  // namespace
}  // namespace tempo
