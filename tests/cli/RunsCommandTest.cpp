// `tempo profile` records into the run store and `tempo runs list|show|rm|diff|export` read it:
// the CLI as a user drives it, in-process, on a store in a fresh folder.
#include "CliTestUtil.h"

#include "support/ChromeTraceRules.h"
#include "support/GoldenFiles.h"

#include <gtest/gtest.h>

#include <fstream>

namespace tempo::cli::test {
namespace {

const char* const kBase = R"(dim t < T
set T = 8
param a : f32[768, 768] = uniform(seed=1, low=-1.0, high=1.0)
c : f32[] over (t)
c[0] = 1.0
c[t] = c[t-1] + 1.0
out y = sum(c[0:T], dim=0)
)";

// The same program with work added on purpose: a 768x768 matrix product (0.9 GFLOP, several ms).
const std::string kSlower = std::string(kBase) + "out z = sum(a @ a, dim=0)\n";

TEST(RunsCommand, ProfileStoresARunThatListShowExportAndRmRead) {
  TempDir dir("runs");
  const std::string db = dir.str("runs.db");
  CliResult p = tempo({"profile", example("rnn.tpo"), "--db", db, "--label", "first try"});
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_NE(p.out.find("stored as run 1 in " + db), std::string::npos) << p.out;

  CliResult list = tempo({"runs", "list", "--db", db});
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_NE(list.out.find("rnn.tpo"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find(" ok "), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("first try"), std::string::npos) << list.out;

  CliResult show = tempo({"runs", "show", "1", "--db", db});
  ASSERT_EQ(show.code, 0) << show.err;
  for (const char* part : {"status   ok", "by node:", "by source line:", "outputs:", "fnv1a ", "measured peak"})
    EXPECT_NE(show.out.find(part), std::string::npos) << part << "\n" << show.out;

  const std::string trace = dir.str("trace.json");
  CliResult exported = tempo({"runs", "export", "1", "--format", "chrome", "-o", trace, "--db", db});
  ASSERT_EQ(exported.code, 0) << exported.err;
  EXPECT_TRUE(testing::chromeTraceViolations(readBinary(trace)).empty());

  CliResult rm = tempo({"runs", "rm", "1", "--db", db});
  EXPECT_EQ(rm.code, 0) << rm.err;
  CliResult gone = tempo({"runs", "show", "1", "--db", db});
  EXPECT_EQ(gone.code, 3);
  EXPECT_NE(gone.err.find("no run 1"), std::string::npos) << gone.err;
}

TEST(RunsCommand, DiffExitsZeroForTwoRunsOfOneProgramAndOneForAProgramMadeSlowerOnPurpose) {
  TempDir dir("diff");
  const std::filesystem::path program = dir.path() / "work.tpo";
  writeFile(program.string(), kBase);
  for (int i = 0; i < 2; ++i) ASSERT_EQ(tempo({"profile", program.string()}).code, 0);
  const std::string db = (dir.path() / ".tempo" / "runs.db").string();
  ASSERT_TRUE(std::filesystem::exists(db)) << "the default store is next to the program";
  CliResult same = tempo({"runs", "diff", "1", "2", "--program", program.string()});
  EXPECT_EQ(same.code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("no regression"), std::string::npos) << same.out;

  writeFile(program.string(), kSlower);
  ASSERT_EQ(tempo({"profile", program.string(), "--label", "with a matmul"}).code, 0);
  CliResult slower = tempo({"runs", "diff", "2", "3", "--db", db});
  EXPECT_EQ(slower.code, 1) << slower.out << slower.err;
  EXPECT_NE(slower.out.find("note: the program text differs"), std::string::npos) << slower.out;
  EXPECT_NE(slower.out.find("! %"), std::string::npos) << slower.out;
  EXPECT_NE(slower.out.find("matmul"), std::string::npos) << slower.out;
  EXPECT_NE(slower.out.find("\nregressed\n"), std::string::npos) << slower.out;
  CliResult listed = tempo({"runs", "list", "--program", program.string()});
  EXPECT_NE(listed.out.find("with a matmul"), std::string::npos) << listed.out;
}

TEST(RunsCommand, BadArgumentsAndMissingStoresAreClearErrors) {
  TempDir dir("bad");
  const std::string db = dir.str("runs.db");
  CliResult none = tempo({"runs", "list", "--db", db});
  EXPECT_EQ(none.code, 3);
  EXPECT_NE(none.err.find("no run store at"), std::string::npos) << none.err;
  ASSERT_EQ(tempo({"profile", example("small/counter.tpo"), "--db", db}).code, 0);
  CliResult threshold = tempo({"runs", "diff", "1", "1", "--db", db, "--threshold", "lots"});
  EXPECT_EQ(threshold.code, 2);
  EXPECT_NE(threshold.err.find("--threshold"), std::string::npos) << threshold.err;
  CliResult minTime = tempo({"runs", "diff", "1", "1", "--db", db, "--min-time", "3 parsecs"});
  EXPECT_EQ(minTime.code, 2);
  CliResult missing = tempo({"runs", "diff", "1", "7", "--db", db});
  EXPECT_EQ(missing.code, 3);
  EXPECT_NE(missing.err.find("no run 7"), std::string::npos) << missing.err;
  EXPECT_EQ(tempo({"runs", "export", "1", "--format", "perfetto-proto", "--db", db}).code, 2);
  std::ofstream(dir.str("not-a-db")) << "hello, this is not SQLite";
  CliResult corrupt = tempo({"runs", "list", "--db", dir.str("not-a-db")});
  EXPECT_EQ(corrupt.code, 3);
  EXPECT_NE(corrupt.err.find("tempo runs:"), std::string::npos) << corrupt.err;
}

TEST(RunsCommand, ProfileWithNoStoreWritesNothing) {
  TempDir dir("nostore");
  const std::filesystem::path program = dir.path() / "c.tpo";
  writeFile(program.string(), testing::readFile(example("small/counter.tpo")));
  CliResult r = tempo({"profile", program.string(), "--no-store"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("stored as run"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / ".tempo"));
}

}  // namespace
}  // namespace tempo::cli::test
