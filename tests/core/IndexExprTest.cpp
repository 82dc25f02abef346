// Unit tests of IndexExpr: canonical forms, printing, isl syntax, evaluation,
// substitution and the accessors other components rely on.
#include "symbolic/IndexExpr.h"

#include "core/IndexExprPrint.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tempo {
namespace {

const IndexExpr t = IndexExpr::dim("t");
const IndexExpr b = IndexExpr::dim("b");
const IndexExpr T = IndexExpr::bound("T");
const IndexExpr W = IndexExpr::bound("W");

using E = IndexExpr;

TEST(IndexExprCanonical, AffineArithmetic) {
  EXPECT_EQ((t + 1) - 1, t);
  EXPECT_EQ(t - t, E(0));
  EXPECT_TRUE((t - t).isConstant());
  EXPECT_EQ(t + t, 2 * t);
  EXPECT_EQ((t + T) - (T + t), E(0));
  EXPECT_EQ(3 * (t - 1) + 3, 3 * t);
  EXPECT_EQ(-(-t), t);
  EXPECT_EQ(t * 0, E(0));
  EXPECT_EQ(E(2) + E(3), E(5));
  EXPECT_EQ((t + 1).kind(), E::Kind::Sum);
  EXPECT_EQ(((t + 1) - 1).kind(), E::Kind::Sym);
}

TEST(IndexExprCanonical, MinMax) {
  EXPECT_EQ(E::min(t, t + 1), t);
  EXPECT_EQ(E::max(t, t + 1), t + 1);
  EXPECT_EQ(E::min(3, 5), E(3));
  EXPECT_EQ(E::max(3, 5), E(5));
  EXPECT_EQ(E::min(t, t), t);
  EXPECT_EQ(E::min(E::min(t, T), b), E::min(t, E::min(b, T)));
  EXPECT_EQ(E::min(E::min(t, 3), 5), E::min(t, 3));
  EXPECT_EQ(E::max(t, T), E::max(T, t));
  EXPECT_EQ(E::min(t, T).operands().size(), 2u);
  EXPECT_EQ(E::min(E::min(t, T), b).operands().size(), 3u);
  // Absorption: min(a, max(a, b)) = a.
  EXPECT_EQ(E::min(t, E::max(t, T)), t);
  EXPECT_EQ(E::max(t, E::min(t - 1, T)), t);
}

TEST(IndexExprCanonical, DistributesAffinePartsIntoMinMax) {
  E window = t + 1 - E::max(0, t - W + 1);
  EXPECT_EQ(window, E::min(t + 1, W));
  EXPECT_EQ(window.str(), "min(t + 1, W)");
  EXPECT_EQ(E::max(t, T) - t, E::max(0, T - t));
  EXPECT_EQ(-E::min(t, T), E::max(-t, -T));
  EXPECT_EQ(2 * E::max(t, 1), E::max(2 * t, 2));
}

TEST(IndexExprCanonical, SumsOfSeveralMinMaxIgnoreGrouping) {
  E m = E::min(t, T), n = E::max(b, W);
  EXPECT_EQ((m + 1) + n, m + (n + 1));
  EXPECT_EQ((m + t) + (n - t), m + n);
  EXPECT_EQ(2 * (m + n), (2 * m) + (2 * n));
  EXPECT_EQ((m + n) - n, m);
  EXPECT_EQ(m - m, E(0));
}

TEST(IndexExprCanonical, FloorDivAndMod) {
  EXPECT_EQ(E::floorDiv(2 * t + 4, 2), t + 2);
  EXPECT_EQ(E::floorDiv(t, 1), t);
  EXPECT_EQ(E::floorDiv(7, 2), E(3));
  EXPECT_EQ(E::floorDiv(-7, 2), E(-4));
  EXPECT_EQ(E::floorDiv(E::floorDiv(t, 2), 3), E::floorDiv(t, 6));
  EXPECT_EQ(E::floorDiv(4 * t + 1, 4), t);
  EXPECT_EQ(E::floorDiv(4 * t + 5, 4), t + 1);
  EXPECT_EQ(E::floorDiv(4 * t + b + 5, 4), t + 1 + E::floorDiv(b + 1, 4));
  EXPECT_EQ(E::floorDiv(2 * t + 1, 4), E::floorDiv(t, 2));
  EXPECT_EQ(E::mod(4 * t + 1, 4), E(1));
  EXPECT_EQ(E::mod(t, 1), E(0));
  EXPECT_EQ(E::mod(-7, 3), E(2));
  EXPECT_EQ(E::mod(t - 1, 2), E::mod(t + 1, 2));
  EXPECT_EQ(E::mod(E::mod(t, 8), 4), E::mod(t, 4));
  EXPECT_EQ(E::mod(2 * t + 1, 4), 2 * E::mod(t, 2) + 1);
  EXPECT_EQ(E::floorDiv(t, 4).divisor(), 4);
  EXPECT_EQ(E::mod(t, 4).operands(), std::vector<E>{t});
  EXPECT_THROW(E::floorDiv(t, 0), std::invalid_argument);
  EXPECT_THROW(E::mod(t, -2), std::invalid_argument);
}

TEST(IndexExprPrinting, Forms) {
  EXPECT_EQ((t - 1).str(), "t - 1");
  EXPECT_EQ((T - 1).str(), "T - 1");
  EXPECT_EQ((2 * t + 1).str(), "2*t + 1");
  EXPECT_EQ((3 - t).str(), "-t + 3");
  EXPECT_EQ((-2 * t).str(), "-2*t");
  EXPECT_EQ(E(0).str(), "0");
  EXPECT_EQ(E(-4).str(), "-4");
  EXPECT_EQ(E::max(0, t - 3 + 1).str(), "max(0, t - 2)");
  EXPECT_EQ(E::max(0, t - W + 1).str(), "max(0, t - W + 1)");
  EXPECT_EQ(E::min(T, t).str(), "min(t, T)");
  EXPECT_EQ(E::floorDiv(t, 4).str(), "floor(t / 4)");
  EXPECT_EQ(E::floorDiv(t + b, 4).str(), "floor((b + t) / 4)");
  EXPECT_EQ(E::mod(t, 4).str(), "t mod 4");
  EXPECT_EQ(E::mod(t + 1, 4).str(), "(t + 1) mod 4");
  EXPECT_EQ((E::mod(t, 4) + 1).str(), "(t mod 4) + 1");
  EXPECT_EQ((t + W + T + b).str(), "b + t + T + W");
  EXPECT_EQ((E::floorDiv(t, 2) - t).str(), "-t + floor(t / 2)");
  EXPECT_EQ((E::min(t, T) + E::max(b, W)).str(), "t + W - min(0, -b + W) + min(0, -t + T)");
  EXPECT_EQ(E::min(t, T) + E::max(-t, -T), E(0));
}

TEST(IndexExprPrinting, IslSyntax) {
  EXPECT_EQ((t - 1).toIsl(), "t - 1");
  EXPECT_EQ(E::floorDiv(t, 4).toIsl(), "floor((t)/4)");
  EXPECT_EQ(E::mod(t + 1, 4).toIsl(), "((t + 1) mod 4)");
  EXPECT_EQ(E::max(0, t - W + 1).toIsl(), "max(0, t - W + 1)");
  EXPECT_EQ((t - 2 * E::floorDiv(t, 4)).toIsl(), "t - 2*(floor((t)/4))");
}

TEST(IndexExprEvaluate, ExactIntegerSemantics) {
  SymbolEnv env{{"t", -7}, {"T", 10}, {"W", 3}, {"b", 2}};
  EXPECT_EQ(E::floorDiv(t, 2).evaluate(env), -4);
  EXPECT_EQ(E::mod(t, 3).evaluate(env), 2);
  EXPECT_EQ((t + 1 - E::max(0, t - W + 1)).evaluate(env), -6);
  EXPECT_EQ(E::min(T, b).evaluate(env), 2);
  EXPECT_EQ((2 * T - b).evaluate(env), 18);
  try {
    (t + IndexExpr::dim("x")).evaluate(env);
    FAIL() << "expected out_of_range";
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(e.what(), "unbound symbol 'x'");
  }
}

TEST(IndexExprQueries, SymbolsLinearAndSubstitution) {
  E e = E::max(0, t - W + 1) + 2 * T;
  EXPECT_TRUE(e.dependsOn("t"));
  EXPECT_FALSE(e.dependsOn("b"));
  EXPECT_TRUE(e.dependsOnKind(SymbolKind::Bound));
  EXPECT_EQ(e.symbols().size(), 3u);
  EXPECT_FALSE(e.isAffine());
  EXPECT_FALSE(e.linear().has_value());

  auto lin = (2 * t - T + 5).linear();
  ASSERT_TRUE(lin.has_value());
  EXPECT_EQ(lin->constant, 5);
  EXPECT_EQ(lin->coeffs.at(Symbol{"t", SymbolKind::Dim}), 2);
  EXPECT_EQ(lin->coeffs.at(Symbol{"T", SymbolKind::Bound}), -1);
  EXPECT_EQ(t.asSymbol()->name, "t");
  EXPECT_FALSE((t + 1).asSymbol().has_value());
  EXPECT_EQ(E(7).constantValue(), 7);

  EXPECT_EQ((t - 1).substitute({{"t", t + 1}}), t);
  EXPECT_EQ(E::max(0, t - W + 1).substitute({{"W", E(1)}}), E::max(0, t));
  EXPECT_EQ(E::floorDiv(t, 4).substitute({{"t", 4 * b}}), b);
}

TEST(IndexExprQueries, MultiplyAndOrder) {
  EXPECT_EQ(E::multiply(t, 3), 3 * t);
  EXPECT_EQ(E::multiply(2, t + 1), 2 * t + 2);
  EXPECT_FALSE(E::multiply(t, T).has_value());
  EXPECT_TRUE(E(1) < t);
  EXPECT_FALSE(t < t);
  EXPECT_TRUE(t < T);  // dims before bounds
  EXPECT_EQ(std::hash<E>()(t + 1), std::hash<E>()(1 + t));
}

}  // namespace
}  // namespace tempo
