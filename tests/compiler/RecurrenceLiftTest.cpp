// The running-sum lift of algebraic simplification on random float data: the
// recurrence disappears (no merge left, one reduce_sum) and the outputs agree
// with the recurrence's up to rounding (the reduction sums in f64 and rounds
// once, the recurrence rounds after every step). Variants the rule must leave
// alone keep their merge.
#include "PassTestUtil.h"

namespace tempo::testing {
namespace {

int countOps(const Graph& g, OpKind op) {
  int n = 0;
  for (const auto& [id, node] : g.nodes()) n += node.op == op;
  return n;
}

/// After the pass: `merges` merges, `reductions` reduce_sums (-1: as before), the
/// outputs within `relTol` of the recurrence's.
void expectAfterThePass(const std::string& source, int merges, int reductions, double relTol) {
  Graph g = lowered(source);
  Outputs before = evaluate(g);
  if (reductions < 0) reductions = countOps(g, OpKind::ReduceSum);
  runPass(g, "algebraic-simplification");
  EXPECT_EQ(countOps(g, OpKind::Merge), merges) << source;
  EXPECT_EQ(countOps(g, OpKind::ReduceSum), reductions) << source;
  expectSameOutputs(before, evaluate(g), relTol, source);
}

void expectLifted(const std::string& source) { expectAfterThePass(source, 0, 1, 1e-5); }

void expectKept(const std::string& source) { expectAfterThePass(source, 1, -1, 0); }

const std::string kHeader =
    "dim b < B\ndim t < T\nset B = 3, T = 37\ninput x : f32[4] over (b, t) = normal(seed=7)\n";

TEST(RecurrenceLift, PrefixSumReadAtTheEndBecomesOneReduction) {
  expectLifted(kHeader + "acc : f32[4] over (b, t)\nacc[b, 0] = x[b, 0]\nacc[b, t] = acc[b, t-1] + x[b, t]\n"
                         "out y = tanh(acc[b, T-1])\n");
}

TEST(RecurrenceLift, SuffixSumReadAtZeroBecomesOneReduction) {
  expectLifted(kHeader + "f : f32[4] over (b, t)\nf[b, T-1] = x[b, T-1]\nf[b, t] = x[b, t] + f[b, t+1]\n"
                         "out y = f[b, 0]\nout z = f[0, 0] * 2.0\n");
}

TEST(RecurrenceLift, RecurrenceOverTheFirstDimension) {
  expectLifted("dim t < T\ndim b < B\nset B = 2, T = 9\ninput x : f32[] over (t, b) = normal(seed=3)\n"
               "acc : f32[] over (t, b)\nacc[0, b] = x[0, b]\nacc[t, b] = acc[t-1, b] + x[t, b]\n"
               "out y = acc[T-1, b]\n");
}

TEST(RecurrenceLift, IntegerSumsAreExact) {
  Graph g = lowered("dim t < T\nset T = 50\nx = t * 3 - 7\nacc : i64[] over (t)\nacc[0] = x[0]\n"
                    "acc[t] = acc[t-1] + x[t]\nout y = acc[T-1]\n");
  Outputs before = evaluate(g);
  runPass(g, "algebraic-simplification");
  EXPECT_EQ(countOps(g, OpKind::Merge), 0);
  expectSameOutputs(before, evaluate(g), 0, "integer running sum");
}

TEST(RecurrenceLift, RunningSumsThatAreNotOnlyReadAtTheEndStay) {
  const std::string sum = "acc : f32[4] over (b, t)\nacc[b, 0] = x[b, 0]\nacc[b, t] = acc[b, t-1] + x[b, t]\n";
  expectKept(kHeader + sum + "out y = acc[b, 0]\n");                 // read at the start
  expectKept(kHeader + sum + "out y = acc[b, T-1] + acc[b, 0]\n");   // another reader
  expectKept(kHeader + sum + "out y = acc[b, T-1]\nout acc\n");      // every prefix is an output
}

// A sum over a window of a recurrence's state is the inverse case (window-sums):
// it becomes a running sum beside it, and neither is lifted (the second one's
// addend is sequential), so the two rules never undo each other.
TEST(RecurrenceLift, AWindowSumOfARecurrenceBecomesARunningSumThatStays) {
  const std::string sum = "acc : f32[4] over (b, t)\nacc[b, 0] = x[b, 0]\nacc[b, t] = acc[b, t-1] + x[b, t]\n";
  for (const char* window : {"0:T", "0:min(5, T)"})
    expectAfterThePass(kHeader + sum + "out y = sum(acc[b, " + window + "], dim=0)\n", 2, 0, 1e-5);
}

TEST(RecurrenceLift, OtherRecurrencesStay) {
  const std::string tail = "out y = acc[b, T-1]\n";
  // Base case at the wrong element, a shifted addend, a different base tensor, another row's addend, a product.
  expectKept(kHeader + "acc : f32[4] over (b, t)\nacc[b, 0] = x[b, T-1]\nacc[b, t] = acc[b, t-1] + x[b, t]\n" + tail);
  expectKept(kHeader + "acc : f32[4] over (b, t)\nacc[b, 0] = x[b, 0]\nacc[b, t] = acc[b, t-1] + x[b, t-1]\n" + tail);
  expectKept(kHeader + "acc : f32[4] over (b, t)\nacc[b, 0] = x[0, 0]\nacc[b, t] = acc[b, t-1] + x[b, t]\n" + tail);
  expectKept(kHeader + "acc : f32[4] over (b, t)\nacc[b, 0] = x[b, 0]\nacc[b, t] = acc[b, t-1] + x[0, t]\n" + tail);
  expectKept(kHeader + "acc : f32[4] over (b, t)\nacc[b, 0] = x[b, 0]\nacc[b, t] = acc[b, t-1] * x[b, t]\n" + tail);
}

}  // namespace
}  // namespace tempo::testing
