// DependenceRelations: statements and exact edge relations of rnn.tpo and of
// hand-built graphs, compared with isl for equality (not as strings), plus
// the merge rule (a later branch is live only where no earlier one is) and
// the errors for graphs the relations cannot express.
#include "frontend/Frontend.h"
#include "interp/InterpTestGraphs.h"
#include "schedule/DependenceRelations.h"
#include "schedule/IslPtr.h"
#include "support/GoldenFiles.h"

namespace tempo {
namespace {

using namespace interp_test;

bool sameMap(IslContext& ctx, const std::string& a, const std::string& b) {
  auto x = islCheck(isl_union_map_read_from_str(ctx.get(), a.c_str()), ctx.get(), "a");
  auto y = islCheck(isl_union_map_read_from_str(ctx.get(), b.c_str()), ctx.get(), "b");
  return isl_union_map_is_equal(x.get(), y.get()) == isl_bool_true;
}

bool sameSet(IslContext& ctx, const std::string& a, const std::string& b) {
  auto x = islCheck(isl_union_set_read_from_str(ctx.get(), a.c_str()), ctx.get(), "a");
  auto y = islCheck(isl_union_set_read_from_str(ctx.get(), b.c_str()), ctx.get(), "b");
  return isl_union_set_is_equal(x.get(), y.get()) == isl_bool_true;
}

const EdgeDependence& dependence(const DependenceRelations& rel, NodeId producer, NodeId consumer) {
  for (const EdgeDependence& d : rel.dependences)
    if (d.producer == producer && d.consumer == consumer) return d;
  throw std::runtime_error("no such dependence");
}

class RnnRelations : public ::testing::Test {
protected:
  void SetUp() override {
    FrontendResult r = compileFile((testing::sourceDir() / "resources" / "examples" / "rnn.tpo").string());
    ASSERT_TRUE(r.ok());
    g = r.graph;
    rel = buildDependenceRelations(g, ctx);
  }
  IslContext ctx;
  Graph g;
  DependenceRelations rel;
};

TEST_F(RnnRelations, BoundsAreParametersAndEveryNodeIsAStatement) {
  EXPECT_EQ(rel.params, (std::vector<std::string>{"B", "T"}));
  EXPECT_EQ(rel.statements.size(), g.nodes().size());
  EXPECT_EQ(rel.dependences.size(), g.edges().size());
  ASSERT_NE(rel.statementOf(4), nullptr);
  EXPECT_EQ(rel.statementOf(4)->name, "S_4");
  EXPECT_TRUE(sameSet(ctx, rel.statementOf(4)->domain,
                      "[B, T] -> { S_4[b, t] : 0 <= b < B and 0 <= t < T and B >= 1 and T >= 1 }"));
  EXPECT_TRUE(sameSet(ctx, rel.statementOf(1)->domain, "[B, T] -> { S_1[] : B >= 1 and T >= 1 }"));
  EXPECT_TRUE(sameSet(ctx, rel.paramContext(), "[B, T] -> { : B >= 1 and T >= 1 }"));
}

TEST_F(RnnRelations, APastReadIsAShiftThatStaysInTheDomain) {
  // %9 = matmul(%4[b, t - 1], %2): h at t-1 feeds step t, for t >= 1 only.
  EXPECT_TRUE(sameMap(ctx, dependence(rel, 4, 9).validity,
                      "[B, T] -> { S_4[b, t] -> S_9[b, t + 1] : 0 <= b < B and 0 <= t and t + 1 < T }"));
}

TEST_F(RnnRelations, LaterMergeBranchesAreLiveOnlyWhereEarlierOnesAreNot) {
  // h = merge(%7[b, t] if t == 0, %12[b, t]): the second branch holds for t != 0.
  EXPECT_TRUE(sameMap(ctx, dependence(rel, 7, 4).validity,
                      "[B, T] -> { S_7[b, 0] -> S_4[b, 0] : 0 <= b < B and T >= 1 }"));
  EXPECT_TRUE(sameMap(ctx, dependence(rel, 12, 4).validity,
                      "[B, T] -> { S_12[b, t] -> S_4[b, t] : 0 <= b < B and 1 <= t < T }"));
}

TEST_F(RnnRelations, SlicesReadARange) {
  // s = identity(%4[b, 0:T]).
  EXPECT_TRUE(sameMap(ctx, dependence(rel, 4, 13).validity,
                      "[B, T] -> { S_4[b, q] -> S_13[b] : 0 <= b < B and 0 <= q < T }"));
  // A zero-dimensional producer read everywhere.
  EXPECT_TRUE(sameMap(ctx, dependence(rel, 2, 9).validity,
                      "[B, T] -> { S_2[] -> S_9[b, t] : 0 <= b < B and 0 <= t < T }"));
}

TEST_F(RnnRelations, UnionsParseAndContainEveryPiece) {
  auto all = islCheck(isl_union_map_read_from_str(ctx.get(), rel.validityUnion().c_str()), ctx.get(), "union");
  for (const EdgeDependence& d : rel.dependences) {
    auto one = islCheck(isl_union_map_read_from_str(ctx.get(), d.validity.c_str()), ctx.get(), "piece");
    EXPECT_EQ(isl_union_map_is_subset(one.get(), all.get()), isl_bool_true) << d.validity;
  }
  EXPECT_TRUE(sameSet(ctx, rel.domainUnion(), rel.domainUnion()));
}

TEST(DependenceRelations, StatementNamesRoundTrip) {
  EXPECT_EQ(statementName(17), "S_17");
  EXPECT_EQ(nodeOfStatement("S_17"), 17);
  EXPECT_EQ(nodeOfStatement("S_x"), std::nullopt);
  EXPECT_EQ(nodeOfStatement("T"), std::nullopt);
}

TEST(DependenceRelations, UnsafeBoundNamesAreRenamedAndMappedBack) {
  Graph g;
  g.dims = {{"t", "min"}};
  NodeId a = addNode(g, OpKind::Constant, {"t"}, f32(), constantAttrs(1));
  NodeId b = addNode(g, OpKind::Identity, {"t"}, f32());
  addEdge(g, b, 0, a, {at(dim("t"))});
  IslContext ctx;
  DependenceRelations rel = buildDependenceRelations(g, ctx);
  ASSERT_EQ(rel.params.size(), 1u);
  EXPECT_EQ(rel.params[0], "P0");
  EXPECT_EQ(rel.boundOfParam.at("P0"), "min");
}

TEST(DependenceRelations, StridedAndModuloReadsAreExact) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId a = addNode(g, OpKind::Constant, {"t"}, f32(), constantAttrs(1));
  NodeId b = addNode(g, OpKind::Identity, {"t"}, f32());
  NodeId c = addNode(g, OpKind::Identity, {"t"}, f32());
  addEdge(g, b, 0, a, {at(IndexExpr::floorDiv(dim("t"), 2))});
  addEdge(g, c, 0, a, {at(IndexExpr::mod(dim("t"), 3))}, when(dim("t"), Constraint::Rel::Ne, 1));
  IslContext ctx;
  DependenceRelations rel = buildDependenceRelations(g, ctx);
  EXPECT_TRUE(sameMap(ctx, dependence(rel, a, b).validity,
                      "[T] -> { S_0[q] -> S_1[t] : 0 <= t < T and q = floor(t/2) }"));
  EXPECT_TRUE(sameMap(ctx, dependence(rel, a, c).validity,
                      "[T] -> { S_0[q] -> S_2[t] : 0 <= t < T and t != 1 and q = t mod 3 and q < T }"));
}

TEST(DependenceRelations, ADimensionWithoutABoundIsRejected) {
  Graph g;
  g.dims = {{"t", "T"}};
  addNode(g, OpKind::Constant, {"s"}, f32(), constantAttrs(1));
  IslContext ctx;
  EXPECT_THROW(buildDependenceRelations(g, ctx), std::invalid_argument);
}

TEST(DependenceRelations, AnAtomCountThatDiffersFromTheProducerIsRejected) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId a = addNode(g, OpKind::Constant, {"t"}, f32(), constantAttrs(1));
  NodeId b = addNode(g, OpKind::Identity, {"t"}, f32());
  addEdge(g, b, 0, a, {});
  IslContext ctx;
  EXPECT_THROW(buildDependenceRelations(g, ctx), std::invalid_argument);
}

TEST(DependenceRelations, AnIndexNamingAnUnknownSymbolIsRejected) {
  Graph g;
  g.dims = {{"t", "T"}, {"s", "S"}};
  NodeId a = addNode(g, OpKind::Constant, {"t"}, f32(), constantAttrs(1));
  NodeId b = addNode(g, OpKind::Identity, {"t"}, f32());
  addEdge(g, b, 0, a, {at(dim("s"))});
  IslContext ctx;
  try {
    buildDependenceRelations(g, ctx);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'s'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tempo
