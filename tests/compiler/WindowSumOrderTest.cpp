// The direction of the running sum that window-sums makes of a sum over a window
// along t (algebraic simplification, stepwiseOrder): it follows the order in which
// the summed values come to exist, so that the sum runs in the loop that makes them
// and no value is stored for every step. A policy gradient's per-step product needs
// the forward pass at t and the returns at t, a backward recurrence over the forward
// pass's rewards read as a whole window: its values come backwards.
#include "PassTestUtil.h"

namespace tempo::testing {
namespace {

/// +1 when the graph's running sum over t reads its previous step at t - 1, -1 at t + 1, 0 when none.
int runningSumDirection(const Graph& g) {
  for (const auto& [id, n] : g.nodes()) {
    if (n.op != OpKind::Add) continue;
    for (const Edge* e : g.inputs(id)) {
      if (g.node(e->producer).op != OpKind::Merge) continue;
      const std::string read = e->str();
      if (read.find("[t + 1]") != std::string::npos) return -1;
      if (read.find("[t - 1]") != std::string::npos) return 1;
    }
  }
  return 0;
}

int directionAfterThePass(const std::string& source) {
  Graph g = lowered(source);
  Outputs before = evaluate(g);
  runPass(g, "algebraic-simplification");
  expectSameOutputs(before, evaluate(g), 1e-5, source);
  return runningSumDirection(g);
}

// s runs forwards, g backwards over the rewards r that s makes; q at t reads s at t and
// the whole window of g (as autodiff's loss gradient does).
const std::string kProgram =
    "dim t < T\nset T = 20\ninput u : f32[4] over (t) = normal(seed=1)\nparam W : f32[4, 4] = normal(seed=2)\n"
    "s : f32[4] over (t)\ns[0] = u[0]\ns[t] = tanh(s[t-1] @ W) + u[t]\n";

TEST(WindowSumOrder, AProductFedByTheReturnsOfTheForwardPassSumsBackwards) {
  EXPECT_EQ(directionAfterThePass(kProgram +
                                  "r = sum(s * s)\ng : f32[] over (t)\ng[T-1] = r\ng[t] = r + 0.9 * g[t+1]\n"
                                  "w = g[0:T] * 2.0\n"
                                  "q = reshape(s, (4, 1)) @ reshape(u, (1, 4)) * w[; t]\n"
                                  "out y = sum(q[0:T], dim=0)\n"),
            -1);
}

TEST(WindowSumOrder, ABackwardRecurrenceTheForwardPassReadsLeavesTheSumForwards) {
  // g runs first (it reads only u), s reads it: the values come forwards with s.
  EXPECT_EQ(directionAfterThePass("dim t < T\nset T = 20\ninput u : f32[4] over (t) = normal(seed=1)\n"
                                  "g : f32[4] over (t)\ng[T-1] = u[T-1]\ng[t] = u[t] + 0.9 * g[t+1]\n"
                                  "s : f32[4] over (t)\ns[0] = g[0]\ns[t] = tanh(s[t-1]) + g[t]\n"
                                  "w = g[0:T] * 2.0\n"
                                  "q = reshape(s, (4, 1)) @ reshape(u, (1, 4)) * w[; t:t+1]\n"
                                  "out y = sum(q[0:T], dim=0)\n"),
            1);
}

TEST(WindowSumOrder, AForwardOnlyProductSumsForwards) {
  EXPECT_EQ(directionAfterThePass(kProgram + "q = tanh(s) * u\nout y = sum(q[0:T], dim=0)\n"),
            1);
}

}  // namespace
}  // namespace tempo::testing
