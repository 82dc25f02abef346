#include "runstore/RunSchema.h"

#include <string>
#include <vector>

namespace tempo {

namespace {

/// Migration i takes the schema from version i to i + 1.
const std::vector<const char*>& migrations() {
  static const std::vector<const char*> steps = {
      // 0 -> 1: runs and what a profiled run records.
      R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  program_path TEXT NOT NULL,
  program_hash TEXT NOT NULL,
  program_text TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  engine TEXT NOT NULL,
  options TEXT NOT NULL DEFAULT '{}',
  bounds TEXT NOT NULL DEFAULT '{}',
  machine TEXT NOT NULL DEFAULT '',
  build TEXT NOT NULL DEFAULT '',
  started_at TEXT NOT NULL,
  ended_at TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
  error TEXT,
  pid INTEGER NOT NULL DEFAULT 0,
  wall_ns INTEGER,
  compile_ns INTEGER,
  instances INTEGER,
  dropped_spans INTEGER,
  peak_measured INTEGER,
  peak_predicted INTEGER,
  compile_summary TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX runs_by_program ON runs (program_path, started_at);
CREATE TABLE run_nodes (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  node INTEGER NOT NULL,
  label TEXT NOT NULL,
  op TEXT NOT NULL,
  match_key TEXT NOT NULL,
  kernel TEXT NOT NULL DEFAULT '',
  dims TEXT NOT NULL DEFAULT '',
  line INTEGER NOT NULL DEFAULT 0,
  col INTEGER NOT NULL DEFAULT 0,
  end_line INTEGER NOT NULL DEFAULT 0,
  end_col INTEGER NOT NULL DEFAULT 0,
  calls INTEGER NOT NULL,
  total_ns INTEGER NOT NULL,
  min_ns INTEGER NOT NULL,
  max_ns INTEGER NOT NULL,
  generated_calls INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  peak_bytes INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, node)
);
CREATE TABLE run_lines (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  line INTEGER NOT NULL,
  text TEXT NOT NULL,
  calls INTEGER NOT NULL,
  total_ns INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  PRIMARY KEY (run_id, line)
);
CREATE TABLE spans (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  start_ns INTEGER NOT NULL,
  duration_ns INTEGER NOT NULL,
  statement INTEGER NOT NULL,
  node INTEGER NOT NULL,
  thread INTEGER NOT NULL DEFAULT 0,
  c0 INTEGER NOT NULL DEFAULT 0,
  c1 INTEGER NOT NULL DEFAULT 0,
  c2 INTEGER NOT NULL DEFAULT 0,
  generated INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX spans_by_time ON spans (run_id, start_ns);
CREATE INDEX spans_by_node ON spans (run_id, node, start_ns);
CREATE TABLE memory_events (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  node INTEGER NOT NULL,
  statement INTEGER NOT NULL,
  count INTEGER NOT NULL,
  time_ns INTEGER NOT NULL DEFAULT -1,
  live INTEGER NOT NULL,
  peak INTEGER NOT NULL,
  predicted_live INTEGER,
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE outputs (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  dtype TEXT NOT NULL,
  shape TEXT NOT NULL,
  checksum TEXT NOT NULL,
  value_sum REAL NOT NULL,
  npy BLOB,
  PRIMARY KEY (run_id, name)
);
)sql",
      // 1 -> 2: the iterations of top-level loops (steps) and each statement's share of a step.
      R"sql(
CREATE TABLE steps (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  loop INTEGER NOT NULL,
  loop_var TEXT NOT NULL DEFAULT '',
  first_value INTEGER NOT NULL,
  iterations INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  instances INTEGER NOT NULL,
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE step_statements (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  statement INTEGER NOT NULL,
  node INTEGER NOT NULL,
  calls INTEGER NOT NULL,
  total_ns INTEGER NOT NULL
);
CREATE INDEX step_statements_by_step ON step_statements (run_id, step);
)sql",
      // 2 -> 3: which span's value each span read (flows), and whether a bound cut their list.
      R"sql(
CREATE TABLE flows (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  producer_node INTEGER NOT NULL,
  producer_start_ns INTEGER NOT NULL,
  consumer_node INTEGER NOT NULL,
  consumer_start_ns INTEGER NOT NULL
);
CREATE INDEX flows_by_producer ON flows (run_id, producer_start_ns);
CREATE INDEX flows_by_consumer ON flows (run_id, consumer_start_ns);
ALTER TABLE runs ADD COLUMN flows_truncated INTEGER NOT NULL DEFAULT 0;
)sql",
      // 3 -> 4: the time inside generated code (the kernels' hook), per node and per span.
      R"sql(
ALTER TABLE run_nodes ADD COLUMN kernel_ns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE spans ADD COLUMN kernel_start_ns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE spans ADD COLUMN kernel_ns INTEGER NOT NULL DEFAULT 0;
)sql",
  };
  return steps;
}

}  // namespace

void migrateRunStore(SqliteDb& db) {
  db.exec("PRAGMA foreign_keys = ON");
  // WAL: a reader (the studio) and the writer (a profiled run) do not block each other.
  {
    SqliteStatement wal = db.prepare("PRAGMA journal_mode = WAL");
    wal.step();
  }
  db.exec("PRAGMA synchronous = NORMAL");
  const int64_t version = db.pragmaInt("user_version");
  if (version > kRunStoreSchemaVersion)
    throw RunStoreError("run store " + db.path() + " has schema version " + std::to_string(version) +
                        ", newer than this build's " + std::to_string(kRunStoreSchemaVersion) +
                        ": use a newer tempo or another --db");
  const auto& steps = migrations();
  for (int64_t v = version; v < kRunStoreSchemaVersion; ++v) {
    SqliteTransaction tx(db);
    // Re-read inside the write lock: another process may have migrated meanwhile.
    if (db.pragmaInt("user_version") > v) continue;
    db.exec(steps[static_cast<size_t>(v)]);
    db.exec("PRAGMA user_version = " + std::to_string(v + 1));
    tx.commit();
  }
}

}  // namespace tempo
