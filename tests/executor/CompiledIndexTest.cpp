// CompiledIndex: every kind of index expression evaluated over a slot array agrees with
// IndexExpr::evaluate over a SymbolEnv, sums with min/max/floor/mod terms included (they
// used to fall back to the SymbolEnv path on every evaluation); a symbol out of scope is
// an ExecError when compiling.
#include "executor/CompiledIndex.h"
#include "executor/ExecError.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

TEST(CompiledIndex, AgreesWithEvaluateOnEveryKindOfExpression) {
  const IndexExpr t = IndexExpr::dim("t"), b = IndexExpr::dim("b"), T = IndexExpr::bound("T");
  const std::vector<IndexExpr> expressions = {
      IndexExpr(7),
      t,
      2 * t - b + 3,
      IndexExpr::min(t, T - 1),
      IndexExpr::max(0, t - 3),
      IndexExpr::floorDiv(t + b, 4),
      IndexExpr::mod(t - 1, 3),
      t + IndexExpr::floorDiv(t, 2) - 1,                                  // a sum with a floor term
      IndexExpr::min(t, 4) + IndexExpr::max(b, 1),                         // min and max terms
      2 * IndexExpr::floorDiv(t, 4) - IndexExpr::mod(b, 3) + 1,            // floor and mod terms
      T - IndexExpr::min(t + 1, T) + 3 * IndexExpr::max(b, IndexExpr::floorDiv(t, 2)),  // nested
  };
  SlotLayout layout;
  layout.add("T");
  layout.add("t");
  layout.add("b");
  int nonAffineSums = 0;
  for (const IndexExpr& e : expressions) {
    if (e.kind() == IndexExpr::Kind::Sum && !e.isAffine()) ++nonAffineSums;
    const CompiledIndex compiled(e, layout, "test");
    for (int64_t tv = -2; tv < 9; ++tv)
      for (int64_t bv = -1; bv < 5; ++bv) {
        const int64_t slots[] = {6, tv, bv};
        EXPECT_EQ(compiled.eval(slots), e.evaluate({{"T", 6}, {"t", tv}, {"b", bv}})) << e.str() << " at t=" << tv
                                                                                        << " b=" << bv;
      }
  }
  EXPECT_EQ(nonAffineSums, 4);  // the cases this test is about stay sums after canonicalisation
}

TEST(CompiledIndex, ASumsTermsAndConstantAreExposed) {
  const IndexExpr t = IndexExpr::dim("t");
  const IndexExpr e = 2 * t + IndexExpr::floorDiv(t, 4) + 1;  // (a max would absorb 2t + 1)
  ASSERT_EQ(e.kind(), IndexExpr::Kind::Sum);
  EXPECT_EQ(e.sumConstant(), 1);
  int64_t rebuiltAt5 = e.sumConstant();
  for (const auto& [atom, coeff] : e.sumTerms()) rebuiltAt5 += coeff * atom.evaluate({{"t", 5}});
  EXPECT_EQ(rebuiltAt5, e.evaluate({{"t", 5}}));
  EXPECT_EQ(e.sumTerms().size(), 2u);
}

TEST(CompiledIndex, ASymbolOutOfScopeIsAnErrorWhenCompiling) {
  SlotLayout layout;
  layout.add("t");
  const IndexExpr e = IndexExpr::dim("t") + IndexExpr::max(0, IndexExpr::dim("u") - 1);
  try {
    CompiledIndex(e, layout, "the point of exec %3");
    FAIL() << "no error";
  } catch (const ExecError& err) {
    EXPECT_NE(std::string(err.what()).find("uses 'u', which is not in scope"), std::string::npos) << err.what();
  }
}

}  // namespace
}  // namespace tempo
