// `optimize`: the trajectories of the params under sgd (with momentum), adam,
// adamw and clip_norm equal a plain C++ loop over PyTorch's documented update
// formulas (torch.optim.SGD / Adam / AdamW, clip_grad_norm_) in f64, on a
// quadratic loss whose gradient is known in closed form; a least-squares fit
// learns (its loss falls 10x); the final params (`addFinalParamOutputs`) are
// the update at the last iteration; and the compiled engine gives the
// interpreter's values on every one of these programs.
#include "autodiff/Optimize.h"
#include "AutodiffTestUtil.h"
#include "support/GoldenFiles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace tempo {
namespace {

using testing::compiledOrFail;
using testing::nodeNamed;
using testing::wholeValue;

using Vec = std::vector<double>;

Vec values(const Tensor& t) {
  Vec v;
  for (int64_t k = 0; k < t.numel(); ++k) v.push_back(t.at(k));
  return v;
}

Vec outputValues(const Graph& g, const std::string& name) {
  for (const GraphOutput& o : g.outputs)
    if (o.name == name) return values(wholeValue(g, o.node));
  ADD_FAILURE() << "no output " << name;
  return {};
}

// The quadratic sum((W - c)^2) of a f64[3] param: gradient 2 (W - c).
const std::string kQuadratic =
    "dim i < I\nset I = 6\n"
    "param W : f64[3] = hash(key=3, scale=2.0)\n"
    "input c : f64[3] = hash(key=4)\n"
    "loss = sum((W - c) * (W - c))\n"
    "out loss\nout W\n";

struct Trajectory {
  std::vector<Vec> params;  ///< the param at i = 0 .. I (I + 1 values: the last is the final update)
  Vec losses;
};

/// Runs `step(p, g, t)` (t = 1, 2, ...) on the quadratic from p0 towards c for `iterations` steps.
Trajectory quadraticTrajectory(Vec p, const Vec& c, int iterations,
                               const std::function<void(Vec& p, const Vec& g, int t)>& step) {
  Trajectory tr;
  tr.params.push_back(p);
  for (int t = 1; t <= iterations; ++t) {
    Vec g(p.size());
    double loss = 0;
    for (size_t k = 0; k < p.size(); ++k) {
      g[k] = 2 * (p[k] - c[k]);
      loss += (p[k] - c[k]) * (p[k] - c[k]);
    }
    tr.losses.push_back(loss);
    step(p, g, t);
    tr.params.push_back(p);
  }
  return tr;
}

/// Compares the program's W over i, its loss over i and its final W with the trajectory.
void expectTrajectory(const Graph& source, const Trajectory& want, const std::string& tag) {
  Graph g = source;
  addFinalParamOutputs(g);
  Vec W = outputValues(g, "W"), loss = outputValues(g, "loss"), final = outputValues(g, finalParamOutputName("W"));
  size_t n = want.params[0].size(), iterations = want.losses.size();
  ASSERT_EQ(W.size(), n * iterations) << tag;
  ASSERT_EQ(loss.size(), iterations) << tag;
  for (size_t i = 0; i < iterations; ++i) {
    EXPECT_NEAR(loss[i], want.losses[i], 1e-12 * (1 + std::fabs(want.losses[i]))) << tag << ": loss at i = " << i;
    for (size_t k = 0; k < n; ++k)
      EXPECT_NEAR(W[i * n + k], want.params[i][k], 1e-12) << tag << ": W[" << i << "][" << k << "]";
  }
  ASSERT_EQ(final.size(), n);
  for (size_t k = 0; k < n; ++k) EXPECT_NEAR(final[k], want.params[iterations][k], 1e-12) << tag << ": final W[" << k << "]";
  std::vector<NodeId> nodes;
  for (const GraphOutput& o : g.outputs) nodes.push_back(o.node);
  testing::expectCompiledMatchesInterpreter(g, nodes, tag + " (compiled engine)");
}

Graph quadratic(const std::string& optimiser) { return compiledOrFail(kQuadratic + "optimize loss over i with " + optimiser + "\n"); }

Vec initial(const Graph& g) { return values(wholeValue(g, nodeNamed(g, "W.init"))); }
Vec target(const Graph& g) { return values(wholeValue(g, nodeNamed(g, "c"))); }

TEST(Optimize, SgdWithMomentumFollowsTorchOptimSgd) {
  Graph g = quadratic("sgd(lr=0.1, momentum=0.9, weight_decay=0.05)");
  Vec buf;
  Trajectory want = quadraticTrajectory(initial(g), target(g), 6, [&](Vec& p, const Vec& grad, int t) {
    Vec d = grad;
    for (size_t k = 0; k < p.size(); ++k) d[k] += 0.05 * p[k];
    if (t == 1) buf = d;
    else for (size_t k = 0; k < p.size(); ++k) buf[k] = 0.9 * buf[k] + d[k];
    for (size_t k = 0; k < p.size(); ++k) p[k] -= 0.1 * buf[k];
  });
  expectTrajectory(g, want, "sgd");
}

TEST(Optimize, PlainSgdHasNoMomentumState) {
  Graph g = quadratic("sgd(lr=0.25)");
  Trajectory want = quadraticTrajectory(initial(g), target(g), 6, [&](Vec& p, const Vec& grad, int) {
    for (size_t k = 0; k < p.size(); ++k) p[k] -= 0.25 * grad[k];
  });
  expectTrajectory(g, want, "plain sgd");
}

/// torch.optim.Adam / AdamW (amsgrad off), as in their single-tensor implementation.
void adamStep(Vec& p, const Vec& grad, int t, Vec& m, Vec& v, double lr, double b1, double b2, double eps, double wd,
              bool decoupled) {
  if (m.empty()) m = v = Vec(p.size(), 0.0);
  Vec g = grad;
  if (decoupled) for (double& x : p) x *= 1 - lr * wd;
  else for (size_t k = 0; k < p.size(); ++k) g[k] += wd * p[k];
  double bc1 = 1 - std::pow(b1, t), bc2 = 1 - std::pow(b2, t);
  for (size_t k = 0; k < p.size(); ++k) {
    m[k] = b1 * m[k] + (1 - b1) * g[k];
    v[k] = b2 * v[k] + (1 - b2) * g[k] * g[k];
    double denom = std::sqrt(v[k]) / std::sqrt(bc2) + eps;
    p[k] -= (lr / bc1) * (m[k] / denom);
  }
}

/// torch.optim.Adam's (or AdamW's, `decoupled`) hyper-parameters.
struct AdamSettings {
  double lr, beta1, beta2, eps, weightDecay;
  bool decoupled;
};

/// The program `optimizer` trains the quadratic along the trajectory of adamStep with `s`.
void expectAdamTrajectory(const std::string& optimizer, const AdamSettings& s, const std::string& label) {
  Graph g = quadratic(optimizer);
  Vec m, v;
  Trajectory want = quadraticTrajectory(initial(g), target(g), 6, [&](Vec& p, const Vec& grad, int t) {
    adamStep(p, grad, t, m, v, s.lr, s.beta1, s.beta2, s.eps, s.weightDecay, s.decoupled);
  });
  expectTrajectory(g, want, label);
}

TEST(Optimize, AdamFollowsTorchOptimAdam) {
  expectAdamTrajectory("adam(lr=0.1, betas=(0.8, 0.99), eps=1e-3, weight_decay=0.01)", {0.1, 0.8, 0.99, 1e-3, 0.01, false},
                       "adam");
}

TEST(Optimize, AdamDefaults) { expectAdamTrajectory("adam()", {1e-3, 0.9, 0.999, 1e-8, 0, false}, "adam defaults"); }

TEST(Optimize, AdamWDecaysTheWeightsApart) {
  expectAdamTrajectory("adamw(lr=0.05, betas=(0.9, 0.95), eps=1e-6, weight_decay=0.5)", {0.05, 0.9, 0.95, 1e-6, 0.5, true},
                       "adamw");
}

TEST(Optimize, ClipNormScalesTheGlobalGradientNorm) {
  // Two params, one over its own dimension l: the norm runs over all of their elements.
  Graph g = compiledOrFail(
      "dim i < I\ndim l < L\nset I = 5, L = 2\n"
      "param W : f64[3] = hash(key=3, scale=2.0)\n"
      "param V : f64[2] over (l) = hash(key=5, scale=3.0)\n"
      "input c : f64[3] = hash(key=4)\n"
      "input d : f64[2] = hash(key=6)\n"
      "lv = sum((V - d) * (V - d))\n"
      "loss = sum((W - c) * (W - c)) + sum(lv[0:L])\n"
      "out loss\nout W\nout V\n"
      "optimize loss over i with sgd(lr=0.1, clip_norm=0.5)\n");
  Vec W = initial(g), c = target(g);
  Vec V = values(wholeValue(g, nodeNamed(g, "V.init"))), d = values(wholeValue(g, nodeNamed(g, "d")));
  std::vector<Vec> wantW{W}, wantV{V};
  bool clipped = false;
  for (int t = 1; t <= 5; ++t) {
    Vec gw(3), gv(4);
    double sq = 0;
    for (size_t k = 0; k < 3; ++k) sq += (gw[k] = 2 * (W[k] - c[k])) * gw[k];
    for (size_t k = 0; k < 4; ++k) sq += (gv[k] = 2 * (V[k] - d[k % 2])) * gv[k];
    double coef = std::min(0.5 / (std::sqrt(sq) + 1e-6), 1.0);
    clipped = clipped || coef < 1;
    for (size_t k = 0; k < 3; ++k) W[k] -= 0.1 * coef * gw[k];
    for (size_t k = 0; k < 4; ++k) V[k] -= 0.1 * coef * gv[k];
    wantW.push_back(W);
    wantV.push_back(V);
  }
  ASSERT_TRUE(clipped) << "the test should exercise the clip";
  Vec gotW = outputValues(g, "W"), gotV = outputValues(g, "V");
  ASSERT_EQ(gotW.size(), 15u);
  ASSERT_EQ(gotV.size(), 20u);
  for (size_t i = 0; i < 5; ++i) {
    for (size_t k = 0; k < 3; ++k) EXPECT_NEAR(gotW[i * 3 + k], wantW[i][k], 1e-12) << "W at i = " << i;
    for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(gotV[i * 4 + k], wantV[i][k], 1e-12) << "V at i = " << i;
  }
  Graph withFinal = g;
  addFinalParamOutputs(withFinal);
  Vec finalV = outputValues(withFinal, finalParamOutputName("V"));
  for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(finalV[k], wantV[5][k], 1e-12);
  std::vector<NodeId> nodes;
  for (const GraphOutput& o : withFinal.outputs) nodes.push_back(o.node);
  testing::expectCompiledMatchesInterpreter(withFinal, nodes, "clip_norm (compiled engine)");
}

TEST(Optimize, LeastSquaresLearns) {
  Graph g = compiledOrFail(
      "dim i < I\ndim b < B\nset I = 40, B = 16\nconst IN = 4\n"
      "input x : f32[IN] over (b) = normal(seed=1)\n"
      "input Wtrue : f32[IN] = hash(key=5)\n"
      "param W : f32[IN] = zeros()\n"
      "param bias : f32[] = ones()\n"
      "err = sum(x * W) + bias - sum(x * Wtrue)\n"
      "loss = mean(err[0:B] * err[0:B])\n"
      "out loss\n"
      "optimize loss over i with adam(lr=0.1)\n");
  Vec loss = outputValues(g, "loss");
  ASSERT_EQ(loss.size(), 40u);
  EXPECT_LT(loss.back(), loss.front() / 10) << "first " << loss.front() << ", last " << loss.back();
  std::vector<NodeId> nodes;
  for (const GraphOutput& o : g.outputs) nodes.push_back(o.node);
  testing::expectCompiledMatchesInterpreter(g, nodes, "least squares (compiled engine)", 1e-4);
}

/// The example trains `params` params and its loss falls at least 10x over its iterations.
void expectExampleLearns(const std::string& file, size_t params) {
  FrontendResult r = compileFile((testing::sourceDir() / "resources" / "examples" / file).string());
  ASSERT_TRUE(r.ok()) << r.renderedDiagnostics();
  EXPECT_EQ(r.graph.trainedParams.size(), params);
  Vec loss = outputValues(r.graph, "loss");
  ASSERT_EQ(loss.size(), static_cast<size_t>(r.graph.boundDefaults.at("I")));
  EXPECT_LT(loss.back(), loss.front() / 10) << file << ": first " << loss.front() << ", last " << loss.back();
}

TEST(Optimize, RnnTrainExampleLearnsByBackpropagationThroughTime) { expectExampleLearns("rnn_train.tpo", 5); }

// The cell and the state read each other (issue 14): the gradient flows through both.
TEST(Optimize, LstmTrainExampleLearnsThroughCoupledRecurrences) { expectExampleLearns("lstm_train.tpo", 14); }

TEST(Optimize, GruTrainExampleLearnsByBackpropagationThroughTime) { expectExampleLearns("gru_train.tpo", 11); }

TEST(Optimize, ParamsBecomeRecurrentOverTheIterationDimension) {
  Graph g = quadratic("sgd(lr=0.1)");
  ASSERT_EQ(g.trainedParams.size(), 1u);
  const TrainedParam& t = g.trainedParams[0];
  EXPECT_EQ(t.name, "W");
  EXPECT_EQ(t.dim, "i");
  EXPECT_EQ(g.node(t.node).op, OpKind::Merge);
  EXPECT_EQ(g.node(t.node).domain, std::vector<std::string>{"i"});
  EXPECT_EQ(g.node(nodeNamed(g, "loss")).domain, std::vector<std::string>{"i"});
  EXPECT_TRUE(g.node(nodeNamed(g, "c")).domain.empty()) << "inputs do not depend on the params";
}

}  // namespace
}  // namespace tempo
