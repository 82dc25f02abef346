// Scheduling the example programs: isl schedules every example (no fallback),
// the printed loops match tests/golden/schedule/NAME.loops, the schedule map
// respects every dependence exactly (isl), and running the loops at concrete
// bounds — two different assignments from the SAME LoopProgram, since the
// schedule is parametric — executes every statement instance exactly once,
// each after every producer point it reads. The fallback schedule passes the
// same execution checks.
#include "frontend/Frontend.h"
#include "schedule/ScheduleCheck.h"
#include "schedule/Scheduler.h"
#include "support/GoldenFiles.h"

#include "LoopEnumeration.h"

namespace tempo {
namespace {

namespace fs = std::filesystem;

std::string goldenName(const fs::path& program) {
  std::string name = fs::relative(program, testing::sourceDir() / "resources" / "examples").string();
  std::replace(name.begin(), name.end(), '/', '_');
  return fs::path(name).replace_extension(".loops").string();
}

/// Two bound assignments: small and asymmetric, so swapped loops would show.
std::vector<SymbolEnv> boundAssignments(const Graph& g) {
  std::map<std::string, int64_t> first{{"T", 4}, {"B", 2}, {"L", 2}}, second{{"T", 5}, {"B", 3}, {"L", 3}};
  SymbolEnv a, b;
  for (const std::string& n : g.boundNames()) {
    a[n] = first.count(n) ? first[n] : 3;
    b[n] = second.count(n) ? second[n] : 2;
  }
  return {a, b};
}

Graph compileExample(const fs::path& path) {
  FrontendResult r = compileFile(path.string());
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  return r.graph;
}

void expectValidRuns(const Graph& g, const LoopProgram& p) {
  for (const SymbolEnv& bounds : boundAssignments(g)) {
    std::vector<testing::Execution> run = testing::enumerateExecutions(p, bounds);
    EXPECT_EQ(testing::checkExecutionOrder(g, run, bounds), "") << "T=" << bounds.count("T");
  }
}

TEST(ScheduleExamples, IslSchedulesEveryExampleToItsGoldenLoops) {
  auto programs = testing::examplePrograms();
  ASSERT_GE(programs.size(), 6u);
  for (const fs::path& path : programs) {
    SCOPED_TRACE(path.filename().string());
    Graph g = compileExample(path);
    IslContext ctx;
    ScheduleResult r = computeSchedule(g, ctx);
    EXPECT_FALSE(r.usedFallback) << r.fallbackReason;
    EXPECT_EQ(r.fallbackReason, "");
    EXPECT_FALSE(r.scheduleTree.empty());
    testing::expectGolden(testing::sourceDir() / "tests" / "golden" / "schedule" / goldenName(path),
                          printLoopProgram(g, r.program));
  }
}

TEST(ScheduleExamples, ScheduleMapsRespectEveryDependence) {
  for (const fs::path& path : testing::examplePrograms()) {
    SCOPED_TRACE(path.filename().string());
    Graph g = compileExample(path);
    IslContext ctx;
    for (auto algorithm : {ScheduleOptions::Algorithm::Isl, ScheduleOptions::Algorithm::Fallback}) {
      ScheduleResult r = computeSchedule(g, ctx, {algorithm});
      EXPECT_TRUE(scheduleRespects(ctx, r.relations.validityUnion(), r.scheduleMap));
      EXPECT_EQ(scheduleViolations(ctx, r.relations.validityUnion(), r.scheduleMap).find("S_"), std::string::npos);
    }
  }
}

TEST(ScheduleExamples, IslLoopsRunEveryInstanceOnceAfterItsInputsAtTwoSizes) {
  for (const fs::path& path : testing::examplePrograms()) {
    SCOPED_TRACE(path.filename().string());
    Graph g = compileExample(path);
    IslContext ctx;
    expectValidRuns(g, scheduleGraph(g, ctx));
  }
}

TEST(ScheduleExamples, FallbackLoopsRunEveryInstanceOnceAfterItsInputsAtTwoSizes) {
  for (const fs::path& path : testing::examplePrograms()) {
    SCOPED_TRACE(path.filename().string());
    Graph g = compileExample(path);
    IslContext ctx;
    ScheduleResult r = computeSchedule(g, ctx, {ScheduleOptions::Algorithm::Fallback});
    EXPECT_TRUE(r.usedFallback);
    expectValidRuns(g, r.program);
  }
}

TEST(ScheduleExamples, BoundOneIsAValidSizeToo) {
  for (const fs::path& path : testing::examplePrograms()) {
    SCOPED_TRACE(path.filename().string());
    Graph g = compileExample(path);
    IslContext ctx;
    LoopProgram p = scheduleGraph(g, ctx);
    SymbolEnv ones;
    for (const std::string& n : g.boundNames()) ones[n] = 1;
    EXPECT_EQ(testing::checkExecutionOrder(g, testing::enumerateExecutions(p, ones), ones), "");
  }
}

TEST(ScheduleExamples, ReturnsRunsTheFutureReadBackwards) {
  Graph g = compileExample(testing::sourceDir() / "resources" / "examples" / "returns.tpo");
  IslContext ctx;
  SymbolEnv bounds{{"B", 1}, {"T", 6}};
  std::vector<int64_t> order;
  for (const auto& x : testing::enumerateExecutions(scheduleGraph(g, ctx), bounds))
    if (g.node(x.node).name == "g") order.push_back(x.point[1]);
  EXPECT_EQ(order, (std::vector<int64_t>{5, 4, 3, 2, 1, 0}));
}

TEST(ScheduleExamples, DecodeRunsTimeOutsideLayers) {
  // x[l, t] reads y[L-1, t-1] at l == 0: every layer of step t-1 comes before step t.
  Graph g = compileExample(testing::sourceDir() / "resources" / "examples" / "gpt_decode.tpo");
  IslContext ctx;
  for (auto algorithm : {ScheduleOptions::Algorithm::Isl, ScheduleOptions::Algorithm::Fallback}) {
    SymbolEnv bounds{{"L", 2}, {"T", 3}};
    std::vector<std::vector<int64_t>> order;
    for (const auto& x : testing::enumerateExecutions(computeSchedule(g, ctx, {algorithm}).program, bounds))
      if (g.node(x.node).name == "y") order.push_back(x.point);
    std::vector<std::vector<int64_t>> expected{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}};
    EXPECT_EQ(order, expected);
  }
}

}  // namespace
}  // namespace tempo
