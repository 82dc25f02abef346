// Condition: substitution of symbols by expressions, disjunct by disjunct.
#include "graph/Condition.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

using Rel = Constraint::Rel;

TEST(Condition, SubstituteReplacesNamedSymbolsInEveryConstraint) {
  const IndexExpr t = IndexExpr::dim("t"), b = IndexExpr::dim("b"), T = IndexExpr::bound("T");
  const Condition c = Condition::of({{t, Rel::Eq, IndexExpr(0)}, {b, Rel::Lt, t + 1}}) ||
                      Condition::of({{t, Rel::Ge, T - 1}});
  EXPECT_EQ(c.substitute({{"t", T - 1}}).str(), "(T - 1 == 0 and b < T) or T - 1 >= T - 1");
  EXPECT_EQ(c.substitute({{"x", IndexExpr(3)}}), c);  // a name it does not mention: unchanged
  EXPECT_TRUE(Condition::never().substitute({{"t", IndexExpr(0)}}).isNever());
  EXPECT_TRUE(Condition::always().substitute({{"t", IndexExpr(0)}}).isAlways());
}

}  // namespace
}  // namespace tempo
