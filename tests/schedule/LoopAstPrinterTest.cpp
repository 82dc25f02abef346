// printLoopProgram and loopProgramToJson on a hand-built LoopProgram with
// every kind of statement.
#include "interp/InterpTestGraphs.h"
#include "schedule/LoopAstJson.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

using namespace interp_test;

struct Fixture {
  Graph g;
  LoopProgram p;
  Fixture() {
    g.dims = {{"b", "B"}, {"t", "T"}};
    NodeId h = addNode(g, OpKind::Tanh, {"b", "t"}, f32({8}), {}, "h");
    NodeId m = addNode(g, OpKind::MatMul, {"b", "t"}, f32({8}));
    NodeId w = addNode(g, OpKind::Constant, {}, f32({8}), constantAttrs(1), "W");
    ForStmt inner{"c1", 0, bound("B"), 1, {}};
    inner.body.push_back({ExecStmt{m, {dim("c1"), dim("c0")}}});
    inner.body.push_back({ExecStmt{h, {dim("c1"), dim("c0")}}});
    IfStmt guard{when(dim("c0"), Constraint::Rel::Ge, 1), {}, {}};
    guard.thenBody.push_back({FreeStmt{h, bound("B") * 32}});
    guard.elseBody.push_back({SwapOutStmt{w, 32}});
    guard.elseBody.push_back({SwapInStmt{w, 32}});
    ForStmt outer{"c0", 0, bound("T"), 2, {}};
    outer.body.push_back({inner});
    outer.body.push_back({guard});
    p.body.push_back({AllocStmt{h, bound("T") * 32}});
    p.body.push_back({ExecStmt{w, {}}});
    p.body.push_back({outer});
  }
};

TEST(LoopAstPrinter, PrintsEveryStatementKind) {
  Fixture f;
  EXPECT_EQ(printLoopProgram(f.g, f.p),
            "alloc %0 h  (32*T bytes)\n"
            "exec %2 W\n"
            "for c0 in 0..T step 2:\n"
            "  for c1 in 0..B:\n"
            "    exec %1 matmul[b=c1, t=c0]\n"
            "    exec %0 h[b=c1, t=c0]\n"
            "  if c0 >= 1:\n"
            "    free %0 h  (32*B bytes)\n"
            "  else:\n"
            "    swap_out %2 W  (32 bytes)\n"
            "    swap_in %2 W  (32 bytes)\n");
}

TEST(LoopAstPrinter, JsonKeepsTheStructure) {
  Fixture f;
  nlohmann::json j = loopProgramToJson(f.g, f.p);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[0]["kind"], "alloc");
  EXPECT_EQ(j[0]["bytes"], "32*T");
  EXPECT_EQ(j[1]["label"], "W");
  EXPECT_EQ(j[2]["kind"], "for");
  EXPECT_EQ(j[2]["upper"], "T");
  EXPECT_EQ(j[2]["step"], 2);
  const auto& exec = j[2]["body"][0]["body"][1];
  EXPECT_EQ(exec["node"], 0);
  EXPECT_EQ(exec["point"][1]["dim"], "t");
  EXPECT_EQ(exec["point"][1]["index"], "c0");
  EXPECT_EQ(j[2]["body"][1]["else"][1]["kind"], "swap_in");
}

}  // namespace
}  // namespace tempo
