// Static tiling, structurally: which windows it tiles and which it leaves
// (with a note saying why), the --block-size option, derived bounds, block
// reads of the producers in place, the static-shape check, and the block-size
// cost model.
#include "PassTestUtil.h"

#include "graph/GraphPrinter.h"
#include "support/GoldenFiles.h"
#include "tiling/BlockSizeModel.h"
#include "tiling/StaticShapeCheck.h"

#include <cmath>

namespace tempo::testing {
namespace {

Graph goldenProgram(const std::string& name) {
  return lowered(readFile(sourceDir() / "tests" / "golden" / "passes" / "static-tiling" / (name + ".tpo")));
}

GraphChange runTiling(Graph& g, const std::string& blockSize = "") {
  Pipeline p;
  p.add(makePass("static-tiling"));
  PassContext context;
  if (!blockSize.empty()) context.options["block-size"] = blockSize;
  return p.run(g, context).at(0).change;
}

std::string allNotes(const GraphChange& c) {
  std::string out;
  for (const std::string& n : c.notes) out += n + "\n";
  return out;
}

TEST(StaticTiling, EveryKernelHasStaticShapesAfterTiling) {
  for (const char* name : {"attention_causal", "returns", "running", "sliding"}) {
    Graph g = goldenProgram(name);
    EXPECT_FALSE(dynamicShapes(g).empty()) << name << " has no dynamic window to tile";
    runTiling(g, "3");
    EXPECT_TRUE(validateGraph(g).empty()) << name << "\n" << joinProblems(validateGraph(g));
    EXPECT_EQ(joinProblems(dynamicShapes(g)), "") << name;
  }
}

TEST(StaticTiling, BlockCountIsADerivedBoundAndStaysSymbolic) {
  Graph g = goldenProgram("attention_causal");
  runTiling(g, "4");
  std::string text = printGraph(g);
  EXPECT_NE(text.find("bound DS = floor((T + 3) / 4)"), std::string::npos) << text;
  EXPECT_NE(text.find("guard ds where 4*ds <= t"), std::string::npos) << text;
  std::string error;
  auto bounds = resolveBounds(g, {{"T", 9}}, error);
  ASSERT_TRUE(bounds) << error;
  EXPECT_EQ(bounds->at("DS"), 3);
  EXPECT_FALSE(resolveBounds(g, {{"DS", 2}}, error));
  EXPECT_NE(error.find("derived"), std::string::npos) << error;
}

TEST(StaticTiling, WindowsAreReadInPlaceAsBlocksAlignedToAbsolutePositions) {
  // A growing window: block ds is positions [4*ds, 4*ds + 4) of the producer,
  // cut at the step's end; the producer is not copied (no register over its domain).
  Graph g = goldenProgram("attention_causal");
  runTiling(g, "4");
  std::string text = printGraph(g);
  EXPECT_NE(text.find("[b, 4*ds:min(4*ds + 4, t + 1) in 4*ds+:4]"), std::string::npos) << text;
  for (const auto& [id, n] : g.nodes())
    EXPECT_FALSE(n.op == OpKind::Cat && !n.domain.empty()) << "a copy of a producer: " << text;
  // A suffix window starts inside a block: both ends are cut, and the
  // accumulator starts at the first block that meets the window.
  Graph r = goldenProgram("returns");
  runTiling(r, "4");
  text = printGraph(r);
  EXPECT_NE(text.find("[b, max(4*ds, t):min(4*ds + 4, T) in 4*ds+:4]"), std::string::npos) << text;
  EXPECT_NE(text.find("guard ds where 4*ds <= T - 1 and 4*ds + 3 >= t"), std::string::npos) << text;
  EXPECT_NE(text.find("if 4*ds - t - 1 >= 0"), std::string::npos) << text;
  // A sliding window of static size is one block that follows the window.
  Graph s = goldenProgram("sliding");
  runTiling(s);
  EXPECT_NE(printGraph(s).find("[max(0, t - 2):t + 1 in t - 2+:3]"), std::string::npos) << printGraph(s);
}

TEST(StaticTiling, AWindowWithoutATilingRuleIsLeftWithANote) {
  Graph g = lowered("dim t < T\nset T = 4\ninput x : f32[2] over (t) = normal(seed=1, std=1.0)\n"
                    "out y = sum(cat(x[0:t+1], x[0:t+1], dim=0), dim=0)\n");
  std::string before = printGraph(g);
  GraphChange c = runTiling(g);
  EXPECT_EQ(printGraph(g), before);
  EXPECT_NE(allNotes(c).find("untiled"), std::string::npos) << allNotes(c);
  EXPECT_NE(allNotes(c).find("is a cat of a window"), std::string::npos) << allNotes(c);
}

TEST(StaticTiling, ABadBlockSizeIsAnError) {
  Graph g = goldenProgram("running");
  EXPECT_THROW(runTiling(g, "zero"), PassError);
  EXPECT_THROW(runTiling(g, "0"), PassError);
}

TEST(StaticTiling, TheModelChoosesOneBlockForAStaticWindow) {
  BlockSizeInputs in;
  in.windowSizes.assign(100, 6);
  in.bytesPerPosition = 64;
  in.statementsPerBlock = 10;
  EXPECT_EQ(chooseBlockSize(in), 6);
}

TEST(StaticTiling, TheModelBalancesBlockOverheadAgainstTheMaskedTail) {
  BlockSizeModelParams p;
  BlockSizeInputs in;
  for (int64_t n = 1; n <= 4096; ++n) in.windowSizes.push_back(n);
  in.bytesPerPosition = 64;
  in.statementsPerBlock = 4;
  // For sizes spread evenly up to N the optimum is near sqrt(N * o / w).
  double o = in.statementsPerBlock * p.nsPerStatement, w = in.bytesPerPosition * p.nsPerByte;
  double predicted = std::sqrt(4096 * o / w);
  int64_t chosen = chooseBlockSize(in, p);
  EXPECT_GT(chosen, predicted / 2) << chosen;
  EXPECT_LT(chosen, predicted * 2) << chosen;
  EXPECT_LT(tilingCost(chosen, in, p), tilingCost(1, in, p));
  EXPECT_LT(tilingCost(chosen, in, p), tilingCost(4096, in, p));
}

}  // namespace
}  // namespace tempo::testing
