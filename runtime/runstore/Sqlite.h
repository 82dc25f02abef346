// Sqlite: the few RAII wrappers over SQLite 3's C API that the run store needs.
//
// `SqliteDb` owns a connection (opened with a busy timeout so that a reader
// and a writer in two processes wait for each other instead of failing),
// `SqliteStatement` a prepared statement with positional binds (1-based, as
// SQLite counts) and typed column reads (0-based), `SqliteTransaction` a
// BEGIN IMMEDIATE ... COMMIT that rolls back when it goes out of scope
// uncommitted (an exception in the middle of writing a run leaves nothing
// behind). Every SQLite error becomes a RunStoreError carrying SQLite's
// message and the SQL that failed.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace tempo {

class RunStoreError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class SqliteStatement;

class SqliteDb {
public:
  /// Opens (creating) the database file; `readOnly` opens an existing file for reading only.
  explicit SqliteDb(const std::string& path, bool readOnly = false);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  /// Runs one or more statements that return no rows.
  void exec(const std::string& sql);
  SqliteStatement prepare(const std::string& sql);
  int64_t lastInsertId() const;
  /// Rows the last INSERT, UPDATE or DELETE changed.
  int64_t changes() const;
  /// The value of a single-integer PRAGMA (user_version, ...).
  int64_t pragmaInt(const std::string& name);
  const std::string& path() const { return path_; }
  sqlite3* handle() { return db_; }

private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

class SqliteStatement {
public:
  SqliteStatement(sqlite3* db, const std::string& sql);
  ~SqliteStatement();
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  SqliteStatement& operator=(SqliteStatement&&) = delete;

  SqliteStatement& bind(int index, int64_t value);
  SqliteStatement& bind(int index, double value);
  SqliteStatement& bind(int index, std::string_view text);
  SqliteStatement& bindBlob(int index, std::string_view bytes);
  SqliteStatement& bindNull(int index);
  /// Advances to the next row: true while there is one.
  bool step();
  /// Runs a statement that returns no rows, then resets it for new binds.
  void run();
  void reset();

  int64_t columnInt(int column) const;
  double columnDouble(int column) const;
  std::string columnText(int column) const;
  bool columnIsNull(int column) const;

private:
  [[noreturn]] void fail(const char* what) const;
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
};

class SqliteTransaction {
public:
  explicit SqliteTransaction(SqliteDb& db);
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  void commit();

private:
  SqliteDb& db_;
  bool done_ = false;
};

}  // namespace tempo
