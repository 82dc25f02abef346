// RunDiff: nodes matched across runs by what they are, regressions only past both the relative
// threshold and the absolute floor (times) or the threshold (bytes), new work counted.
#include "RunStoreTestSupport.h"

#include "runstore/RunDiff.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

using testing::TempStore;

StoredNode node(int id, const std::string& key, int64_t totalNs, int64_t peakBytes = 0) {
  StoredNode n;
  n.node = id;
  n.label = "%" + std::to_string(id) + " " + key;
  n.op = "add";
  n.matchKey = key;
  n.calls = 10;
  n.totalNs = n.minNs = n.maxNs = totalNs;
  n.peakBytes = peakBytes;
  n.line = 3;
  return n;
}

RunRecord record(std::vector<StoredNode> nodes, int64_t peak = 1000) {
  RunRecord r;
  r.nodes = std::move(nodes);
  for (const StoredNode& n : r.nodes) r.wallNs += n.totalNs;
  r.peakMeasured = peak;
  r.lines.push_back({3, "x[t] = x[t-1] + 1", 10, r.wallNs, 0});
  return r;
}

struct Pair {
  TempStore tmp{"diff"};
  RunStore store{tmp.path()};
  int64_t a = 0, b = 0;
  Pair(const RunRecord& ra, const RunRecord& rb) {
    RunHeader h;
    h.programPath = "/p.tpo";
    a = store.beginRun(h);
    store.finishRun(a, ra);
    b = store.beginRun(h);
    store.finishRun(b, rb);
  }
  RunDiff diff(RunDiffOptions o = {}) { return diffRuns(store, a, b, o); }
};

TEST(RunDiff, TheSameRunTwiceHasNoRegression) {
  RunRecord r = record({node(1, "add 'x'", 4'000'000), node(2, "mul ''", 2'000'000)});
  Pair p(r, r);
  RunDiff d = p.diff();
  EXPECT_FALSE(d.regressed());
  ASSERT_EQ(d.nodes.size(), 2u);
  for (const RunDiffRow& row : d.nodes) EXPECT_TRUE(row.inA && row.inB);
  EXPECT_NE(printRunDiff(d, {}, 10).find("no regression"), std::string::npos);
}

TEST(RunDiff, ANodeSlowerPastBothTheThresholdAndTheFloorRegresses) {
  Pair p(record({node(1, "add 'x'", 1'000'000), node(2, "mul ''", 2'000'000)}),
         record({node(1, "add 'x'", 11'000'000), node(2, "mul ''", 2'050'000)}));
  RunDiff d = p.diff();
  EXPECT_TRUE(d.regressed());
  ASSERT_FALSE(d.nodes.empty());
  EXPECT_TRUE(d.nodes.front().regressed);
  EXPECT_EQ(d.nodes.front().what, "%1 add 'x'");
  EXPECT_NE(d.nodes.front().why.find("time +1000%"), std::string::npos) << d.nodes.front().why;
  EXPECT_FALSE(d.nodes.back().regressed) << "+2.5% is under the threshold";
  std::string text = printRunDiff(d, {}, 10);
  EXPECT_NE(text.find("! %1 add 'x'"), std::string::npos) << text;
  EXPECT_NE(text.find("\nregressed\n"), std::string::npos) << text;
}

TEST(RunDiff, MicrosecondNoiseUnderTheFloorIsNotARegression) {
  Pair p(record({node(1, "add 'x'", 1'500)}), record({node(1, "add 'x'", 3'100)}));
  EXPECT_FALSE(p.diff().regressed()) << "+107% of 1.5 us is noise, not a regression";
  RunDiffOptions strict;
  strict.minTimeNs = 0;
  EXPECT_TRUE(p.diff(strict).regressed());
}

TEST(RunDiff, NodesAreMatchedByWhatTheyAreNotByTheirIds) {
  Pair p(record({node(4, "add 'x'", 3'000'000)}), record({node(9, "add 'x'", 3'000'000), node(3, "exp ''", 4'000'000)}));
  RunDiff d = p.diff();
  ASSERT_EQ(d.nodes.size(), 2u);
  const RunDiffRow& fresh = d.nodes.front();
  EXPECT_TRUE(fresh.inB && !fresh.inA);
  EXPECT_TRUE(fresh.regressed) << "4 ms of new work";
  EXPECT_NE(fresh.why.find("new"), std::string::npos);
  const RunDiffRow& same = d.nodes.back();
  EXPECT_TRUE(same.inA && same.inB);
  EXPECT_FALSE(same.regressed);
}

TEST(RunDiff, MorePeakBytesPastTheThresholdRegress) {
  Pair p(record({node(1, "add 'x'", 1'000'000, 4096)}, 10'000), record({node(1, "add 'x'", 1'000'000, 8192)}, 10'400));
  RunDiff d = p.diff();
  EXPECT_TRUE(d.regressed());
  EXPECT_NE(d.nodes.front().why.find("peak +4096 B (+100%)"), std::string::npos) << d.nodes.front().why;
  EXPECT_FALSE(d.run.regressed) << "the run's peak grew 4%, under 5%";
}

TEST(RunDiff, AMissingRunIsAnError) {
  RunRecord r = record({node(1, "add 'x'", 1'000)});
  Pair p(r, r);
  EXPECT_THROW(diffRuns(p.store, p.a, 999, {}), RunStoreError);
}

}  // namespace
}  // namespace tempo
