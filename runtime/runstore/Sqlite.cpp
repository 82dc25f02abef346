#include "runstore/Sqlite.h"

#include <sqlite3.h>

#include <utility>

namespace tempo {

namespace {

[[noreturn]] void throwSqlite(sqlite3* db, const std::string& what) {
  throw RunStoreError(what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

}  // namespace

SqliteDb::SqliteDb(const std::string& path, bool readOnly) : path_(path) {
  const int flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
    std::string message = "cannot open run store " + path;
    if (db_) message += std::string(": ") + sqlite3_errmsg(db_);
    sqlite3_close(db_);
    db_ = nullptr;
    throw RunStoreError(message);
  }
  sqlite3_busy_timeout(db_, 5000);
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

void SqliteDb::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : sqlite3_errmsg(db_);
    sqlite3_free(error);
    throw RunStoreError("run store " + path_ + ": " + message + " (in: " + sql.substr(0, 120) + ")");
  }
}

SqliteStatement SqliteDb::prepare(const std::string& sql) { return SqliteStatement(db_, sql); }

int64_t SqliteDb::lastInsertId() const { return sqlite3_last_insert_rowid(db_); }
int64_t SqliteDb::changes() const { return sqlite3_changes64(db_); }

int64_t SqliteDb::pragmaInt(const std::string& name) {
  SqliteStatement s = prepare("PRAGMA " + name);
  return s.step() ? s.columnInt(0) : 0;
}

SqliteStatement::SqliteStatement(sqlite3* db, const std::string& sql) : db_(db), sql_(sql) {
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
    throwSqlite(db, "cannot prepare `" + sql.substr(0, 120) + "`");
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)), sql_(std::move(other.sql_)) {}

void SqliteStatement::fail(const char* what) const { throwSqlite(db_, std::string(what) + " `" + sql_.substr(0, 120) + "`"); }

SqliteStatement& SqliteStatement::bind(int index, int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail("cannot bind an integer in");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) fail("cannot bind a real in");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
  if (sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT) != SQLITE_OK)
    fail("cannot bind text in");
  return *this;
}

SqliteStatement& SqliteStatement::bindBlob(int index, std::string_view bytes) {
  if (sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT) != SQLITE_OK)
    fail("cannot bind a blob in");
  return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail("cannot bind null in");
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail("cannot run");
}

void SqliteStatement::run() {
  while (step()) {
  }
  reset();
}

void SqliteStatement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int64_t SqliteStatement::columnInt(int column) const { return sqlite3_column_int64(stmt_, column); }
double SqliteStatement::columnDouble(int column) const { return sqlite3_column_double(stmt_, column); }
bool SqliteStatement::columnIsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

std::string SqliteStatement::columnText(int column) const {
  const void* p = sqlite3_column_blob(stmt_, column);
  const int n = sqlite3_column_bytes(stmt_, column);
  return p ? std::string(static_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
}

SqliteTransaction::SqliteTransaction(SqliteDb& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

SqliteTransaction::~SqliteTransaction() {
  if (!done_) {
    try {
      db_.exec("ROLLBACK");
    } catch (const RunStoreError&) {
      // the connection is closing or the transaction was rolled back by SQLite already
    }
  }
}

void SqliteTransaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace tempo
