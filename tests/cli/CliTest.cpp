// `tempo` argument handling, `check` and `graph`, driven in-process.
#include "CliTestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <regex>

namespace tempo::cli::test {
namespace {

const char* const kBrokenProgram =
    "dim t < T\n"
    "set T = 3\n"
    "out y = q[t] + 1.0\n";

TEST(CliUsage, HelpOnEverySubcommandExitsZero) {
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"--help"}, {"check", "--help"}, {"run", "--help"}, {"graph", "--help"}, {"-h"}}) {
    CliResult r = tempo(args);
    EXPECT_EQ(r.code, 0) << args[0] << "\n" << r.err;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
  }
}

TEST(CliUsage, TopLevelHelpDocumentsExitCodes) {
  CliResult r = tempo({"--help"});
  EXPECT_NE(r.out.find("Exit codes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3  runtime failure"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("check"), std::string::npos);
  EXPECT_NE(r.out.find("graph"), std::string::npos);
}

TEST(CliUsage, SubcommandHelpListsItsOptions) {
  CliResult r = tempo({"run", "--help"});
  EXPECT_NE(r.out.find("--set"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--out"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--engine"), std::string::npos) << r.out;
}

TEST(CliUsage, VersionExitsZero) {
  CliResult r = tempo({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, std::string("tempo ") + TEMPO_VERSION + "\n");
}

TEST(CliUsage, MissingOrUnknownCommandIsUsageError) {
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {}, {"frobnicate"}, {"check"}, {"run"}, {"graph"}, {"check", "a.tpo", "b.tpo"}, {"run", "--bogus", "x.tpo"}}) {
    CliResult r = tempo(args);
    EXPECT_EQ(r.code, 2) << (args.empty() ? "(no args)" : args[0]) << "\n" << r.out << r.err;
    EXPECT_FALSE(r.err.empty());
  }
}

TEST(CliCheck, AcceptsEveryExample) {
  for (const auto& program : allExamples()) {
    CliResult r = tempo({"check", program.string()});
    EXPECT_EQ(r.code, 0) << program << "\n" << r.err;
  }
}

TEST(CliCheck, PrintsSummaryLine) {
  std::string file = example("small/counter.tpo");
  CliResult r = tempo({"check", file});
  ASSERT_EQ(r.code, 0) << r.err;
  std::regex summary(std::regex_replace(file, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                     R"(: ok \(\d+ nodes?, \d+ edges?, 1 output\)\n)");
  EXPECT_TRUE(std::regex_match(r.out, summary)) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CliCheck, ProgramWithErrorPrintsDiagnosticWithSourceLine) {
  TempDir dir("check_error");
  writeFile(dir.str("broken.tpo"), kBrokenProgram);
  CliResult r = tempo({"check", dir.str("broken.tpo")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("broken.tpo:3:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("out y = q[t] + 1.0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("^"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliCheck, NonexistentFileIsAProgramError) {
  CliResult r = tempo({"check", "/nonexistent/dir/nothing.tpo"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("cannot read file"), std::string::npos) << r.err;
}

TEST(CliCheck, DirectoryIsAProgramError) {
  TempDir dir("check_directory");
  CliResult r = tempo({"check", dir.str()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("cannot read file"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliCheck, ReportsMissingDataFile) {
  TempDir dir("check_missing_data");
  writeFile(dir.str("p.tpo"),
            "dim t < T\nset T = 3\ninput v : f32[] over (t) = load(\"nowhere/v.npy\")\nout w = v[t] * 2.0\n");
  CliResult r = tempo({"check", dir.str("p.tpo")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("cannot load 'nowhere/v.npy'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("p.tpo:3:"), std::string::npos) << r.err;
}

TEST(CliGraph, DefaultIsTextForm) {
  CliResult r = tempo({"graph", example("small/counter.tpo")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("%0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("c"), std::string::npos) << r.out;
}

TEST(CliGraph, DotStartsWithDigraph) {
  for (const auto& program : allExamples()) {
    CliResult r = tempo({"graph", program.string(), "--format", "dot"});
    ASSERT_EQ(r.code, 0) << program << "\n" << r.err;
    EXPECT_EQ(r.out.rfind("digraph", 0), 0u) << program << "\n" << r.out.substr(0, 200);
  }
}

TEST(CliGraph, JsonParses) {
  for (const auto& program : allExamples()) {
    CliResult r = tempo({"graph", program.string(), "--format=json"});
    ASSERT_EQ(r.code, 0) << program << "\n" << r.err;
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << program;
    EXPECT_TRUE(j.is_object()) << program;
  }
}

TEST(CliGraph, UnknownFormatIsUsageError) {
  CliResult r = tempo({"graph", example("small/counter.tpo"), "--format", "gif"});
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(r.err.empty());
}

TEST(CliGraph, ProgramWithErrorExitsOne) {
  TempDir dir("graph_error");
  writeFile(dir.str("broken.tpo"), kBrokenProgram);
  CliResult r = tempo({"graph", dir.str("broken.tpo"), "--format", "dot"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("error:"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace
}  // namespace tempo::cli::test
