// Static tiles in the iteration-space picture (compiler/iteration): static
// tiling's block dimensions are read back from the graph (BlockTilings), and
// the picture of gpt_decode at T = 8 shades ceil(T / BS) bands along t, each
// BS columns wide (the last one what is left), in the model and in the SVG;
// instances outside a block dimension's guard are not drawn.
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "iteration/BlockTilings.h"
#include "iteration/IterationSpace.h"
#include "iteration/IterationSpaceSvg.h"
#include "pass/PassRegistry.h"

#include "IterationSpaceRules.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

CompiledProgram compileExample(const std::string& name, int blockSize) {
  FrontendResult r = compileFile(std::string(TEMPO_SOURCE_DIR) + "/resources/examples/" + name);
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  PassContext context;
  if (blockSize > 0) context.options["block-size"] = std::to_string(blockSize);
  return compileProgram(r.graph, defaultPipeline(), context);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(BlockTilings, ReadsBlockSizeTiledDimensionAndGuardFromTheGraph) {
  CompiledProgram p = compileExample("gpt_decode.tpo", 2);
  std::vector<BlockTiling> tilings = blockTilings(p.graph);
  ASSERT_EQ(tilings.size(), 1u);
  const BlockTiling& t = tilings[0];
  EXPECT_EQ(t.blockSize, 2);
  EXPECT_EQ(t.dim, "t");
  EXPECT_EQ(p.graph.boundOf(t.blockDim), t.blockCount);
  EXPECT_TRUE(p.graph.isDerivedBound(t.blockCount));
  EXPECT_EQ(t.count.evaluate({{"T", 8}}), 4);
  EXPECT_FALSE(t.guard.isAlways());
  EXPECT_TRUE(t.guard.holds({{t.blockDim, 1}, {"t", 2}}));   // block 1 holds t = 2, 3: step 2 reads it
  EXPECT_FALSE(t.guard.holds({{t.blockDim, 2}, {"t", 3}}));  // block 2 starts at t = 4
}

TEST(BlockTilings, NoneWithoutStaticTiling) {
  EXPECT_TRUE(blockTilings(compileExample("rnn.tpo", 0).graph).empty());
}

TEST(IterationTiles, GptDecodeAtT8ShadesOneBandPerBlockAlongT) {
  for (int bs : {1, 3, 4}) {  // one position a block, a partial last block, two blocks
    SCOPED_TRACE("block size " + std::to_string(bs));
    CompiledProgram p = compileExample("gpt_decode.tpo", bs);
    IterationSpace s = buildIterationSpace(p.graph, p.loops, {{"L", 2}, {"T", 8}}, "t", "l");
    ASSERT_EQ(s.tilings.size(), 1u);
    EXPECT_EQ(s.tilings[0].blockSize, bs);
    EXPECT_TRUE(s.tilings[0].drawn);
    const size_t expected = static_cast<size_t>((8 + bs - 1) / bs);
    EXPECT_EQ(s.tilings[0].blocks, static_cast<int64_t>(expected));
    ASSERT_EQ(s.tiles.size(), expected);
    // Only the blocks a step's window meets are instances (the guard cuts the rest), and each runs.
    EXPECT_EQ(s.dots.size(), testing::expectedDots(p.graph, {{"L", 2}, {"T", 8}}, "t", "l"));
    EXPECT_EQ(s.arrows.size(), testing::expectedArrows(p.graph, {{"L", 2}, {"T", 8}}, "t", "l"));
    for (const IterationDot& d : s.dots) EXPECT_GE(d.step, 0);
    for (size_t k = 0; k < s.tiles.size(); ++k) {
      const IterationTile& tile = s.tiles[k];
      EXPECT_TRUE(tile.alongX);
      EXPECT_EQ(tile.block, static_cast<int64_t>(k));
      // Every dot of a column t in [BS*k, BS*k + BS) lies inside tile k, and no other dot of the plane does.
      for (const IterationDot& d : s.dots) {
        if (d.cellX >= s.extentX) continue;  // the "no t" column
        const bool inside = d.x > tile.box.x && d.x < tile.box.x + tile.box.w && d.y > tile.box.y &&
                            d.y < tile.box.y + tile.box.h;
        EXPECT_EQ(inside, d.cellX / bs == static_cast<int64_t>(k)) << "dot at t=" << d.cellX;
      }
    }
    std::string svg = renderIterationSpaceSvg(s);
    EXPECT_EQ(count(svg, "<rect class=\"tile\""), expected);
    EXPECT_NE(svg.find("blocks of BS = " + std::to_string(bs)), std::string::npos);
  }
}

TEST(IterationTiles, ATiledDimensionOffTheAxesIsNamedButNotDrawn) {
  CompiledProgram p = compileExample("gpt_decode.tpo", 2);
  IterationSpace s = buildIterationSpace(p.graph, p.loops, {{"L", 2}, {"T", 8}}, "l", "");
  ASSERT_EQ(s.tilings.size(), 1u);
  EXPECT_FALSE(s.tilings[0].drawn);
  EXPECT_TRUE(s.tiles.empty());
  std::string svg = renderIterationSpaceSvg(s);
  EXPECT_EQ(count(svg, "class=\"tile\""), 0u);
  EXPECT_NE(svg.find("not drawn"), std::string::npos);
}

TEST(IterationTiles, UntiledProgramsHaveNoTiles) {
  CompiledProgram p = compileExample("rnn.tpo", 0);
  IterationSpace s = buildIterationSpace(p.graph, p.loops, {{"B", 2}, {"T", 8}}, "t", "b");
  EXPECT_TRUE(s.tilings.empty());
  EXPECT_TRUE(s.tiles.empty());
  EXPECT_EQ(count(renderIterationSpaceSvg(s), "class=\"tile\""), 0u);
}

}  // namespace
}  // namespace tempo
