// RunSchema: the run store's tables, versioned, and the migrations between versions.
//
// The schema version lives in SQLite's `PRAGMA user_version` (0 for a new,
// empty file). `migrateRunStore` applies every migration from the file's
// version up to kRunStoreSchemaVersion, each in its own transaction together
// with the new version number, so a migration is all or nothing; a file whose
// version is newer than this build knows is refused with both versions named.
// The tables are documented in docs/profiler.md ("The schema").
#pragma once

#include "runstore/Sqlite.h"

namespace tempo {

inline constexpr int kRunStoreSchemaVersion = 4;

/// Brings `db` to kRunStoreSchemaVersion (WAL mode, foreign keys on). Throws RunStoreError.
void migrateRunStore(SqliteDb& db);

}  // namespace tempo
