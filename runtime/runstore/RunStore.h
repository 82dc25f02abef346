// RunStore: profiled runs in one SQLite database file.
//
// Opening a store creates the file (and its folder) if needed and migrates it
// to the current schema (RunSchema.h). A run is written in two transactions:
// `beginRun` inserts its header with status `running` and this process's id,
// `finishRun` writes everything the run produced and sets status `ok` at once
// (`failRun` sets `failed` with the error). A process killed between the two
// leaves its run `running` with a dead process id, which `list` and `run`
// report as `incomplete`; a process killed inside a transaction leaves
// nothing of that transaction (SQLite's WAL journal). Readers in other
// processes (the studio) read while a run is written. Throws RunStoreError.
#pragma once

#include "runstore/RunRecord.h"
#include "runstore/Sqlite.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

class RunStore {
public:
  explicit RunStore(const std::string& path);

  int64_t beginRun(const RunHeader& header);
  void finishRun(int64_t id, const RunRecord& record);
  void failRun(int64_t id, const std::string& error);

  /// Every run, newest first; only those of `programPath` when it is not empty.
  std::vector<StoredRun> list(const std::string& programPath = "");
  std::optional<StoredRun> run(int64_t id);
  std::vector<StoredNode> nodes(int64_t id);  ///< by total time, descending
  std::vector<StoredLine> lines(int64_t id);  ///< by total time, descending
  /// The spans starting in [fromNs, toNs), by start time.
  std::vector<StoredSpan> spans(int64_t id, int64_t fromNs = std::numeric_limits<int64_t>::min(),
                                int64_t toNs = std::numeric_limits<int64_t>::max());
  std::vector<StoredMemoryEvent> memoryEvents(int64_t id);
  std::vector<StoredOutput> outputs(int64_t id);
  std::vector<StoredStep> steps(int64_t id);  ///< by seq
  std::vector<StoredStepStatement> stepStatements(int64_t id);  ///< by step, then statement
  /// The flows out of and into the span of `node` starting at `startNs` (all of the run's when node < 0).
  std::vector<StoredFlow> flows(int64_t id, int node = -1, int64_t startNs = 0);
  /// Deletes the run and everything recorded with it; false if there is no such run.
  bool remove(int64_t id);

  const std::string& path() const { return db_.path(); }

  /// The columns a span query selects (`SELECT <spanColumns> FROM spans ...`), in the order readSpanRow reads.
  static const char* spanColumns();
  static StoredSpan readSpanRow(const SqliteStatement& row);
  SqliteDb& db() { return db_; }

private:
  std::vector<StoredRun> selectRuns(const std::string& where, int64_t key, const std::string& text);
  SqliteDb db_;
};

/// The database file a program's runs go to by default: `.tempo/runs.db` next to it.
std::string defaultRunStorePath(const std::string& programPath);

}  // namespace tempo
