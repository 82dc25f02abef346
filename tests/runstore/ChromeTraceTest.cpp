// Chrome trace export (runtime/runstore/ChromeTrace): a stored run exports as a trace that keeps
// Perfetto's import rules, and the rules checker itself catches what Perfetto would reject. Every
// example is exported through the CLI in tests/cli/ProfileEveryExampleTest.cpp.
#include "RunStoreTestSupport.h"

#include "runstore/ChromeTrace.h"
#include "support/ChromeTraceRules.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace tempo {
namespace {

TEST(ChromeTrace, AStoredRunExportsOneSlicePerSpanAndKeepsPerfettosRules) {
  testing::ProfiledExample p;
  testing::profileExample(testing::sourceDir() / "resources/examples/rnn.tpo", p);
  testing::TempStore tmp("chrome");
  RunStore store(tmp.path());
  const int64_t id = testing::storeRun(store, p);
  std::ostringstream out;
  writeChromeTrace(store, id, out);
  EXPECT_TRUE(testing::chromeTraceViolations(out.str()).empty());
  nlohmann::json trace = nlohmann::json::parse(out.str());
  size_t slices = 0;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "X" && (e["cat"] == "statement" || e["cat"] == "generated")) ++slices;
  EXPECT_EQ(slices, p.trace.spans().size());
  EXPECT_THROW(writeChromeTrace(store, id + 1, out), RunStoreError);
}

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
