// StoreBytes: folding of unused dims, printing, and exact evaluation of sums
// and maxima over a point-dependent element size.
#include "schedule/StoreBytes.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

IndexExpr bound(const char* n) { return IndexExpr::bound(n); }
IndexExpr dim(const char* n) { return IndexExpr::dim(n); }

TEST(StoreBytes, FoldsDimsNoFactorUsesIntoTheProduct) {
  StoreBytes b = StoreBytes::term(4, {8}, {{"b", bound("B")}, {"t", bound("T")}});
  EXPECT_EQ(b.str(), "32*B*T");
  EXPECT_EQ(b.evaluate({{"B", 2}, {"T", 5}}), 320);
  StoreBytes point = StoreBytes::term(4, {8}, {}, {{"t", bound("T")}});
  EXPECT_EQ(point.str(), "32");
  EXPECT_EQ(StoreBytes(bound("T") * 32).str(), "32*T");
  EXPECT_EQ(StoreBytes(0).str(), "0");
  EXPECT_EQ(StoreBytes(0).evaluate({}), 0);
}

TEST(StoreBytes, SumsAndMaximisesAPointDependentSize) {
  // A growing window t + 1 of 8 floats: a whole store sums it, a point store holds the largest.
  StoreBytes whole = StoreBytes::term(4, {dim("t") + 1, 8}, {{"t", bound("T")}});
  EXPECT_EQ(whole.str(), "sum(t < T: 32*(t + 1))");
  EXPECT_EQ(whole.evaluate({{"T", 4}}), 32 * (1 + 2 + 3 + 4));
  StoreBytes largest = StoreBytes::term(4, {dim("t") + 1, 8}, {}, {{"t", bound("T")}});
  EXPECT_EQ(largest.str(), "max(t < T: 32*(t + 1))");
  EXPECT_EQ(largest.evaluate({{"T", 4}}), 128);
  // Pinned to a loop variable, it is a plain product evaluated where the loop is.
  StoreBytes atLoop = StoreBytes::term(4, {dim("c1") + 1, 8});
  EXPECT_EQ(atLoop.evaluate({{"c1", 2}}), 96);
}

TEST(StoreBytes, AddsTermsAndMergesEqualOnes) {
  StoreBytes b = StoreBytes::term(4, {}, {{"t", bound("T")}});
  b += StoreBytes::term(4, {}, {{"t", bound("T")}});
  EXPECT_EQ(b.str(), "8*T");
  b += StoreBytes::term(4, {IndexExpr::min(2, bound("T"))});
  EXPECT_EQ(b.str(), "8*T + 4*min(2, T)");
  EXPECT_EQ(b.evaluate({{"T", 5}}), 48);
  EXPECT_THROW(b.evaluate({}), std::out_of_range);
}

}  // namespace
}  // namespace tempo
