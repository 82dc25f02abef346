// `tempo schedule FILE --iteration-space X[,Y] --format svg|png`: the studio's
// teaching picture drawn headless. The SVG has one circle per statement
// instance of every compiled node over a chosen dimension (counted here from
// the compiled graph itself), PNG needs --output, and wrong dimensions or
// flag combinations are usage errors. --block-size shades static tiles.
#include "CliTestUtil.h"

#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "pass/PassRegistry.h"

#include <gtest/gtest.h>

namespace tempo::cli::test {
namespace {

size_t countOf(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

/// Instances of the compiled nodes over `x` or `y` at `bounds`.
int64_t expectedDots(const std::string& file, const std::string& x, const std::string& y, const SymbolEnv& bounds) {
  FrontendResult program = compileFile(file);
  CompiledProgram compiled = compileProgram(program.graph, defaultPipeline());
  int64_t dots = 0;
  for (const auto& [id, node] : compiled.graph.nodes()) {
    bool drawn = false;
    int64_t instances = 1;
    for (const std::string& d : node.domain) {
      drawn = drawn || d == x || d == y;
      instances *= bounds.at(compiled.graph.boundOf(d));
    }
    if (drawn) dots += instances;
  }
  return dots;
}

TEST(CliIterationSpace, RnnSvgHasOneCirclePerInstance) {
  CliResult r = tempo({"schedule", example("rnn.tpo"), "--iteration-space", "t,b", "--set", "T=8", "--set", "B=2",
                       "--format", "svg"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("<svg"), std::string::npos);
  const int64_t expected = expectedDots(example("rnn.tpo"), "t", "b", {{"T", 8}, {"B", 2}});
  EXPECT_GT(expected, 16);
  EXPECT_EQ(static_cast<int64_t>(countOf(r.out, "<circle")), expected);
}

TEST(CliIterationSpace, OneDimensionDrawsARow) {
  CliResult r = tempo({"schedule", example("small/running_sum.tpo"), "--iteration-space", "t", "--format", "svg"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_GT(countOf(r.out, "<circle"), 0u);
}

TEST(CliIterationSpace, AnIllegalTransformIsDrawnWithItsBrokenArrowsAndExitsOne) {
  CliResult legal = tempo({"schedule", example("rnn.tpo"), "--iteration-space", "t,b", "--set", "T=4", "--set", "B=2",
                           "--format", "svg", "--transform", "reverse b"});
  ASSERT_EQ(legal.code, 0) << legal.err;
  EXPECT_EQ(countOf(legal.out, "class=\"violated\""), 0u);
  CliResult illegal = tempo({"schedule", example("rnn.tpo"), "--iteration-space", "t,b", "--set", "T=4", "--set", "B=2",
                             "--format", "svg", "--transform", "reverse t"});
  EXPECT_EQ(illegal.code, 1);
  EXPECT_EQ(countOf(illegal.out, "class=\"violated\""), 1u);  // one group of red, dashed arrows
  EXPECT_NE(illegal.out.find("after reverse t \xE2\x80\x94 illegal"), std::string::npos);
  EXPECT_NE(illegal.err.find("the transformed schedule is illegal"), std::string::npos) << illegal.err;
}

TEST(CliIterationSpace, PngIsWrittenToAFile) {
  TempDir dir("iteration_png");
  CliResult r = tempo({"schedule", example("rnn.tpo"), "--iteration-space", "t,b", "--set", "T=4", "--set", "B=2",
                       "--format", "png", "-o", dir.str("is.png")});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string png = readBinary(dir.str("is.png"));
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(CliIterationSpace, UsageErrors) {
  const std::string rnn = example("rnn.tpo");
  EXPECT_EQ(tempo({"schedule", rnn, "--iteration-space", "t,b", "--format", "png"}).code, kExitUsage);
  EXPECT_EQ(tempo({"schedule", rnn, "--format", "svg"}).code, kExitUsage);
  EXPECT_EQ(tempo({"schedule", rnn, "--iteration-space", "t"}).code, kExitUsage);
  CliResult unknown = tempo({"schedule", rnn, "--iteration-space", "q", "--format", "svg"});
  EXPECT_EQ(unknown.code, kExitUsage);
  EXPECT_NE(unknown.err.find("'q'"), std::string::npos) << unknown.err;
  EXPECT_EQ(tempo({"schedule", rnn, "--iteration-space", "t,b,c", "--format", "svg"}).code, kExitUsage);
  EXPECT_EQ(tempo({"schedule", rnn, "--iteration-space", "t", "--set", "T=x", "--format", "svg"}).code, kExitUsage);
}

TEST(CliIterationSpace, BlockSizeShadesOneTilePerBlock) {
  // gpt_decode's causal window 0:t+1 is cut into blocks along t: at T = 8, ceil(8 / BS) tiles.
  for (auto [bs, tiles] : {std::pair{"2", 4u}, std::pair{"3", 3u}, std::pair{"4", 2u}}) {
    CliResult r = tempo({"schedule", example("gpt_decode.tpo"), "--iteration-space", "t,l", "--set", "T=8",
                         "--block-size", bs, "--format", "svg"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(countOf(r.out, "<rect class=\"tile\""), tiles) << "block size " << bs;
    EXPECT_NE(r.out.find(std::string("blocks of BS = ") + bs), std::string::npos);
  }
  EXPECT_EQ(tempo({"schedule", example("gpt_decode.tpo"), "--iteration-space", "t,l", "--block-size", "0",
                   "--format", "svg"}).code,
            kExitUsage);
}

TEST(CliIterationSpace, TooLargeBoundsAreARuntimeErrorNotACrash) {
  CliResult r = tempo({"schedule", example("rnn.tpo"), "--iteration-space", "t,b", "--set", "T=100000", "--set",
                       "B=1000", "--format", "svg"});
  EXPECT_EQ(r.code, kExitRuntime) << r.err;
  EXPECT_NE(r.err.find("smaller bounds"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tempo::cli::test
