// Tests of PointSet: emptiness and coverage questions the checker asks, set
// algebra, sampling, error handling, and IndexExpr::toIsl agreeing with
// IndexExpr::evaluate when isl parses it.
#include "symbolic/PointSet.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <stdexcept>

namespace tempo {
namespace {

using Rel = Constraint::Rel;
const IndexExpr t = IndexExpr::dim("t");
const IndexExpr b = IndexExpr::dim("b");
const IndexExpr T = IndexExpr::bound("T");
const IndexExpr B = IndexExpr::bound("B");
const IndexExpr W = IndexExpr::bound("W");

bool satisfies(const Constraint& c, const SymbolEnv& env) {
  int64_t l = c.lhs.evaluate(env), r = c.rhs.evaluate(env);
  switch (c.rel) {
    case Rel::Eq: return l == r;
    case Rel::Ne: return l != r;
    case Rel::Lt: return l < r;
    case Rel::Le: return l <= r;
    case Rel::Gt: return l > r;
    case Rel::Ge: return l >= r;
  }
  return false;
}

TEST(PointSet, VersionIsIsl025) {
  EXPECT_NE(IslContext::version().find("isl-0.25"), std::string::npos) << IslContext::version();
}

TEST(PointSet, ReachingTheBoundIsPossible) {
  IslContext ctx;
  auto s = PointSet::fromConstraints(ctx, {"t"}, {"T"},
                                     {{t, Rel::Ge, 0}, {t, Rel::Lt, T}, {t + 1, Rel::Ge, T}});
  EXPECT_FALSE(s.isEmpty());
  auto guarded = PointSet::fromConstraints(
      ctx, {"t"}, {"T"},
      {{t, Rel::Ge, 0}, {t, Rel::Lt, T}, {t, Rel::Ne, T - 1}, {t + 1, Rel::Ge, T}});
  EXPECT_TRUE(guarded.isEmpty());
}

TEST(PointSet, BranchesCoverTheBox) {
  IslContext ctx;
  auto box = PointSet::box(ctx, {"t"}, {T}, {"T"});
  auto first = PointSet::fromConstraints(ctx, {"t"}, {"T"}, {{t, Rel::Eq, 0}});
  auto rest = PointSet::fromConstraints(ctx, {"t"}, {"T"}, {{t, Rel::Ge, 1}});
  EXPECT_TRUE(box.subtract(first).subtract(rest).isEmpty());
  EXPECT_FALSE(box.subtract(rest).isEmpty());
  EXPECT_TRUE(box.isSubsetOf(first.unite(rest)));
  EXPECT_FALSE(box.isSubsetOf(rest));
  EXPECT_TRUE(box.intersect(first).isSubsetOf(first));
}

TEST(PointSet, ParamsAreAtLeastOne) {
  IslContext ctx;
  auto s = PointSet::fromConstraints(ctx, {}, {"T"}, {{T, Rel::Le, 0}});
  EXPECT_TRUE(s.isEmpty());
  EXPECT_TRUE(PointSet::box(ctx, {"t"}, {T}, {"T"}).sample().has_value());
}

TEST(PointSet, SampleSatisfiesConstraintsWithSmallParams) {
  IslContext ctx;
  std::vector<Constraint> cs = {{b, Rel::Ge, 0}, {b, Rel::Lt, B}, {t, Rel::Ge, 0},
                                {t, Rel::Lt, T}, {t + 1, Rel::Ge, W},
                                {IndexExpr::mod(t + b, 3), Rel::Eq, 2}};
  auto s = PointSet::fromConstraints(ctx, {"b", "t"}, {"B", "T", "W"}, cs);
  auto point = s.sample();
  ASSERT_TRUE(point.has_value());
  for (const auto& c : cs) EXPECT_TRUE(satisfies(c, *point)) << c.str();
  EXPECT_EQ(point->at("B"), 1);  // lexicographically least params
  EXPECT_EQ(point->at("T"), 3);
  EXPECT_EQ(point->at("W"), 1);
  EXPECT_EQ(point->size(), 5u);

  auto empty = PointSet::fromConstraints(ctx, {"t"}, {"T"}, {{t, Rel::Ge, T}, {t, Rel::Lt, T}});
  EXPECT_FALSE(empty.sample().has_value());
  auto unbounded = PointSet::universe(ctx, {"t"}, {});
  EXPECT_TRUE(unbounded.sample().has_value());
}

TEST(PointSet, MinMaxFloorAndModConstraints) {
  IslContext ctx;
  // The window t+1 - max(0, t-W+1) is always min(t+1, W) >= 1.
  IndexExpr size = t + 1 - IndexExpr::max(0, t - W + 1);
  auto small = PointSet::fromConstraints(ctx, {"t"}, {"T", "W"},
                                         {{t, Rel::Ge, 0}, {t, Rel::Lt, T}, {size, Rel::Lt, 1}});
  EXPECT_TRUE(small.isEmpty());
  auto quarter = PointSet::fromConstraints(
      ctx, {"t"}, {}, {{IndexExpr::floorDiv(t, 4), Rel::Eq, 1}, {IndexExpr::mod(t, 4), Rel::Eq, 3}});
  auto point = quarter.sample();
  ASSERT_TRUE(point.has_value());
  EXPECT_EQ(point->at("t"), 7);
}

TEST(PointSet, ErrorsAreExceptions) {
  IslContext ctx;
  EXPECT_THROW(PointSet::fromConstraints(ctx, {"t"}, {"T"}, {{b, Rel::Eq, 0}}),
               std::invalid_argument);
  EXPECT_THROW(PointSet::universe(ctx, {"t", "t"}, {}), std::invalid_argument);
  EXPECT_THROW(PointSet::universe(ctx, {"t'"}, {}), std::invalid_argument);
  EXPECT_THROW(PointSet::box(ctx, {"t"}, {}, {}), std::invalid_argument);
  auto a = PointSet::universe(ctx, {"t"}, {"T"});
  auto c = PointSet::universe(ctx, {"b"}, {"T"});
  EXPECT_THROW(a.intersect(c), std::invalid_argument);
  // Names that are isl keywords still work.
  auto keyword = PointSet::fromConstraints(ctx, {"mod", "and"}, {},
                                           {{IndexExpr::dim("mod"), Rel::Eq, 2},
                                            {IndexExpr::dim("and"), Rel::Eq, IndexExpr::dim("mod")}});
  auto point = keyword.sample();
  ASSERT_TRUE(point.has_value());
  EXPECT_EQ(point->at("and"), 2);
}

TEST(PointSet, CopiesAndPrinting) {
  IslContext ctx;
  auto s = PointSet::box(ctx, {"t"}, {T}, {"T"});
  PointSet copy = s;
  PointSet moved = std::move(copy);
  copy = moved;
  EXPECT_TRUE(copy.isSubsetOf(s) && s.isSubsetOf(moved));
  EXPECT_EQ(s.str(), "[T] -> { [t] : 0 <= t < T }");
  EXPECT_EQ(Constraint({t, Rel::Eq, 0}).str(), "t == 0");
  EXPECT_EQ(Constraint({t - 1, Rel::Ge, 0}).str(), "t - 1 >= 0");
}

/// Random min/max/floor/mod expressions: isl's reading of toIsl() agrees with
/// evaluate() at random points.
TEST(PointSet, ToIslAgreesWithEvaluate) {
  IslContext ctx;
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::vector<IndexExpr> leaves = {t, b, T, W, IndexExpr(3), IndexExpr(-2)};
  std::function<IndexExpr(int)> gen = [&](int depth) -> IndexExpr {
    if (depth == 0) return leaves[pick(0, 5)];
    switch (pick(0, 5)) {
      case 0: return gen(depth - 1) + gen(depth - 1);
      case 1: return gen(depth - 1) * pick(-3, 3);
      case 2: return IndexExpr::min(gen(depth - 1), gen(depth - 1));
      case 3: return IndexExpr::max(gen(depth - 1), gen(depth - 1));
      case 4: return IndexExpr::floorDiv(gen(depth - 1), pick(2, 5));
      default: return IndexExpr::mod(gen(depth - 1), pick(2, 5));
    }
  };
  IndexExpr x = IndexExpr::dim("x");
  for (int i = 0; i < 150; ++i) {
    IndexExpr e = gen(pick(1, 3));
    SymbolEnv env{{"t", pick(-9, 9)}, {"b", pick(-9, 9)}, {"T", pick(-9, 9)}, {"W", pick(-9, 9)}};
    std::vector<Constraint> cs = {{x, Rel::Eq, e}};
    for (const auto& [name, value] : env)
      cs.push_back({IndexExpr::dim(name), Rel::Eq, IndexExpr(value)});
    auto s = PointSet::fromConstraints(ctx, {"t", "b", "T", "W", "x"}, {}, cs);
    auto point = s.sample();
    ASSERT_TRUE(point.has_value()) << e.toIsl();
    EXPECT_EQ(point->at("x"), e.evaluate(env)) << e.str() << "  isl: " << e.toIsl();
  }
}

}  // namespace
}  // namespace tempo
