// Vectorisation beyond its golden files: the notes say why a dimension stays
// per point, batched values have the shapes the pass promises, and the
// vectorised graphs of the golden programs give the reference interpreter's
// outputs at several bounds (the batch size is symbolic, never baked in).
#include "PassTestUtil.h"

#include "graph/GraphPrinter.h"
#include "support/GoldenFiles.h"

#include <algorithm>

namespace tempo::testing {
namespace {

std::filesystem::path programs() { return sourceDir() / "tests" / "golden" / "passes" / "vectorisation"; }

Graph loweredFile(const std::string& name) {
  FrontendResult r = compileFile((programs() / name).string());
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  return r.graph;
}

const Node& named(const Graph& g, const std::string& name) {
  for (const auto& [id, n] : g.nodes())
    if (n.name == name) return n;
  throw std::runtime_error("no node named " + name);
}

bool hasNote(const GraphChange& change, const std::string& text) {
  return std::any_of(change.notes.begin(), change.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

TEST(Vectorisation, RnnHiddenStateBecomesOneBatchPerStep) {
  Graph g = loweredFile("rnn.tpo");
  runPass(g, "vectorisation");
  const Node& h = named(g, "h");
  EXPECT_EQ(h.domain, std::vector<std::string>{"t"});
  EXPECT_EQ(h.type.str(), "f32[B, 8]");
  for (const Edge* e : g.inputs(h.id)) {
    const Node& branch = g.node(e->producer);
    EXPECT_EQ(branch.type.str(), "f32[B, 8]");
  }
}

TEST(Vectorisation, RecurrenceAlongBKeepsBAndSaysWhy) {
  Graph g = loweredFile("recurrence_along_b.tpo");
  GraphChange change = runPass(g, "vectorisation");
  EXPECT_TRUE(hasNote(change, "b: %2 keeps it: it reads %1[b - 1, t], not at b itself")) << joinProblems(change.notes);
  EXPECT_TRUE(hasNote(change, "t: batched %1 c, %2")) << joinProblems(change.notes);
  EXPECT_EQ(named(g, "c").domain, std::vector<std::string>{"b"});
}

TEST(Vectorisation, RecurrenceIsBatchedWholeOrNotAtAll) {
  // Along t only the step's read of h[b, t-1] moves, yet its whole cycle (add, tanh) stays per point.
  Graph g = loweredFile("rnn.tpo");
  GraphChange change = runPass(g, "vectorisation");
  EXPECT_TRUE(hasNote(change, "keeps it: it is in a recurrence with")) << joinProblems(change.notes);
  for (const Edge* e : g.inputs(named(g, "h").id))
    EXPECT_EQ(g.node(e->producer).domain, std::vector<std::string>{"t"}) << e->str();
}

TEST(Vectorisation, OutputsKeepTheirDeclaredLayout) {
  Graph g = loweredFile("rnn.tpo");
  runPass(g, "vectorisation");
  for (const GraphOutput& o : g.outputs) {
    const Node& n = g.node(o.node);
    EXPECT_EQ(n.domain.front(), "b") << o.name;
  }
}

TEST(Vectorisation, SameOutputsAsTheReferenceAtSeveralBounds) {
  for (const auto& program : filesWithExtension(programs(), ".tpo")) {
    Graph original = loweredFile(program.filename().string());
    Graph vectorised = original;
    runPass(vectorised, "vectorisation");
    for (int64_t b : {1, 2, 5}) {
      for (int64_t t : {1, 3, 6}) {
        SymbolEnv bounds{{"B", b}, {"T", t}};
        if (original.boundDefaults.count("T") == 0) bounds.erase("T");
        Outputs want = ReferenceInterpreter(original, {bounds}).evaluateOutputs();
        Outputs got = ReferenceInterpreter(vectorised, {bounds}).evaluateOutputs();
        expectSameOutputs(want, got, 1e-5, program.filename().string() + " at B=" + std::to_string(b) +
                                                ", T=" + std::to_string(t));
      }
    }
  }
}

TEST(Vectorisation, FusedNodesBatchLikeElementwiseChains) {
  // The default pipeline fuses after vectorising; fusing first must still
  // batch the fused nodes (a fused [8] + [B, 8] chain pads like an add) and
  // keep the outputs.
  int batchedFused = 0;
  for (const auto& program : filesWithExtension(programs(), ".tpo")) {
    Graph original = loweredFile(program.filename().string());
    Graph g = original;
    runPass(g, "fusion");
    std::map<NodeId, size_t> rankBefore;
    for (const auto& [id, n] : g.nodes())
      if (n.op == OpKind::Fused) rankBefore[id] = n.domain.size();
    runPass(g, "vectorisation");
    for (const auto& [id, rank] : rankBefore)
      if (g.hasNode(id) && g.node(id).domain.size() < rank) ++batchedFused;
    for (int64_t b : {1, 3}) {
      SymbolEnv bounds{{"B", b}, {"T", 4}};
      if (original.boundDefaults.count("T") == 0) bounds.erase("T");
      expectSameOutputs(ReferenceInterpreter(original, {bounds}).evaluateOutputs(),
                        ReferenceInterpreter(g, {bounds}).evaluateOutputs(), 1e-5,
                        program.filename().string() + " fused, then vectorised, at B=" + std::to_string(b));
    }
  }
  EXPECT_GT(batchedFused, 0) << "no fused node was vectorised: the test proves nothing";
}

TEST(Vectorisation, FusedNodeWithALowerRankBatchedInputPadsIt) {
  // fused[exp(in0 + in1) * 2] with in0 = v[b] : [4] batched to [B, 4] and in1 = M : [3, 4]:
  // only padding in0 to [B, 1, 4] gives the [B, 3, 4] result.
  Graph original = lowered(R"(dim b < B
set B = 5
input v : f32[4] over (b) = hash(key=1, scale=1.0)
param M : f32[3, 4] = hash(key=2, scale=1.0)
z = exp(v[b] + M) * 2.0
out y = sum(z[b], dim=0)
)");
  Graph g = original;
  runPass(g, "fusion");
  int fused = 0;
  for (const auto& [id, n] : g.nodes()) fused += n.op == OpKind::Fused;
  ASSERT_EQ(fused, 1) << printGraph(g);
  runPass(g, "vectorisation");
  for (const auto& [id, n] : g.nodes())
    if (n.op == OpKind::Fused) EXPECT_TRUE(n.domain.empty()) << printGraph(g);
  for (int64_t b : {1, 3, 5})
    expectSameOutputs(ReferenceInterpreter(original, {{{"B", b}}}).evaluateOutputs(),
                      ReferenceInterpreter(g, {{{"B", b}}}).evaluateOutputs(), 0, "at B=" + std::to_string(b));
}

}  // namespace
}  // namespace tempo::testing
