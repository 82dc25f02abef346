// Property tests of IndexExpr: random expression trees over {t, b, T, W} are
// built through the canonicalising factories and checked against a tiny
// independent evaluator (soundness), against themselves rebuilt (idempotence,
// hashing), and under substitution. Seeds are fixed so failures reproduce.
#include "symbolic/IndexExpr.h"

#include "core/IndexExprPrint.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>

namespace tempo {
namespace {

/// An uncanonicalised expression tree, evaluated naively.
struct Tree {
  enum Op { Const, Sym, Add, Sub, Neg, Scale, Min, Max, FloorDiv, Mod } op = Const;
  int64_t value = 0;  ///< constant, scale factor or divisor
  std::string name;
  std::shared_ptr<Tree> a, b;
};
using TreePtr = std::shared_ptr<Tree>;

int64_t floorDivRef(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t naiveEval(const Tree& n, const SymbolEnv& env) {
  switch (n.op) {
    case Tree::Const: return n.value;
    case Tree::Sym: return env.at(n.name);
    case Tree::Add: return naiveEval(*n.a, env) + naiveEval(*n.b, env);
    case Tree::Sub: return naiveEval(*n.a, env) - naiveEval(*n.b, env);
    case Tree::Neg: return -naiveEval(*n.a, env);
    case Tree::Scale: return n.value * naiveEval(*n.a, env);
    case Tree::Min: return std::min(naiveEval(*n.a, env), naiveEval(*n.b, env));
    case Tree::Max: return std::max(naiveEval(*n.a, env), naiveEval(*n.b, env));
    case Tree::FloorDiv: return floorDivRef(naiveEval(*n.a, env), n.value);
    case Tree::Mod: {
      int64_t v = naiveEval(*n.a, env);
      return v - floorDivRef(v, n.value) * n.value;
    }
  }
  return 0;
}

IndexExpr build(const Tree& n) {
  switch (n.op) {
    case Tree::Const: return IndexExpr(n.value);
    case Tree::Sym:
      return std::isupper(static_cast<unsigned char>(n.name[0])) ? IndexExpr::bound(n.name)
                                                                  : IndexExpr::dim(n.name);
    case Tree::Add: return build(*n.a) + build(*n.b);
    case Tree::Sub: return build(*n.a) - build(*n.b);
    case Tree::Neg: return -build(*n.a);
    case Tree::Scale: return build(*n.a) * n.value;
    case Tree::Min: return IndexExpr::min(build(*n.a), build(*n.b));
    case Tree::Max: return IndexExpr::max(build(*n.a), build(*n.b));
    case Tree::FloorDiv: return IndexExpr::floorDiv(build(*n.a), n.value);
    case Tree::Mod: return IndexExpr::mod(build(*n.a), n.value);
  }
  return IndexExpr();
}

class TreeGenerator {
public:
  explicit TreeGenerator(unsigned seed) : rng_(seed) {}

  TreePtr tree(int depth) {
    auto n = std::make_shared<Tree>();
    int choice = depth <= 0 ? pick(0, 1) : pick(0, 12);
    if (choice <= 1) {
      if (pick(0, 2) == 0) {
        n->op = Tree::Const;
        n->value = pick(-6, 6);
      } else {
        static const char* names[] = {"t", "b", "T", "W"};
        n->op = Tree::Sym;
        n->name = names[pick(0, 3)];
      }
      return n;
    }
    static const Tree::Op ops[] = {Tree::Add, Tree::Add, Tree::Sub, Tree::Sub, Tree::Neg,
                                   Tree::Scale, Tree::Min, Tree::Max, Tree::FloorDiv,
                                   Tree::Mod, Tree::Min};
    n->op = ops[choice - 2];
    n->a = tree(depth - 1);
    if (n->op == Tree::Scale) n->value = pick(-3, 3);
    if (n->op == Tree::FloorDiv || n->op == Tree::Mod) n->value = pick(1, 6);
    if (n->op == Tree::Add || n->op == Tree::Sub || n->op == Tree::Min || n->op == Tree::Max)
      n->b = tree(depth - 1);
    return n;
  }

  SymbolEnv point() {
    return {{"t", pick(-20, 20)}, {"b", pick(-20, 20)}, {"T", pick(-20, 20)}, {"W", pick(-20, 20)}};
  }

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

private:
  std::mt19937 rng_;
};

constexpr int kCases = 4000;

/// Structural invariants of the canonical form, checked recursively.
void expectCanonicalShape(const IndexExpr& e) {
  using K = IndexExpr::Kind;
  switch (e.kind()) {
    case K::Min:
    case K::Max: {
      auto ops = e.operands();
      ASSERT_GE(ops.size(), 2u) << e.str();
      int constants = 0;
      for (size_t i = 0; i < ops.size(); ++i) {
        EXPECT_NE(ops[i].kind(), e.kind()) << e.str();
        constants += ops[i].isConstant() ? 1 : 0;
        if (i > 0) {
          EXPECT_TRUE(ops[i - 1] < ops[i]) << e.str();
        }
        expectCanonicalShape(ops[i]);
      }
      EXPECT_LE(constants, 1) << e.str();
      break;
    }
    case K::FloorDiv:
    case K::Mod:
      EXPECT_GE(e.divisor(), 2) << e.str();
      EXPECT_FALSE(e.operands()[0].isConstant()) << e.str();
      expectCanonicalShape(e.operands()[0]);
      break;
    default: break;
  }
}

TEST(IndexExprProperty, CanonicalFormEvaluatesLikeTheTree) {
  TreeGenerator gen(12345);
  for (int i = 0; i < kCases; ++i) {
    TreePtr tree = gen.tree(gen.pick(1, 5));
    IndexExpr e = build(*tree);
    expectCanonicalShape(e);
    for (int p = 0; p < 8; ++p) {
      SymbolEnv env = gen.point();
      ASSERT_EQ(e.evaluate(env), naiveEval(*tree, env)) << "case " << i << ": " << e.str();
    }
  }
}

TEST(IndexExprProperty, CanonicalisationIsIdempotentAndDeterministic) {
  TreeGenerator gen(777);
  for (int i = 0; i < kCases; ++i) {
    TreePtr tree = gen.tree(gen.pick(1, 5));
    IndexExpr e = build(*tree);
    IndexExpr rebuilt = e.substitute({});
    ASSERT_EQ(rebuilt, e) << "case " << i << ": " << e.str() << " vs " << rebuilt.str();
    ASSERT_EQ(rebuilt.str(), e.str());
    IndexExpr identity =
        e.substitute({{"t", IndexExpr::dim("t")}, {"T", IndexExpr::bound("T")}});
    ASSERT_EQ(identity, e) << e.str();
    IndexExpr again = build(*tree);
    ASSERT_EQ(again, e);
    ASSERT_EQ(again.hash(), e.hash());
    ASSERT_EQ((e + 0), e);
    ASSERT_EQ((e * 1), e);
    ASSERT_EQ(-(-e), e) << e.str();
    ASSERT_EQ(e - e, IndexExpr(0)) << e.str();
  }
}

TEST(IndexExprProperty, EqualityHashAndPrintingAgree) {
  TreeGenerator gen(4242);
  std::vector<IndexExpr> exprs;
  std::vector<std::string> printed;
  for (int i = 0; i < 600; ++i) {
    exprs.push_back(build(*gen.tree(gen.pick(0, 3))));
    printed.push_back(exprs.back().str());
  }
  for (size_t i = 0; i < exprs.size(); ++i) {
    for (size_t j = 0; j < exprs.size(); ++j) {
      const IndexExpr& a = exprs[i];
      const IndexExpr& b = exprs[j];
      bool equal = a == b;
      ASSERT_EQ(equal, printed[i] == printed[j]) << printed[i] << " / " << printed[j];
      if (equal) {
        ASSERT_EQ(a.hash(), b.hash());
      }
      // Total order: exactly one of <, ==, > holds.
      ASSERT_EQ(int(a < b) + int(b < a) + int(equal), 1) << printed[i] << " / " << printed[j];
    }
  }
}

TEST(IndexExprProperty, SubstitutionAgreesWithEvaluation) {
  TreeGenerator gen(99);
  for (int i = 0; i < kCases; ++i) {
    TreePtr tree = gen.tree(gen.pick(1, 4));
    TreePtr forT = gen.tree(gen.pick(0, 2));
    TreePtr forW = gen.tree(gen.pick(0, 2));
    IndexExpr e = build(*tree);
    IndexExpr substituted = e.substitute({{"t", build(*forT)}, {"W", build(*forW)}});
    for (int p = 0; p < 4; ++p) {
      SymbolEnv env = gen.point();
      SymbolEnv inner = env;
      inner["t"] = naiveEval(*forT, env);
      inner["W"] = naiveEval(*forW, env);
      ASSERT_EQ(substituted.evaluate(env), naiveEval(*tree, inner))
          << "case " << i << ": " << e.str() << " -> " << substituted.str();
    }
  }
}

TEST(IndexExprProperty, OperatorsAreSound) {
  TreeGenerator gen(2024);
  for (int i = 0; i < kCases; ++i) {
    TreePtr ta = gen.tree(gen.pick(0, 3));
    TreePtr tb = gen.tree(gen.pick(0, 3));
    IndexExpr a = build(*ta), b = build(*tb);
    int k = gen.pick(-4, 4);
    int d = gen.pick(1, 5);
    for (int p = 0; p < 4; ++p) {
      SymbolEnv env = gen.point();
      int64_t va = naiveEval(*ta, env), vb = naiveEval(*tb, env);
      ASSERT_EQ((a + b).evaluate(env), va + vb);
      ASSERT_EQ((a - b).evaluate(env), va - vb);
      ASSERT_EQ((a * k).evaluate(env), va * k);
      ASSERT_EQ(IndexExpr::min(a, b).evaluate(env), std::min(va, vb));
      ASSERT_EQ(IndexExpr::max(a, b).evaluate(env), std::max(va, vb));
      ASSERT_EQ(IndexExpr::floorDiv(a, d).evaluate(env), floorDivRef(va, d));
      ASSERT_EQ(IndexExpr::mod(a, d).evaluate(env), va - floorDivRef(va, d) * d);
    }
  }
}

}  // namespace
}  // namespace tempo
