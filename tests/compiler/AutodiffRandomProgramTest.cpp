// The backward graph of random programs (tests/support/RandomProgram, f32):
// for a loss summing every float output, the gradients with respect
// to every float input and param, asked for with grad() in the program, pass the
// front end's checks (coupled recurrences among them) and form a valid graph, and the compiled engine
// computes the same gradients as the reference interpreter. (Finite
// differences are not used here: random programs contain relu, abs, max and
// ties of zero-initialised sources, where a one-sided derivative is as right
// as any; the per-op and per-read checks are in AutodiffGradCheckTest.)
#include "AutodiffTestUtil.h"

#include "support/RandomProgram.h"


namespace tempo::testing {
namespace {

/// The seeds to run: TEMPO_AUTODIFF_LAST_SEED overrides the default of 3 (and
/// TEMPO_AUTODIFF_FIRST_SEED the first, 1)
/// (a seed takes 10-50 s: large backward graphs through the isl scheduler).
uint64_t lastSeed() {
  const char* v = std::getenv("TEMPO_AUTODIFF_LAST_SEED");
  return v ? std::stoull(v) : 3;
}

TEST(AutodiffRandomPrograms, BackwardGraphsRunTheSameInBothEngines) {
  int differentiated = 0;
  const char* first = std::getenv("TEMPO_AUTODIFF_FIRST_SEED");  // to start past a known failure
  for (uint64_t seed = first ? std::stoull(first) : 1; seed <= lastSeed(); ++seed) {
    // Known bug (2026-12-05): with topk, seed 2's backward graph fails to schedule ("converting
    // the isl AST: a condition is not an operation", then the fallback cannot order the cycle
    // through the scatter-add of topk's gradient, which is gather's). The forward programs
    // with topk run in RandomProgramTest and CompiledDifferential's shards.
    RandomProgramOptions options;
    options.topk = false;
    GeneratedProgram p = generateRandomProgramWithReport(seed, options);
    const std::string& text = p.text;
    FrontendResult r = compileSource(text, "random.tpo", ".");
    ASSERT_TRUE(r.ok()) << "seed " << seed << "\n" << r.renderedDiagnostics() << text;
    Graph& g = r.graph;
    // loss = the sum of every float output over its spatial shape and domain.
    std::string lossText;
    for (const GraphOutput& o : g.outputs)
      if (isFloat(g.node(o.node).type.dtype)) lossText += (lossText.empty() ? "" : " + ") + ("sum(" + o.name + ")");
    if (lossText.empty()) continue;
    // The gradients as a user asks for them, with grad() in the program: the front end then
    // checks the backward graph's cycles too (coupled recurrences, issue 14).
    std::vector<std::string> targetNames;
    for (const auto& [id, n] : g.nodes())
      if (opClass(n.op) == OpClass::Source && !n.name.empty() && isFloat(n.type.dtype)) targetNames.push_back(n.name);
    if (targetNames.empty()) continue;
    std::string gradText = text + "loss = " + lossText + "\n";
    for (size_t k = 0; k < targetNames.size(); ++k)
      gradText += "out grad_of_" + std::to_string(k) + " = grad(loss, " + targetNames[k] + ")\n";
    FrontendResult withLoss = compileSource(gradText, "random.tpo", ".");
    ASSERT_TRUE(withLoss.ok()) << "seed " << seed << "\n" << withLoss.renderedDiagnostics() << gradText;
    Graph& lg = withLoss.graph;
    std::vector<NodeId> grads;
    for (const GraphOutput& o : lg.outputs)
      if (o.name.rfind("grad_of_", 0) == 0) grads.push_back(o.node);
    std::vector<std::string> problems = validateGraph(lg);
    ASSERT_TRUE(problems.empty()) << "seed " << seed << ": " << problems.front();
    // f32: the engines' kernels may round differently (BLAS, accumulation order).
    try {
      expectCompiledMatchesInterpreter(lg, grads, "seed " + std::to_string(seed), 1e-4);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "seed " << seed << ": " << e.what();
    }
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "program of seed " << seed << ":\n" << text;
      return;
    }
    ++differentiated;
  }
  EXPECT_GE(differentiated, static_cast<int>(lastSeed() - (first ? std::stoull(first) : 1) + 1) / 2);
}

}  // namespace
}  // namespace tempo::testing
