// Lowering golden tests: every example program lowers without diagnostics to
// the SDG text in tests/golden/sdg/NAME.sdg, and every bad program in
// tests/golden/diagnostics/NAME.tpo produces exactly the rendered
// diagnostics in NAME.err (and at least one error).
#include "frontend/Frontend.h"
#include "graph/GraphPrinter.h"
#include "graph/GraphValidator.h"
#include "support/GoldenFiles.h"

namespace tempo {
namespace {

namespace fs = std::filesystem;
using testing::expectGolden;
using testing::readFile;
using testing::sourceDir;

TEST(LoweringGolden, ExamplesLowerToTheirGoldenSdg) {
  auto programs = testing::examplePrograms();
  ASSERT_GE(programs.size(), 6u);
  for (const fs::path& path : programs) {
    SCOPED_TRACE(path.filename().string());
    fs::path rel = fs::relative(path, sourceDir() / "resources" / "examples");
    FrontendResult r = compileSource(readFile(path), rel.string(), path.parent_path().string());
    EXPECT_TRUE(r.diags.empty()) << r.renderedDiagnostics();
    EXPECT_TRUE(validateGraph(r.graph).empty());
    std::string name = rel.string();
    std::replace(name.begin(), name.end(), '/', '_');
    expectGolden(sourceDir() / "tests" / "golden" / "sdg" / (fs::path(name).replace_extension(".sdg")), printGraph(r.graph));
  }
}

TEST(LoweringGolden, BadProgramsGiveTheirExactDiagnostics) {
  auto dir = sourceDir() / "tests" / "golden" / "diagnostics";
  auto programs = testing::filesWithExtension(dir, ".tpo");
  EXPECT_GE(programs.size(), 30u);
  for (const fs::path& path : programs) {
    SCOPED_TRACE(path.filename().string());
    FrontendResult r = compileSource(readFile(path), path.filename().string(), dir.string());
    EXPECT_TRUE(r.diags.hasErrors()) << path.filename() << " should not compile";
    expectGolden(fs::path(path).replace_extension(".err"), r.renderedDiagnostics());
  }
}

TEST(Diagnostics, LongLinesShowAWindowAroundTheCaret) {
  std::string line = "out y = " + std::string(300, 'a') + " + $";
  FrontendResult r = compileSource(line, "long.tpo", ".");
  std::string text = r.renderedDiagnostics();
  EXPECT_NE(text.find("long.tpo:1:312: error: unexpected character '$'"), std::string::npos) << text;
  std::string shown = text.substr(text.find('\n') + 1);
  shown = shown.substr(0, shown.find('\n'));
  EXPECT_LE(shown.size(), 130u) << shown;
  EXPECT_EQ(shown.substr(0, 5), "  ...");
}

TEST(Frontend, ADirectoryIsNotAProgram) {
  FrontendResult r = compileFile(sourceDir().string());
  ASSERT_TRUE(r.diags.hasErrors());
  EXPECT_NE(r.diags.items()[0].message.find("cannot read file"), std::string::npos);
}

}  // namespace
}  // namespace tempo
