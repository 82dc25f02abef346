// `tempo schedule`: loops (with memory statements) as text, the JSON document,
// the fallback flag, --memory-budget, and
// exit codes for programs with errors and for bad arguments.
#include "cli/CliTestUtil.h"

#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

namespace tempo::cli::test {
namespace {

TEST(ScheduleCommand, PrintsTheLoopsOfRnn) {
  CliResult r = tempo({"schedule", example("rnn.tpo")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("for c0 in 0..B:\n  for c1 in 0..T:\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exec %4 h[b=c0, t=c1]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  exec %15 y[b=c0]"), std::string::npos) << r.out;
}

TEST(ScheduleCommand, ReturnsRunsBackwards) {
  CliResult r = tempo({"schedule", example("returns.tpo")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("for c1 in -T + 1..1:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exec %1 g[b=c0, t=-c1]"), std::string::npos) << r.out;
}

TEST(ScheduleCommand, JsonHasRelationsScheduleAndLoops) {
  CliResult r = tempo({"schedule", example("rnn.tpo"), "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["usedFallback"], false);
  EXPECT_EQ(j["params"].size(), 2u);
  EXPECT_EQ(j["params"][0]["bound"], "B");
  EXPECT_EQ(j["statements"].size(), 17u);
  EXPECT_EQ(j["statements"][4]["statement"], "S_4");
  EXPECT_NE(j["statements"][4]["domain"].get<std::string>().find("S_4["), std::string::npos);
  EXPECT_FALSE(j["dependences"].empty());
  EXPECT_NE(j["dependences"][0]["relation"].get<std::string>().find("->"), std::string::npos);
  EXPECT_NE(j["scheduleTree"].get<std::string>().find("domain"), std::string::npos);
  EXPECT_NE(j["scheduleMap"].get<std::string>().find("S_4"), std::string::npos);
  ASSERT_TRUE(j["loops"].is_array());
  std::map<std::string, int> kinds;
  for (const auto& s : j["loops"]) kinds[s["kind"].get<std::string>()]++;
  EXPECT_EQ(kinds["for"], 1);  // the loop over b, x's loads fused into it
  EXPECT_EQ(j["scheduler"], "fusion");
  EXPECT_EQ(j["fusionFailure"], "");
  EXPECT_TRUE(j["clusters"].empty());  // clusters are isl's input only
  // With isl's scheduler, the step's chain is one isl statement with h, its root.
  CliResult isl = tempo({"schedule", example("rnn.tpo"), "--format", "json", "--scheduler", "isl"});
  ASSERT_EQ(isl.code, 0) << isl.err;
  nlohmann::json ji = nlohmann::json::parse(isl.out);
  EXPECT_EQ(ji["scheduler"], "isl");
  ASSERT_TRUE(ji["clusters"].is_array());
  ASSERT_FALSE(ji["clusters"].empty());
  EXPECT_EQ(ji["clusters"][0]["root"], 4);
  EXPECT_EQ(ji["clusters"][0]["members"].back(), 4);
  EXPECT_GT(kinds["alloc"], 0);
  EXPECT_GT(kinds["free"], 0);
  EXPECT_EQ(j["loops"][0]["kind"], "alloc");
  EXPECT_EQ(j["loops"][0]["bytes"], "160");  // W's loaded array (its store holds windows of it)
  EXPECT_EQ(j["text"], tempo({"schedule", example("rnn.tpo")}).out);
}

TEST(ScheduleCommand, MemoryBudgetAddsSwapsAtTheDefaultBounds) {
  CliResult loose = tempo({"schedule", example("rnn.tpo"), "--memory-budget", "1M"});
  ASSERT_EQ(loose.code, 0) << loose.err;
  EXPECT_EQ(loose.out.find("swap_out"), std::string::npos) << loose.out;
  EXPECT_NE(loose.out.find("# memory budget 1048576 B: met"), std::string::npos) << loose.out;
  // Above the 2336 B a step of h needs (stores are paged whole: h's store of every t, U and
  // the product), below what ours reaches.
  CliResult tight = tempo({"schedule", example("rnn.tpo"), "--memory-budget", "3000", "--format", "json"});
  ASSERT_EQ(tight.code, 0) << tight.err;
  nlohmann::json j = nlohmann::json::parse(tight.out);
  EXPECT_EQ(j["memoryBudget"]["budget"], 3000);
  EXPECT_EQ(j["memoryBudget"]["floor"], 2336);
  EXPECT_EQ(j["memoryBudget"]["met"], false);
  EXPECT_FALSE(j["memoryBudget"]["unmet"].empty());
  EXPECT_NE(tight.err.find("the planned swaps do not meet the memory budget"), std::string::npos) << tight.err;
  CliResult below = tempo({"schedule", example("rnn.tpo"), "--memory-budget", "10"});
  EXPECT_EQ(below.code, 2);
  EXPECT_NE(below.err.find("needs 2336 B at once: its result 32 B, and its reads %2 U 256 B, %4 h 2048 B"),
            std::string::npos)
      << below.err;
  EXPECT_EQ(tempo({"schedule", example("rnn.tpo"), "--memory-budget", "x"}).code, 2);
}

TEST(ScheduleCommand, FallbackFlagPrintsTheFallbackSchedule) {
  CliResult r = tempo({"schedule", example("returns.tpo"), "--fallback", "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["usedFallback"], true);
  EXPECT_NE(j["text"].get<std::string>().find("exec %1 g[b=c1, t=-c2]"), std::string::npos) << j["text"];
}

TEST(ScheduleCommand, EveryExampleSchedules) {
  for (const auto& path : allExamples()) {
    CliResult r = tempo({"schedule", path.string()});
    EXPECT_EQ(r.code, 0) << path << r.err;
    EXPECT_NE(r.out.find("exec %"), std::string::npos) << path;
  }
}

TEST(ScheduleCommand, ProgramErrorsExitOne) {
  TempDir dir("schedule");
  writeFile(dir.str("bad.tpo"), "dim t < T\nout y = nope[t]\n");
  CliResult r = tempo({"schedule", dir.str("bad.tpo")});
  EXPECT_EQ(r.code, kExitProgramErrors);
  EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(ScheduleCommand, AMissingFileExitsOne) {
  CliResult r = tempo({"schedule", "/nonexistent/x.tpo"});
  EXPECT_EQ(r.code, kExitProgramErrors);
}

TEST(ScheduleCommand, BadFormatIsAUsageError) {
  CliResult r = tempo({"schedule", example("rnn.tpo"), "--format", "dot"});
  EXPECT_EQ(r.code, kExitUsage);
}

TEST(ScheduleCommand, TransformInterchangesTheLoopsOfRnn) {
  CliResult r = tempo({"schedule", example("rnn.tpo"), "--transform", "interchange b, t"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("for c2 in 0..T:\n  for c4 in 0..B:\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("for c2 in 0..B:\n  alloc %13 s"), std::string::npos) << r.out;  // the mean, distributed
  CliResult j = tempo({"schedule", example("rnn.tpo"), "--transform", "interchange b,t", "--format", "json"});
  ASSERT_EQ(j.code, 0) << j.err;
  nlohmann::json doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["transforms"], "interchange b, t");
  EXPECT_NE(doc["untransformedMap"], doc["scheduleMap"]);
}

TEST(ScheduleCommand, AnIllegalTransformNamesTheDependenceAndExitsOne) {
  CliResult r = tempo({"schedule", example("rnn.tpo"), "--transform", "shift h by 1 along t"});
  EXPECT_EQ(r.code, kExitProgramErrors);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("error: the transformed schedule is illegal: it breaks 1 dependence\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("%9 (matmul) reads %4[b, t - 1] at "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rnn.tpo:17:30"), std::string::npos) << r.err;
}

// The drags of the studio's ScheduleTransformViewTest (dragsOnTheRnnAndAttentionExamples), given
// as text to the optimised program the studio shows: h one step later breaks its reader at t + 1;
// out h's per-sequence reshape one step later is legal; k after the growing window reads it is
// illegal, k one step early legal.
TEST(ScheduleCommand, DragsOfTheStudioTests) {
  struct Case {
    const char* program;
    const char* transform;
    const char* broken;  // nullptr: legal
    const char* count = "";
  };
  const Case cases[] = {{"rnn.tpo", "shift %4 by 1 along t", "%9 (matmul) reads %4[t - 1] at ", "it breaks 2 dependences"},
                        {"rnn.tpo", "shift %21 by 1 along t", nullptr},
                        {"attention_causal.tpo", "shift %5 by 1 along t", "%9 (matmul) reads %5[0:t + 1] at ",
                         "it breaks 1 dependence\n"},
                        {"attention_causal.tpo", "shift %5 by -1 along t", nullptr}};
  for (const Case& c : cases) {
    CliResult r = tempo({"schedule", example(c.program), "--optimized", "--transform", c.transform});
    if (!c.broken) {
      EXPECT_EQ(r.code, 0) << c.transform << "\n" << r.err;
      continue;
    }
    EXPECT_EQ(r.code, kExitProgramErrors) << c.transform;
    EXPECT_NE(r.err.find(c.count), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.broken), std::string::npos) << r.err;
  }
}

TEST(ScheduleCommand, BadTransformTextIsAUsageError) {
  CliResult r = tempo({"schedule", example("rnn.tpo"), "--transform", "interchange t"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_EQ(r.err, "tempo schedule: --transform: column 14: expected ',' at the end\n");
  CliResult q = tempo({"schedule", example("rnn.tpo"), "--transform", "reverse q"});
  EXPECT_EQ(q.code, kExitUsage);
  EXPECT_EQ(q.err, "tempo schedule: --transform: column 1: no statement has dimension q in its loops\n");
}

}  // namespace
}  // namespace tempo::cli::test
