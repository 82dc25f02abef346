// Every example profiles from the CLI: `tempo profile EXAMPLE --db` records it, `tempo runs show`
// reads it back, and `tempo runs export --format chrome` writes a trace that keeps Perfetto's
// import rules (tests/support/ChromeTraceRules) with one X slice per recorded span inside the
// run's slice, one per step on the steps' track, a counter per timed memory event and an s/f
// pair per flow.
#include "CliTestUtil.h"

#include "runstore/RunStore.h"
#include "support/ChromeTraceRules.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace tempo::cli::test {
namespace {

std::vector<std::string> exampleNames() {
  std::vector<std::string> names;
  for (const std::filesystem::path& p : allExamples()) names.push_back(std::filesystem::relative(p, examplesDir()).string());
  for (const auto& entry : std::filesystem::directory_iterator(examplesDir() / "rl"))
    if (entry.path().extension() == ".tpo") names.push_back(std::filesystem::relative(entry.path(), examplesDir()).string());
  std::sort(names.begin(), names.end());
  return names;
}

class ProfileEveryExample : public ::testing::TestWithParam<std::string> {};

TEST_P(ProfileEveryExample, RecordsAndExportsATraceThatKeepsPerfettosRules) {
  TempDir dir("profile_example");
  const std::string db = dir.str("runs.db"), trace = dir.str("trace.json");
  CliResult p = tempo({"profile", example(GetParam()), "--db", db, "--top", "3"});
  ASSERT_EQ(p.code, 0) << p.err;
  ASSERT_NE(p.out.find("stored as run 1"), std::string::npos) << p.out;
  CliResult show = tempo({"runs", "show", "1", "--db", db});
  ASSERT_EQ(show.code, 0) << show.err;
  EXPECT_NE(show.out.find("status   ok"), std::string::npos) << show.out;
  CliResult exported = tempo({"runs", "export", "1", "--format", "chrome", "-o", trace, "--db", db});
  ASSERT_EQ(exported.code, 0) << exported.err;

  const std::string text = readBinary(trace);
  std::vector<std::string> violations = testing::chromeTraceViolations(text);
  for (size_t i = 0; i < violations.size() && i < 10; ++i) ADD_FAILURE() << violations[i];
  RunStore store(db);
  nlohmann::json json = nlohmann::json::parse(text);
  size_t slices = 0, counters = 0, runSlices = 0, steps = 0, flowStarts = 0, flowEnds = 0, kernelSlices = 0;
  for (const auto& e : json["traceEvents"]) {
    if (e["ph"] == "X")
      ++(e["cat"] == "run" ? runSlices : e["cat"] == "step" ? steps : e["cat"] == "kernel" ? kernelSlices : slices);
    if (e["ph"] == "C") ++counters;
    if (e["ph"] == "s") ++flowStarts;
    if (e["ph"] == "f") ++flowEnds;
  }
  EXPECT_EQ(flowStarts, store.flows(1).size());  // a flow per value read from a recorded span
  EXPECT_EQ(flowEnds, flowStarts);
  EXPECT_EQ(runSlices, 1u);
  EXPECT_EQ(slices, store.spans(1).size());
  EXPECT_EQ(static_cast<int64_t>(slices), store.run(1)->instances);  // far below the span cap: every instance
  EXPECT_EQ(steps, store.steps(1).size());  // on their own track
  size_t inCode = 0;  // a kernel slice inside every span that ran generated code
  for (const StoredSpan& s : store.spans(1)) inCode += s.kernelNs > 0;
  EXPECT_EQ(kernelSlices, inCode);
  size_t timed = 0;
  for (const StoredMemoryEvent& e : store.memoryEvents(1))
    if (e.timeNs >= 0) timed += e.predictedLive ? 2 : 1;
  EXPECT_EQ(counters, timed);
  EXPECT_EQ(json["metadata"]["tempo-run"], 1);
}

INSTANTIATE_TEST_SUITE_P(Examples, ProfileEveryExample, ::testing::ValuesIn(exampleNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace tempo::cli::test
