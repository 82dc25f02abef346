// Chrome trace export (runtime/runstore/ChromeTrace): every example's stored run exports as a trace
// that keeps Perfetto's import rules (tests/support/ChromeTraceRules), with one X slice per stored
// span inside the run's slice and a counter per timed memory event.
#include "RunStoreTestSupport.h"

#include "runstore/ChromeTrace.h"
#include "support/ChromeTraceRules.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace tempo {
namespace {

std::vector<std::string> examplePrograms() {
  std::vector<std::string> names;
  const std::filesystem::path root = testing::sourceDir() / "resources/examples";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
    if (entry.path().extension() == ".tpo") names.push_back(std::filesystem::relative(entry.path(), root).string());
  std::sort(names.begin(), names.end());
  return names;
}

class ChromeTraceOfEveryExample : public ::testing::TestWithParam<std::string> {};

TEST_P(ChromeTraceOfEveryExample, KeepsPerfettosRules) {
  testing::ProfiledExample p;
  testing::profileExample(testing::sourceDir() / "resources/examples" / GetParam(), p);
  testing::TempStore tmp("chrome");
  RunStore store(tmp.path());
  const int64_t id = testing::storeRun(store, p);
  std::ostringstream out;
  writeChromeTrace(store, id, out);
  std::vector<std::string> violations = testing::chromeTraceViolations(out.str());
  for (size_t i = 0; i < violations.size() && i < 10; ++i) ADD_FAILURE() << violations[i];

  nlohmann::json trace = nlohmann::json::parse(out.str());
  size_t slices = 0, counters = 0, runSlices = 0, steps = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "X") ++(e["cat"] == "run" ? runSlices : e["cat"] == "step" ? steps : slices);
    if (e["ph"] == "C") ++counters;
  }
  EXPECT_EQ(runSlices, 1u);
  EXPECT_EQ(slices, p.trace.spans().size());
  EXPECT_EQ(steps, p.trace.steps().size());  // on their own track
  size_t timed = 0;
  for (const StoredMemoryEvent& e : store.memoryEvents(id))
    if (e.timeNs >= 0) timed += e.predictedLive ? 2 : 1;
  EXPECT_EQ(counters, timed);
  EXPECT_EQ(trace["metadata"]["tempo-run"], id);
}

INSTANTIATE_TEST_SUITE_P(Examples, ChromeTraceOfEveryExample, ::testing::ValuesIn(examplePrograms()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(ChromeTraceRules, CatchOverlappingSlicesCountersWithTwoValuesAndMissingCategories) {
  const std::string bad = R"({"traceEvents":[
    {"ph":"X","cat":"a","name":"p","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","cat":"a","name":"q","pid":1,"tid":1,"ts":5,"dur":10},
    {"ph":"C","cat":"m","name":"c","pid":1,"ts":1,"args":{"x":1,"y":2}},
    {"ph":"X","name":"r","pid":1,"tid":2,"ts":0,"dur":1},
    {"ph":"s","cat":"f","name":"flow","pid":1,"tid":1,"ts":1,"id":"7"}]})";
  std::vector<std::string> v = testing::chromeTraceViolations(bad);
  auto has = [&](const std::string& part) {
    return std::any_of(v.begin(), v.end(), [&](const std::string& s) { return s.find(part) != std::string::npos; });
  };
  EXPECT_TRUE(has("without nesting"));
  EXPECT_TRUE(has("exactly one numeric value"));
  EXPECT_TRUE(has("has no category"));
  EXPECT_TRUE(has("flow id must be a number"));
  const std::string good = R"({"traceEvents":[
    {"ph":"X","cat":"a","name":"p","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","cat":"a","name":"q","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","cat":"a","name":"r","pid":1,"tid":1,"ts":2.5,"dur":7.5},
    {"ph":"X","cat":"a","name":"s","pid":1,"tid":1,"ts":10,"dur":0}]})";
  EXPECT_TRUE(testing::chromeTraceViolations(good).empty());
}

}  // namespace
}  // namespace tempo
