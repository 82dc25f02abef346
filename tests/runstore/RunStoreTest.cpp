// The run store (runtime/runstore): the schema is migrated once and versioned, a profiled run
// round-trips through every table, a failed or killed run is reported as such, removing a run
// removes everything recorded with it, and a reader sees the committed runs while a writer
// holds its transaction open.
#include "RunStoreTestSupport.h"

#include "npy/Npy.h"
#include "runstore/RunSchema.h"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <numeric>

namespace tempo {
namespace {

using testing::ProfiledExample;
using testing::TempStore;

std::filesystem::path example(const std::string& name) { return testing::sourceDir() / "resources/examples" / name; }

int64_t countRows(RunStore& store, const std::string& table, int64_t runId) {
  SqliteStatement s = store.db().prepare("SELECT COUNT(*) FROM " + table + " WHERE run_id = ?");
  s.bind(1, runId);
  return s.step() ? s.columnInt(0) : -1;
}

TEST(RunStore, ANewFileIsMigratedToTheCurrentSchemaInWalModeAndReopensAsIs) {
  TempStore tmp("schema");
  {
    RunStore store(tmp.path());
    EXPECT_EQ(store.db().pragmaInt("user_version"), kRunStoreSchemaVersion);
    SqliteStatement mode = store.db().prepare("PRAGMA journal_mode");
    ASSERT_TRUE(mode.step());
    EXPECT_EQ(mode.columnText(0), "wal");
    EXPECT_TRUE(store.list().empty());
  }
  RunStore again(tmp.path());
  EXPECT_EQ(again.db().pragmaInt("user_version"), kRunStoreSchemaVersion);
}

TEST(RunStore, AFileFromANewerSchemaIsRefusedNamingBothVersions) {
  TempStore tmp("newer");
  {
    RunStore store(tmp.path());
    store.db().exec("PRAGMA user_version = " + std::to_string(kRunStoreSchemaVersion + 7));
  }
  try {
    RunStore store(tmp.path());
    FAIL() << "a newer schema was opened";
  } catch (const RunStoreError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("schema version " + std::to_string(kRunStoreSchemaVersion + 7)), std::string::npos) << what;
    EXPECT_NE(what.find("this build's " + std::to_string(kRunStoreSchemaVersion)), std::string::npos) << what;
  }
}

TEST(RunStore, AVersionOneFileIsMigratedKeepingItsRuns) {
  ProfiledExample p;
  testing::profileExample(example("small/counter.tpo"), p);
  TempStore tmp("migrate");
  int64_t id = 0;
  {
    RunStore store(tmp.path());
    id = testing::storeRun(store, p);
    // Back to what version 1 had: no steps, no flows, no time inside generated code.
    store.db().exec("ALTER TABLE run_nodes DROP COLUMN kernel_ns; ALTER TABLE spans DROP COLUMN kernel_start_ns; "
                    "ALTER TABLE spans DROP COLUMN kernel_ns; "
                    "DROP TABLE flows; ALTER TABLE runs DROP COLUMN flows_truncated; DROP TABLE step_statements; "
                    "DROP TABLE steps; PRAGMA user_version = 1;");
  }
  RunStore store(tmp.path());
  EXPECT_EQ(store.db().pragmaInt("user_version"), kRunStoreSchemaVersion);
  EXPECT_EQ(store.run(id)->status, "ok");
  EXPECT_EQ(store.spans(id).size(), p.trace.spans().size());
  EXPECT_TRUE(store.steps(id).empty());  // the old run has none; new runs do
  for (const StoredNode& n : store.nodes(id)) EXPECT_EQ(n.kernelNs, 0) << n.label;
  const int64_t next = testing::storeRun(store, p);
  EXPECT_EQ(store.steps(next).size(), p.trace.steps().size());
}

TEST(RunStore, AProfiledRunRoundTripsThroughEveryTable) {
  ProfiledExample p;
  testing::profileExample(example("rnn.tpo"), p);
  TempStore tmp("roundtrip");
  RunStore store(tmp.path());
  const int64_t id = store.beginRun(p.header);
  EXPECT_EQ(store.run(id)->status, "running");
  store.finishRun(id, p.record);

  std::optional<StoredRun> run = store.run(id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->status, "ok");
  EXPECT_EQ(run->header.programText, p.source);
  EXPECT_EQ(run->header.programHash, fnv1aHex(p.source.data(), p.source.size()));
  EXPECT_EQ(run->header.boundsJson, p.header.boundsJson);
  EXPECT_EQ(run->wallNs, p.trace.runNs());
  EXPECT_EQ(run->instances, p.result.stats.execs);
  EXPECT_EQ(run->peakMeasured, p.result.stats.peakBytes);
  EXPECT_EQ(run->peakPredicted, p.result.predictedBytes);
  EXPECT_FALSE(run->endedAt.empty());

  std::vector<StoredSpan> spans = store.spans(id);
  ASSERT_EQ(spans.size(), p.trace.spans().size());
  for (size_t i = 0; i < spans.size(); ++i) {
    EXPECT_EQ(spans[i].startNs, p.trace.spans()[i].startNs);
    EXPECT_EQ(spans[i].node, p.trace.spans()[i].node);
  }
  std::vector<StoredNode> nodes = store.nodes(id);
  ASSERT_EQ(nodes.size(), p.record.nodes.size());
  int64_t calls = 0;
  for (const StoredNode& n : nodes) {
    calls += n.calls;
    EXPECT_FALSE(n.matchKey.empty());
    EXPECT_FALSE(n.op.empty());
  }
  EXPECT_EQ(calls, p.result.stats.execs);
  for (size_t i = 1; i < nodes.size(); ++i) EXPECT_GE(nodes[i - 1].totalNs, nodes[i].totalNs);
  EXPECT_EQ(store.lines(id).size(), p.record.lines.size());

  std::vector<StoredMemoryEvent> memory = store.memoryEvents(id);
  ASSERT_EQ(memory.size(), p.result.measuredTimeline.events().size());
  ASSERT_FALSE(memory.empty());
  int64_t lastTime = 0;
  for (const StoredMemoryEvent& e : memory) {
    EXPECT_GE(e.timeNs, lastTime) << "memory events are timed in run order";
    lastTime = e.timeNs;
    EXPECT_TRUE(e.predictedLive) << "no budget: the prediction lines up with every event";
  }
  std::vector<StoredOutput> outputs = store.outputs(id);
  ASSERT_EQ(outputs.size(), p.result.outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& t = p.result.outputs[i].second;
    EXPECT_EQ(outputs[i].name, p.result.outputs[i].first);
    EXPECT_EQ(outputs[i].checksum, fnv1aHex(t.raw(), t.nbytes()));
    EXPECT_TRUE(outputs[i].npy.empty());
  }
  std::vector<StoredStep> steps = store.steps(id);
  ASSERT_EQ(steps.size(), p.trace.steps().size());
  ASSERT_FALSE(steps.empty());
  for (size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(steps[i].iterations, p.trace.steps()[i].iterations);
    EXPECT_EQ(steps[i].instances, p.trace.steps()[i].instances);
    EXPECT_FALSE(steps[i].loopVar.empty());
  }
  EXPECT_EQ(store.stepStatements(id).size(), p.trace.stepStatements().size());
  // A window of the spans by time is what the timeline asks for.
  const int64_t mid = spans[spans.size() / 2].startNs;
  std::vector<StoredSpan> early = store.spans(id, 0, mid);
  EXPECT_EQ(early.size(), static_cast<size_t>(std::count_if(spans.begin(), spans.end(),
                                                            [&](const StoredSpan& s) { return s.startNs < mid; })));
}

TEST(RunStore, StoredOutputsKeepTheirNpyBytesWhenAsked) {
  ProfiledExample p;
  testing::profileExample(example("returns.tpo"), p);
  RunRecord withOutputs = recordRun(p.program, p.bounds, p.result, p.trace, p.source, true);
  TempStore tmp("npy");
  RunStore store(tmp.path());
  const int64_t id = store.beginRun(p.header);
  store.finishRun(id, withOutputs);
  std::vector<StoredOutput> outputs = store.outputs(id);
  ASSERT_EQ(outputs.size(), p.result.outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) EXPECT_EQ(outputs[i].npy, serializeNpy(p.result.outputs[i].second));
}

TEST(RunStore, AFailedRunKeepsItsErrorAndAKilledOneIsIncomplete) {
  ProfiledExample p;
  testing::profileExample(example("small/counter.tpo"), p);
  TempStore tmp("status");
  RunStore store(tmp.path());
  const int64_t failed = store.beginRun(p.header);
  store.failRun(failed, "division by zero at t=3");
  EXPECT_EQ(store.run(failed)->status, "failed");
  EXPECT_EQ(store.run(failed)->error, "division by zero at t=3");

  const int64_t killed = store.beginRun(p.header);
  EXPECT_EQ(store.run(killed)->status, "running") << "this process is alive";
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);  // a process id that no longer runs
  store.db().prepare("UPDATE runs SET pid = ? WHERE id = ?").bind(1, int64_t{child}).bind(2, killed).run();
  EXPECT_EQ(store.run(killed)->status, "incomplete");
  EXPECT_EQ(store.list().front().status, "incomplete");
}

TEST(RunStore, RemovingARunRemovesEverythingRecordedWithIt) {
  ProfiledExample p;
  testing::profileExample(example("rnn.tpo"), p);
  TempStore tmp("remove");
  RunStore store(tmp.path());
  const int64_t keep = testing::storeRun(store, p);
  const int64_t drop = testing::storeRun(store, p);
  ASSERT_GT(countRows(store, "spans", drop), 0);
  EXPECT_TRUE(store.remove(drop));
  EXPECT_FALSE(store.remove(drop));
  EXPECT_FALSE(store.run(drop));
  for (const char* table : {"spans", "run_nodes", "run_lines", "memory_events", "outputs", "steps", "step_statements", "flows"}) {
    EXPECT_EQ(countRows(store, table, drop), 0) << table;
    EXPECT_GT(countRows(store, table, keep), 0) << table;
  }
}

TEST(RunStore, AReaderSeesTheCommittedRunsWhileAWriterHoldsItsTransaction) {
  ProfiledExample p;
  testing::profileExample(example("small/counter.tpo"), p);
  TempStore tmp("concurrent");
  RunStore writer(tmp.path());
  const int64_t first = testing::storeRun(writer, p);
  RunStore reader(tmp.path());
  {
    SqliteTransaction open(writer.db());  // a run's final transaction, not yet committed
    writer.db().prepare("UPDATE runs SET label = 'changing' WHERE id = ?").bind(1, first).run();
    std::vector<StoredRun> seen = reader.list();  // WAL: does not wait for the writer
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen.front().header.label, "test");
    EXPECT_EQ(reader.spans(first).size(), p.trace.spans().size());
  }  // rolled back
  EXPECT_EQ(reader.run(first)->header.label, "test");
}

TEST(RunStore, RunsAreListedNewestFirstAndByProgram) {
  ProfiledExample a, b;
  testing::profileExample(example("small/counter.tpo"), a);
  testing::profileExample(example("returns.tpo"), b);
  TempStore tmp("list");
  RunStore store(tmp.path());
  const int64_t first = store.beginRun(a.header);
  const int64_t second = store.beginRun(b.header);
  const int64_t third = store.beginRun(a.header);
  std::vector<StoredRun> all = store.list();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].id, third);
  EXPECT_EQ(all[2].id, first);
  std::vector<StoredRun> ofA = store.list(a.header.programPath);
  ASSERT_EQ(ofA.size(), 2u);
  EXPECT_EQ(ofA[0].id, third);
  EXPECT_EQ(store.list(b.header.programPath).front().id, second);
  EXPECT_TRUE(std::filesystem::path(a.header.programPath).is_absolute());
}

}  // namespace
}  // namespace tempo
