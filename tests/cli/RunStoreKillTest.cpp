// A process killed at any moment never corrupts the run store: `tempo profile` (the real binary)
// is killed with SIGKILL at random moments of a run long enough to write some sixteen thousand
// spans, at least 50 times; after every kill the database passes `PRAGMA integrity_check`, every
// earlier finished run is still there with all its rows, and the killed run is either absent,
// incomplete with no child rows (never half a trace), or finished whole.
#include "CliTestUtil.h"

#include "runstore/RunStore.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <random>
#include <thread>

namespace tempo::cli::test {
namespace {

int64_t rows(RunStore& store, const std::string& table, int64_t run) {
  SqliteStatement s = store.db().prepare("SELECT COUNT(*) FROM " + table + " WHERE run_id = ?");
  s.bind(1, run);
  return s.step() ? s.columnInt(0) : -1;
}

/// Starts `tempo profile` and kills it after `killAfter` (never when negative); returns its wall time.
std::chrono::microseconds profileOnce(const std::string& program, const std::string& db, const std::string& label,
                                      std::chrono::microseconds killAfter) {
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    ::execl(TEMPO_CLI_BINARY, "tempo", "profile", program.c_str(), "--set", "T=8000", "--db", db.c_str(), "--label",
            label.c_str(), "--top", "1", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  if (killAfter.count() >= 0) {
    std::this_thread::sleep_for(killAfter);
    ::kill(pid, SIGKILL);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (killAfter.count() < 0) EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "an unkilled run failed";
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
}

struct Finished {
  int64_t spans = 0, nodes = 0, events = 0;
};

TEST(RunStoreKill, KilledProfilesNeverLeaveACorruptOrHalfVisibleRun) {
  TempDir dir("kill");
  const std::string db = dir.str("runs.db");
  const std::string program = example("small/counter.tpo");
  const auto whole = profileOnce(program, db, "whole", std::chrono::microseconds(-1));
  std::map<int64_t, Finished> finished;
  std::mt19937 rng(20261202);
  std::uniform_int_distribution<int64_t> when(0, whole.count() * 6 / 5);
  int kills = 0, absent = 0, incomplete = 0, completed = 0;
  for (int i = 0; i < 58; ++i) {
    const bool kill = i % 8 != 7;  // every eighth run finishes, so there are earlier runs to keep intact
    profileOnce(program, db, "try " + std::to_string(i), kill ? std::chrono::microseconds(when(rng)) : std::chrono::microseconds(-1));
    kills += kill;
    {
      SqliteDb raw(db, true);
      SqliteStatement check = raw.prepare("PRAGMA integrity_check");
      ASSERT_TRUE(check.step());
      ASSERT_EQ(check.columnText(0), "ok") << "after try " << i;
    }
    RunStore store(db);
    for (const auto& [id, f] : finished) {
      std::optional<StoredRun> r = store.run(id);
      ASSERT_TRUE(r) << "run " << id << " vanished after try " << i;
      EXPECT_EQ(r->status, "ok");
      EXPECT_EQ(rows(store, "spans", id), f.spans) << "run " << id << " after try " << i;
      EXPECT_EQ(rows(store, "run_nodes", id), f.nodes);
      EXPECT_EQ(rows(store, "memory_events", id), f.events);
    }
    std::vector<StoredRun> runs = store.list();
    const bool sawThisTry = !runs.empty() && runs.front().header.label == "try " + std::to_string(i);
    if (!sawThisTry) {
      ++absent;
      continue;
    }
    const StoredRun& latest = runs.front();
    if (latest.status == "ok") {
      ++completed;
      EXPECT_EQ(rows(store, "spans", latest.id), latest.instances) << "a finished run has every span";
      EXPECT_GT(rows(store, "run_nodes", latest.id), 0);
      finished[latest.id] = {rows(store, "spans", latest.id), rows(store, "run_nodes", latest.id),
                             rows(store, "memory_events", latest.id)};
    } else {
      ++incomplete;
      EXPECT_EQ(latest.status, "incomplete") << "a killed run whose process is gone";
      for (const char* table : {"spans", "run_nodes", "run_lines", "memory_events", "outputs", "steps", "step_statements", "flows"})
        EXPECT_EQ(rows(store, table, latest.id), 0) << table << ": half a run is visible after try " << i;
    }
  }
  EXPECT_GE(kills, 50);
  EXPECT_GE(static_cast<int>(finished.size()), 7);
  std::printf("whole run %lld us; %d kills: %d runs absent, %d incomplete, %d finished before the kill or unkilled\n",
              static_cast<long long>(whole.count()), kills, absent, incomplete, completed);
}

}  // namespace
}  // namespace tempo::cli::test
