// Schedule transforms (shift, interchange, skew, reverse): the text parses and prints
// back, bad text names its column, a legal transform's loops run every producer before
// its readers (checked by enumerating the loops, independently of isl's check), an
// illegal one names each dependence it breaks with a smallest example pair, and a
// transformed program run by the compiled engine equals the reference interpreter.
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "interp/ReferenceInterpreter.h"
#include "pass/PassRegistry.h"
#include "schedule/ScheduleTransform.h"
#include "schedule/Scheduler.h"
#include "support/GoldenFiles.h"
#include "support/OutputCompare.h"
#include "support/WavefrontProgram.h"

#include "LoopEnumeration.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {


Graph program(const char* source) {
  FrontendResult r = compileSource(source, "wavefront.tpo", ".");
  EXPECT_TRUE(r.ok());
  return r.graph;
}

Graph example(const std::string& name) {
  FrontendResult r = compileFile((testing::sourceDir() / "resources" / "examples" / name).string());
  EXPECT_TRUE(r.ok());
  return r.graph;
}

ScheduleResult transformed(const Graph& g, const std::string& text) {
  IslContext ctx;
  ScheduleOptions options;
  options.transforms = parseScheduleTransforms(text);
  return computeSchedule(g, ctx, options);
}

std::vector<ViolatedDependence> violations(const Graph& g, const std::string& text) {
  try {
    transformed(g, text);
  } catch (const IllegalScheduleError& e) {
    return e.violations();
  }
  return {};
}

void expectRunsInOrder(const Graph& g, const LoopProgram& p, const std::vector<SymbolEnv>& sizes) {
  for (const SymbolEnv& bounds : sizes)
    EXPECT_EQ(testing::checkExecutionOrder(g, testing::enumerateExecutions(p, bounds), bounds), "");
}

TEST(ScheduleTransform, ParsesAndPrintsEveryKind) {
  const std::string text = "shift h by -1 along t; interchange t, b in h; skew t by b factor 2; reverse t; skew t by b";
  std::vector<ScheduleTransform> ts = parseScheduleTransforms(text);
  ASSERT_EQ(ts.size(), 5u);
  EXPECT_EQ(ts[0].kind, ScheduleTransform::Kind::Shift);
  EXPECT_EQ(ts[0].amount, -1);
  EXPECT_EQ(ts[1].statement, "h");
  EXPECT_EQ(ts[1].column, 24);
  EXPECT_EQ(printScheduleTransforms(ts), text);
  EXPECT_EQ(printScheduleTransforms(parseScheduleTransforms("  interchange   t,b ;")), "interchange t, b");
}

TEST(ScheduleTransform, BadTextNamesItsColumn) {
  auto error = [](const std::string& text) {
    try {
      parseScheduleTransforms(text);
    } catch (const ScheduleTransformError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("twist t"), "column 1: unknown transform 'twist' (expected shift, interchange, skew or reverse)");
  EXPECT_EQ(error("interchange t"), "column 14: expected ',' at the end");
  EXPECT_EQ(error("reverse t; shift h by x along t"), "column 23: expected the distance (an integer), found 'x'");
  EXPECT_EQ(error("shift h by 0 along t"), "column 1: a shift by 0 changes nothing");
  EXPECT_EQ(error("interchange t, t"), "column 1: interchange needs two different dimensions");
  EXPECT_EQ(error("reverse t reverse b"), "column 11: expected ';' between transforms, found 'reverse'");
  EXPECT_EQ(error(" ; "), "column 1: no transform given (e.g. `interchange t, b`)");
  EXPECT_EQ(error("reverse t!"), "column 10: unexpected character '!'");
}

TEST(ScheduleTransform, NamesWhatTheProgramDoesNotHave) {
  Graph g = example("rnn.tpo");
  EXPECT_THROW(transformed(g, "reverse q"), ScheduleTransformError);
  try {
    transformed(g, "shift hh by 1 along t");
    FAIL();
  } catch (const ScheduleTransformError& e) {
    EXPECT_EQ(std::string(e.what()),
              "column 1: no statement named 'hh'; the named ones are U, W, bias, h, s, x, y (or write %N / S_N)");
  }
  try {
    transformed(g, "reverse i; reverse t in y");
    FAIL();
  } catch (const ScheduleTransformError& e) {
    EXPECT_EQ(std::string(e.what()), "column 1: no statement has dimension i in its loops");
  }
  try {
    transformed(g, "reverse t in y");
    FAIL();
  } catch (const ScheduleTransformError& e) {
    EXPECT_EQ(std::string(e.what()), "column 1: y does not have dimension t in its loops");
  }
}

TEST(ScheduleTransform, InterchangeOfRnnPutsTimeOutsideAndDistributesTheMean) {
  Graph g = example("rnn.tpo");
  ScheduleResult r = transformed(g, "interchange b, t");
  EXPECT_EQ(r.transforms, "interchange b, t");
  EXPECT_NE(r.untransformedMap, r.scheduleMap);
  testing::expectGolden(testing::sourceDir() / "tests/golden/schedule/transforms/rnn-interchange.txt", printLoopProgram(g, r.program));
  expectRunsInOrder(g, r.program, {{{"B", 1}, {"T", 1}}, {{"B", 3}, {"T", 4}}});
}

TEST(ScheduleTransform, LegalTransformsOfTheWavefrontRunInOrder) {
  Graph g = program(testing::kWavefrontProgram);
  for (const char* text : {"interchange i, j", "skew j by i", "skew j by i; interchange i, j", "shift x by -1 along j",
                           "shift rows by 3 along i"}) {
    SCOPED_TRACE(text);
    ScheduleResult r = transformed(g, text);
    expectRunsInOrder(g, r.program, {{{"N", 1}, {"M", 1}}, {{"N", 3}, {"M", 4}}, {{"N", 5}, {"M", 2}}});
  }
  testing::expectGolden(testing::sourceDir() / "tests/golden/schedule/transforms/wavefront-skew-interchange.txt",
                        printLoopProgram(g, transformed(g, "skew j by i; interchange i, j").program));
}

TEST(ScheduleTransform, IllegalTransformsNameTheDependencesTheyBreak) {
  Graph rnn = example("rnn.tpo");
  std::vector<ViolatedDependence> v = violations(rnn, "shift h by 1 along t");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].producer, 4);
  EXPECT_EQ(v[0].sentence,
            "%9 (matmul) reads %4[b, t - 1] at " + (testing::sourceDir() / "resources/examples/rnn.tpo").string() +
                ":17:30: the transformed schedule runs the value after its reader; e.g. %4 'h' (merge) at [b=0, t=0] "
                "would run at or after its reader %9 (matmul) at [b=0, t=1] (B=1, T=2)");
  EXPECT_EQ(violations(rnn, "reverse t").size(), 2u);  // h[t-1], and x[b, 0] read by the base case
  Graph wave = program(testing::kWavefrontProgram);
  EXPECT_EQ(violations(wave, "reverse i").size(), 4u);  // the north reads, and the first row's reads of x and a
  EXPECT_FALSE(violations(wave, "reverse j").empty());
  EXPECT_TRUE(violations(wave, "interchange i, j").empty());
}

TEST(ScheduleTransform, TransformedProgramsRunLikeTheReference) {
  for (const auto& [source, text] : std::vector<std::pair<std::string, std::string>>{
           {"rnn.tpo", "reverse b"}, {"rnn.tpo", "skew t by b factor 2"}, {"", "skew j by i; interchange i, j"}}) {
    SCOPED_TRACE(source + ": " + text);
    Graph g = source.empty() ? program(testing::kWavefrontProgram) : example(source);
    PassContext context;
    context.options["schedule-transform"] = text;
    CompiledProgram compiled = compileProgram(g, defaultPipeline(), context);
    const SymbolEnv bounds(g.boundDefaults.begin(), g.boundDefaults.end());
    CompiledRunResult run = runCompiled(compiled, bounds, {});
    ReferenceInterpreter reference(g, InterpreterOptions{bounds});
    std::vector<std::pair<std::string, Tensor>> expected;
    for (const GraphOutput& o : g.outputs) expected.emplace_back(o.name, reference.evaluateOutput(o));
    EXPECT_EQ(testing::compareOutputs(run.outputs, expected), "");
  }
}

}  // namespace
}  // namespace tempo
