// `tempo graph --format svg|png [--output FILE]`: pictures of the SDG drawn by
// libgvc without a display. SVG goes to stdout or a file; PNG needs --output.
#include "CliTestUtil.h"

#include <gtest/gtest.h>

namespace tempo::cli::test {
namespace {

// One test per example: Graphviz lays lstm_train out in minutes, the others in seconds.
class CliGraphRenderEveryExample : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(CliGraphRenderEveryExample, SvgOnStdout) {
  const std::filesystem::path& program = GetParam();
  CliResult r = tempo({"graph", program.string(), "--format", "svg"});
  ASSERT_EQ(r.code, 0) << program << "\n" << r.err;
  EXPECT_NE(r.out.find("<svg"), std::string::npos) << program;
  EXPECT_NE(r.out.find("</svg>"), std::string::npos) << program;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Examples, CliGraphRenderEveryExample, ::testing::ValuesIn(allExamples()),
                         [](const auto& info) { return info.param.stem().string(); });

TEST(CliGraphRender, SvgLabelsNameOpsAndOutputs) {
  CliResult r = tempo({"graph", example("rnn.tpo"), "--format", "svg"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("matmul"), std::string::npos);
  EXPECT_NE(r.out.find("out "), std::string::npos);
}

TEST(CliGraphRender, PngToFile) {
  TempDir dir("graph_png");
  CliResult r = tempo({"graph", example("gpt_decode.tpo"), "--format", "png", "--output", dir.str("g.png")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  std::string png = readBinary(dir.str("g.png"));
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(CliGraphRender, SvgToFileWithShortOption) {
  TempDir dir("graph_svg");
  CliResult r = tempo({"graph", example("small/counter.tpo"), "--format=svg", "-o", dir.str("g.svg")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(readBinary(dir.str("g.svg")).find("<svg"), std::string::npos);
}

TEST(CliGraphRender, OutputWorksForTextFormatsToo) {
  TempDir dir("graph_dot");
  CliResult r = tempo({"graph", example("small/counter.tpo"), "--format", "dot", "--output", dir.str("g.dot")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(readBinary(dir.str("g.dot")).rfind("digraph", 0), 0u);
}

TEST(CliGraphRender, PngWithoutOutputIsUsageError) {
  CliResult r = tempo({"graph", example("small/counter.tpo"), "--format", "png"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--output"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(CliGraphRender, UnwritableOutputIsRuntimeError) {
  TempDir dir("graph_unwritable");
  CliResult r = tempo({"graph", example("small/counter.tpo"), "--format", "svg", "--output",
                       dir.str("no/such/dir/g.svg")});
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
}

TEST(CliGraphRender, ProgramWithErrorsWritesNothing) {
  TempDir dir("graph_render_error");
  writeFile(dir.str("broken.tpo"), "dim t < T\nout y = nope[t]\n");
  CliResult r = tempo({"graph", dir.str("broken.tpo"), "--format", "png", "--output", dir.str("g.png")});
  EXPECT_EQ(r.code, 1);
  EXPECT_FALSE(std::filesystem::exists(dir.str("g.png")));
}

}  // namespace
}  // namespace tempo::cli::test
