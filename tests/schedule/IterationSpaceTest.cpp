// IterationSpace (compiler/iteration): the teaching picture's model.
//
// The dot and arrow counts are checked against IterationSpaceRules.h, which
// states the rules and computes them straight from the graph. Also: each
// dot's step is its place in the schedule's execution order and every arrow
// points forward in it; playback steps dot by dot; memory events appear in
// order; the SVG has one circle per dot.
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "iteration/IterationPlayback.h"
#include "iteration/IterationSpace.h"
#include "iteration/IterationSpaceSvg.h"
#include "pass/PassRegistry.h"

#include "IterationSpaceRules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

namespace tempo {
namespace {

using testing::expectedArrows;
using testing::expectedDots;

CompiledProgram compileExample(const std::string& name) {
  FrontendResult r = compileFile(std::string(TEMPO_SOURCE_DIR) + "/resources/examples/" + name);
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  return compileProgram(r.graph, defaultPipeline());
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(IterationSpace, RnnAtT8B2HasTheExpectedDotsAndArrows) {
  CompiledProgram p = compileExample("rnn.tpo");
  SymbolEnv bounds{{"B", 2}, {"T", 8}};
  IterationSpace s = buildIterationSpace(p.graph, p.loops, bounds, "t", "b");
  EXPECT_EQ(s.dots.size(), expectedDots(p.graph, bounds, "t", "b"));
  EXPECT_EQ(s.arrows.size(), expectedArrows(p.graph, bounds, "t", "b"));
  EXPECT_GT(s.arrows.size(), s.dots.size() / 2);  // the recurrence and the 0:T slice are there
  size_t dotsOfStatements = 0;
  for (const IterationStatement& st : s.statements) dotsOfStatements += st.dots;
  EXPECT_EQ(dotsOfStatements, s.dots.size());
  EXPECT_EQ(s.statements.size() + s.omitted.size(), p.graph.nodes().size());
}

TEST(IterationSpace, EveryExampleMatchesTheRulesAtSmallBounds) {
  for (const char* name : {"rnn.tpo", "gpt_decode.tpo", "attention_causal.tpo", "returns.tpo"}) {
    SCOPED_TRACE(name);
    CompiledProgram p = compileExample(name);
    SymbolEnv bounds;
    for (const std::string& b : p.graph.boundNames()) bounds[b] = b == "T" ? 5 : 2;
    std::string x = p.graph.dims.back().name, y = p.graph.dims.front().name;
    if (x == y) continue;
    IterationSpace s = buildIterationSpace(p.graph, p.loops, bounds, x, y);
    EXPECT_EQ(s.dots.size(), expectedDots(p.graph, bounds, x, y));
    EXPECT_EQ(s.arrows.size(), expectedArrows(p.graph, bounds, x, y));
  }
}

TEST(IterationSpace, StepsFollowTheScheduleAndArrowsPointForward) {
  CompiledProgram p = compileExample("rnn.tpo");
  IterationSpace s = buildIterationSpace(p.graph, p.loops, {{"B", 2}, {"T", 8}}, "t", "b");
  for (size_t i = 0; i < s.dots.size(); ++i) {
    const IterationDot& d = s.dots[i];
    ASSERT_GE(d.step, 0) << s.describeDot(static_cast<int>(i)) << " never runs";
    const ScheduleEvent& e = s.timeline[d.step];
    EXPECT_EQ(e.node, s.statements[d.statement].node);
    EXPECT_EQ(e.point, d.point);
  }
  for (const IterationArrow& a : s.arrows)
    EXPECT_LT(s.dots[a.from].step, s.dots[a.to].step) << s.describeDot(a.from) << " -> " << s.describeDot(a.to);
}

TEST(IterationSpace, PlaybackStepsThroughTheDotsInOrder) {
  CompiledProgram p = compileExample("rnn.tpo");
  IterationSpace s = buildIterationSpace(p.graph, p.loops, {{"B", 2}, {"T", 8}}, "t", "b");
  IterationPlayback play(s);
  EXPECT_EQ(play.stepCount(), static_cast<int>(s.dots.size()));
  int previous = -1, steps = 0;
  while (play.step()) {
    ++steps;
    int dot = play.currentDot();
    ASSERT_GE(dot, 0);
    EXPECT_GT(s.dots[dot].step, previous);
    EXPECT_TRUE(play.executed(dot));
    previous = s.dots[dot].step;
  }
  EXPECT_EQ(steps, play.stepCount());
  EXPECT_TRUE(play.atEnd());
  play.reset();
  EXPECT_EQ(play.currentDot(), -1);
  EXPECT_FALSE(play.executed(0));
}

TEST(IterationSpace, DescribesADotWithItsStatementAndLine) {
  CompiledProgram p = compileExample("rnn.tpo");
  IterationSpace s = buildIterationSpace(p.graph, p.loops, {{"B", 2}, {"T", 8}}, "t", "b");
  // Vectorisation batches h over b; the node the output h names keeps (b, t).
  auto out = std::find_if(p.graph.outputs.begin(), p.graph.outputs.end(), [](const auto& o) { return o.name == "h"; });
  ASSERT_NE(out, p.graph.outputs.end());
  const Node& h = p.graph.node(out->node);
  int dot = s.findDot(h.id, {1, 3});
  ASSERT_GE(dot, 0);
  std::string label = "%" + std::to_string(h.id) + " " + (h.name.empty() ? std::string(opName(h.op)) : h.name);
  EXPECT_EQ(s.describeDot(dot), "statement " + label + " at (b=1, t=3) \u2014 line " + std::to_string(h.loc.begin.line));
}

TEST(IterationSpace, MemoryEventsAppearWhereTheScheduleHasThem) {
  Graph g;
  g.dims = {{"t", "T"}, {"b", "B"}};
  Node n;
  n.op = OpKind::Identity;
  n.domain = {"b", "t"};
  n.name = "h";
  NodeId id = g.addNode(n);
  ForStmt t{"t", 0, IndexExpr::bound("T"), 1, {}};
  ForStmt b{"b", 0, IndexExpr::bound("B"), 1, {}};
  b.body.push_back({ExecStmt{id, {IndexExpr::dim("b"), IndexExpr::dim("t")}}});
  t.body.push_back({std::move(b)});
  LoopProgram prog;
  prog.body.push_back({AllocStmt{id, IndexExpr::bound("T") * 8}});
  prog.body.push_back({std::move(t)});
  prog.body.push_back({FreeStmt{id, IndexExpr::bound("T") * 8}});
  IterationSpace s = buildIterationSpace(g, prog, {{"T", 3}, {"B", 2}}, "t", "b");
  ASSERT_EQ(s.dots.size(), 6u);
  IterationPlayback play(s);
  ASSERT_TRUE(play.step());
  ASSERT_EQ(play.memoryEvents().size(), 1u);
  EXPECT_EQ(s.timeline[play.memoryEvents()[0]].kind, ScheduleEvent::Kind::Alloc);
  EXPECT_EQ(s.timeline[play.memoryEvents()[0]].bytes, 24);
  play.finish();
  ASSERT_EQ(play.memoryEvents().size(), 2u);
  EXPECT_EQ(s.timeline[play.memoryEvents()[1]].kind, ScheduleEvent::Kind::Free);
  // t outer, b inner: (b=0,t=0) then (b=1,t=0)
  EXPECT_EQ(s.dots[s.timelineDot[1]].point, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(s.dots[s.timelineDot[2]].point, (std::vector<int64_t>{1, 0}));
}

TEST(IterationSpace, SvgHasOneCirclePerDot) {
  CompiledProgram p = compileExample("rnn.tpo");
  IterationSpace s = buildIterationSpace(p.graph, p.loops, {{"B", 2}, {"T", 8}}, "t", "b");
  std::string svg = renderIterationSpaceSvg(s);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_EQ(count(svg, "<circle"), s.dots.size());
  EXPECT_LE(count(svg, "<line"), s.arrows.size());
  if (const char* dir = std::getenv("TEMPO_SCREENSHOT_DIR")) {  // for looking at
    std::ofstream(std::string(dir) + "/iteration_rnn.svg") << svg;
    CompiledProgram gpt = compileExample("gpt_decode.tpo");
    IterationSpace gs = buildIterationSpace(gpt.graph, gpt.loops, {{"L", 2}, {"T", 8}}, "t", "l");
    std::ofstream(std::string(dir) + "/iteration_gpt_decode.svg") << renderIterationSpaceSvg(gs, {56, true, 20});
  }
  EXPECT_EQ(count(renderIterationSpaceSvg(s, {56, false}), "<line"), 0u);
}

TEST(IterationSpace, RejectsUnknownOrEqualDimensions) {
  CompiledProgram p = compileExample("rnn.tpo");
  SymbolEnv bounds{{"B", 2}, {"T", 8}};
  EXPECT_THROW(buildIterationSpace(p.graph, p.loops, bounds, "t", "t"), std::invalid_argument);
  EXPECT_THROW(buildIterationSpace(p.graph, p.loops, bounds, "t", "z"), std::invalid_argument);
  EXPECT_THROW(buildIterationSpace(p.graph, p.loops, {{"T", 8}}, "t", "b"), std::invalid_argument);
}

}  // namespace
}  // namespace tempo
