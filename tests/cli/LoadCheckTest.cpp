// checkLoadedArrays: unreadable files, wrong dtypes and wrong shapes are
// reported at the declaration; matching files produce nothing.
#include "CliTestUtil.h"

#include "frontend/Frontend.h"
#include "npy/LoadCheck.h"
#include "npy/Npy.h"

#include <gtest/gtest.h>

namespace tempo::cli::test {
namespace {

const char* const kProgram =
    "dim b < B\n"
    "dim t < T\n"
    "set B = 2, T = 3\n"
    "input x : f32[4] over (b, t) = load(\"x.npy\")\n"
    "out y = x[b, t] * 2.0\n";

/// Compiles kProgram next to an x.npy holding `x` (none when `x` is null).
std::vector<Diagnostic> check(const TempDir& dir, const Tensor* x, const SymbolEnv& bounds) {
  if (x) writeNpy(dir.str("x.npy"), *x);
  writeFile(dir.str("p.tpo"), kProgram);
  FrontendResult program = compileFile(dir.str("p.tpo"));
  EXPECT_TRUE(program.ok()) << program.renderedDiagnostics();
  DiagnosticBag diags;
  checkLoadedArrays(program.graph, bounds, diags);
  return diags.items();
}

const SymbolEnv kDefaults{{"B", 2}, {"T", 3}};

TEST(LoadCheck, MatchingFileIsFine) {
  TempDir dir("load_ok");
  Tensor x(DType::F32, {2, 3, 4});
  EXPECT_TRUE(check(dir, &x, kDefaults).empty());
}

TEST(LoadCheck, MissingFileIsReportedAtTheDeclaration) {
  TempDir dir("load_missing");
  std::vector<Diagnostic> d = check(dir, nullptr, kDefaults);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].message.rfind("cannot load 'x.npy': ", 0), 0u) << d[0].message;
  EXPECT_EQ(d[0].range.begin.line, 4);
  EXPECT_EQ(d[0].file, dir.str("p.tpo"));
}

TEST(LoadCheck, WrongDtype) {
  TempDir dir("load_dtype");
  Tensor x(DType::I64, {2, 3, 4});
  std::vector<Diagnostic> d = check(dir, &x, kDefaults);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "'x.npy' holds i64 values but x is declared f32");
}

TEST(LoadCheck, WrongShapeNamesBoundsAndValues) {
  TempDir dir("load_shape");
  Tensor x(DType::F32, {2, 3, 5});
  std::vector<Diagnostic> d = check(dir, &x, kDefaults);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "'x.npy' has shape (2, 3, 5) but x over (b, t) needs (B, T, 4) = (2, 3, 4)");
}

TEST(LoadCheck, ShapeFollowsTheGivenBounds) {
  TempDir dir("load_bounds");
  Tensor x(DType::F32, {2, 3, 4});
  std::vector<Diagnostic> d = check(dir, &x, {{"B", 2}, {"T", 7}});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "'x.npy' has shape (2, 3, 4) but x over (b, t) needs (B, T, 4) = (2, 7, 4)");
}

TEST(LoadCheck, CorruptFile) {
  TempDir dir("load_corrupt");
  writeFile(dir.str("x.npy"), "\x93NUMPY garbage");
  std::vector<Diagnostic> d = check(dir, nullptr, kDefaults);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message.rfind("cannot load 'x.npy': ", 0), 0u) << d[0].message;
}

}  // namespace
}  // namespace tempo::cli::test
