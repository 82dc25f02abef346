// Sampling in expressions: categorical(), normal(), uniform(), one_hot() and
// hash(key=EXPR). Draws are deterministic given their seed, identical in the
// reference interpreter and the compiled engine, distributed as they should be
// (frequencies within a stated tolerance), and misuse is a diagnostic with a
// source location.
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "init/Initializers.h"
#include "interp/ReferenceInterpreter.h"
#include "pass/PassRegistry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

namespace tempo {
namespace {

using Outputs = std::map<std::string, Tensor>;

Graph compiled(const std::string& source) {
  FrontendResult r = compileSource(source, "sampling.tpo", ".");
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  return r.graph;
}

Outputs byName(std::vector<std::pair<std::string, Tensor>> list) {
  Outputs out;
  for (auto& [name, t] : list) out.emplace(name, std::move(t));
  return out;
}

Outputs interpreted(const Graph& g) {
  ReferenceInterpreter interp(g, {});
  return byName(interp.evaluateOutputs());
}

Outputs compiledRun(const Graph& g) {
  return byName(runCompiled(compileProgram(g, defaultPipeline()), g.boundDefaults).outputs);
}

void expectSame(const Tensor& a, const Tensor& b, const std::string& what) {
  ASSERT_EQ(a.shape(), b.shape()) << what;
  ASSERT_EQ(a.dtype(), b.dtype()) << what;
  for (int64_t k = 0; k < a.numel(); ++k) ASSERT_EQ(a.at(k), b.at(k)) << what << " #" << k;
}

// M rows share the logits z; each of the N points draws one class per row.
std::string categoricalProgram(int seed) {
  return "dim n < N\nset N = 40\nconst M = 500\n"
         "param z : f32[4] = hash(key=3, scale=1.5)\n"
         "a : i64[M] over (n)\n"
         "a[n] = categorical(expand(z, (M, 4)), seed=" + std::to_string(seed) + ")\n"
         "out z\nout a\nout counts = sum(one_hot(a, 4), dim=0)\n";
}

TEST(Sampling, CategoricalIsDeterministicAndTheSameInBothEngines) {
  Graph g = compiled(categoricalProgram(9));
  Outputs ref = interpreted(g), again = interpreted(compiled(categoricalProgram(9)));
  Outputs fast = compiledRun(g);
  EXPECT_EQ(ref.at("a").dtype(), DType::I64);
  EXPECT_EQ(ref.at("a").shape(), (std::vector<int64_t>{40, 500}));
  expectSame(ref.at("a"), again.at("a"), "same seed, same program");
  expectSame(ref.at("a"), fast.at("a"), "compiled vs reference");
  expectSame(ref.at("counts"), fast.at("counts"), "compiled vs reference one_hot counts");
  Outputs other = interpreted(compiled(categoricalProgram(10)));
  int differ = 0;
  for (int64_t k = 0; k < ref.at("a").numel(); ++k) differ += ref.at("a").at(k) != other.at("a").at(k);
  EXPECT_GT(differ, 1000) << "another seed draws other samples";
}

TEST(Sampling, CategoricalFrequenciesMatchTheSoftmax) {
  Outputs out = interpreted(compiled(categoricalProgram(9)));
  const Tensor &z = out.at("z"), &counts = out.at("counts");
  double norm = 0;
  for (int k = 0; k < 4; ++k) norm += std::exp(z.at(k));
  const double draws = 40.0 * 500.0;
  for (int k = 0; k < 4; ++k) {
    double p = std::exp(z.at(k)) / norm, seen = 0;
    for (int n = 0; n < 40; ++n) seen += counts.at(n * 4 + k);
    // 5 standard deviations of a frequency over 20000 independent draws (at most 0.018).
    EXPECT_NEAR(seen / draws, p, 5 * std::sqrt(p * (1 - p) / draws)) << "class " << k;
  }
}

TEST(Sampling, OneHotMarksTheClass) {
  Outputs out = interpreted(compiled("dim n < N\nset N = 5\nout h = one_hot(n % 3, 3)\nout c = one_hot(2, 4)\n"));
  const Tensor& h = out.at("h");
  ASSERT_EQ(h.shape(), (std::vector<int64_t>{5, 3}));
  for (int n = 0; n < 5; ++n)
    for (int k = 0; k < 3; ++k) EXPECT_EQ(h.at(n * 3 + k), k == n % 3 ? 1.0 : 0.0) << n << ", " << k;
  const Tensor& c = out.at("c");
  EXPECT_EQ(c.dtype(), DType::F32);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(c.at(k), k == 2 ? 1.0 : 0.0);
}

TEST(Sampling, NormalOverADomainHasTheRequestedMeanAndSpread) {
  Graph g = compiled(
      "dim n < N\nset N = 20\nconst M = 1000\n"
      "param m : f32[M] = hash(key=4, scale=2.0)\n"
      "z = normal(mean=m, std=0.5, seed=11) + 0 * n\n"
      "out d = (z - m) / 0.5\n");
  Outputs ref = interpreted(g), fast = compiledRun(g);
  const Tensor& d = ref.at("d");
  ASSERT_EQ(d.shape(), (std::vector<int64_t>{20, 1000}));
  double sum = 0, sq = 0;
  for (int64_t k = 0; k < d.numel(); ++k) sum += d.at(k), sq += d.at(k) * d.at(k);
  double mean = sum / double(d.numel()), var = sq / double(d.numel()) - mean * mean;
  // 20000 standard normal draws: the mean's deviation is 0.007, the variance's 0.01.
  EXPECT_NEAR(mean, 0.0, 0.04);
  EXPECT_NEAR(var, 1.0, 0.06);
  for (int64_t k = 0; k < d.numel(); ++k) ASSERT_NEAR(fast.at("d").at(k), d.at(k), 1e-5 * (1 + std::fabs(d.at(k))));
}

TEST(Sampling, NormalOfNumbersIsTheInitialiserOverTheSameDomain) {
  Outputs out = interpreted(compiled(
      "dim n < N\nset N = 3\n"
      "param w : f32[4] over (n) = normal(seed=7, std=2.0, mean=1.0)\n"
      "v : f32[4] over (n)\nv[n] = normal(seed=7, std=2.0, mean=1.0, shape=(4,))\n"
      "u : f32[4] over (n)\nu[n] = uniform(seed=8, low=-1.0, high=3.0, shape=(4,))\n"
      "out w\nout v\nout u\n"));
  expectSame(out.at("w"), out.at("v"), "expression vs initialiser");
  Tensor want = uniformInit(DType::F32, {3, 4}, 8, -1.0, 3.0);
  expectSame(out.at("u"), want, "uniform over (n)");
}

TEST(Sampling, AHashKeyMayFollowADimension) {
  Graph g = compiled(
      "dim i < I\ndim b < B\nset I = 3, B = 5\n"
      "input u : f32[2] over (i, b) = hash(key=2000 + i, scale=0.5)\nout u\n");
  Tensor u = interpreted(g).at("u");
  for (int i = 0; i < 3; ++i)
    for (int64_t n = 0; n < 10; ++n)  // at iteration i, the (B, 2) array of det_tensor with key 2000 + i
      EXPECT_EQ(u.at(i * 10 + n), hashInitValue(uint64_t(n), 2000 + i, 0.5)) << i << ", " << n;
  expectSame(compiledRun(g).at("u"), u, "compiled vs reference");
}

std::string diagnostics(const std::string& source) {
  FrontendResult r = compileSource(source, "sampling.tpo", ".");
  EXPECT_FALSE(r.ok()) << source;
  return r.renderedDiagnostics();
}

TEST(Sampling, MisuseIsReportedAtTheCall) {
  const std::string head = "dim t < T\nset T = 4\nparam z : f32[3] over (t) = zeros()\nparam k : i64[3] = zeros()\n";
  struct Case {
    std::string line, message;
  };
  for (const Case& c : std::vector<Case>{
           {"a = categorical(z)", "categorical() needs the argument seed="},
           {"a = categorical(z, seed=-1)", "seed= must be a non-negative integer"},
           {"a = categorical(z, seed=1.5)", "seed= must be a non-negative integer"},
           {"a = categorical(k, seed=1)", "categorical() needs float logits"},
           {"a = categorical(2.0, seed=1)", "categorical() needs float logits"},
           {"a = categorical(z, seed=1, temperature=2)", "categorical() has no argument 'temperature'"},
           {"a = one_hot(z > 0.0, 3)", "one_hot() needs class indices"},
           {"a = one_hot(k, 0)", "one_hot() needs a positive integer number of classes"},
           {"a = normal(mean=z, seed=1, shape=(2,))", "does not broadcast"},
           {"a = normal(mean=k, seed=1)", "normal() needs float mean= and std="},
           {"a = uniform(low=0.0)", "uniform() needs the argument seed="},
       }) {
    std::string d = diagnostics(head + c.line + "\nout a\n");
    EXPECT_NE(d.find(c.message), std::string::npos) << c.line << "\n" << d;
    EXPECT_NE(d.find("sampling.tpo:5:"), std::string::npos) << c.line << "\n" << d;
  }
  std::string d = diagnostics("dim i < I\nset I = 2\ninput u : f32[2] over (i) = hash(key=I + i)\n");
  EXPECT_NE(d.find("sampling.tpo:3:"), std::string::npos) << d;
  EXPECT_NE(d.find("not bounds"), std::string::npos) << d;
}

}  // namespace
}  // namespace tempo
