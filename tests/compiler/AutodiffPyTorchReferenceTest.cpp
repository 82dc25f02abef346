// The RNN example's gradients under BPTT against PyTorch autograd, and an LSTM's.
//
// scripts/rnn_grad_reference.py computed, in float64 with torch autograd, the
// loss sum(y * y) of resources/examples/rnn.tpo and its gradients with respect
// to W, U, bias and the input x, from the example's own arrays; the results
// are committed as tests/data/rnn_grad/grad_*.npy (torch is not needed here).
// Two programs are checked, each through both engines (the reference
// interpreter and the compiled engine with the default pipeline):
//  - tests/data/rnn_grad/rnn_bptt.tpo, the example in float64 (same sizes,
//    the arrays as exact f64 copies), with grad() calls in the program;
//  - resources/examples/rnn.tpo itself, in float32, with the same loss and
//    grad() lines appended.
// tests/data/lstm_grad/ holds the same for an LSTM in float64 (scripts/lstm_grad_reference.py).
// The error of a gradient a against the reference r is the normwise relative
// error max_i |a_i - r_i| / max_i |r_i| (one number per gradient tensor; an
// element-wise ratio would be dominated by the near-zero elements). In f64
// both sides agree to rounding (~1e-15; the bound is 1e-10). In f32 Tempo
// rounds every op to 24 bits (unit roundoff 6e-8) while the reference is f64:
// over 16 recurrent steps the gradients differ by ~1e-6 relative, so the bound
// is the 1e-4.
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "interp/ReferenceInterpreter.h"
#include "npy/Npy.h"
#include "pass/PassRegistry.h"
#include "support/GoldenFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace tempo::testing {
namespace {

const std::vector<std::string> kRnnTargets = {"W", "U", "bias", "x"};

/// The loss and gradient lines of tests/data/rnn_grad/rnn_bptt.tpo, appended to the example.
const std::string kGradientLines =
    "out loss = sum(y * y)\n"
    "out grad_W = grad(loss, W)\n"
    "out grad_U = grad(loss, U)\n"
    "out grad_bias = grad(loss, bias)\n"
    "out grad_x = grad(loss, x)\n";

std::filesystem::path referenceDir(const std::string& name = "rnn_grad") { return sourceDir() / "tests" / "data" / name; }

std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// max_i |a_i - r_i| / max_i |r_i|.
double normwiseRelativeError(const Tensor& a, const Tensor& r) {
  double diff = 0, scale = 0;
  for (int64_t i = 0; i < r.numel(); ++i) {
    diff = std::max(diff, std::fabs(a.at(i) - r.at(i)));
    scale = std::max(scale, std::fabs(r.at(i)));
  }
  return diff / scale;
}

std::map<std::string, Tensor> byName(const std::vector<std::pair<std::string, Tensor>>& outputs) {
  std::map<std::string, Tensor> m;
  for (const auto& [name, t] : outputs) m.emplace(name, t);
  return m;
}

/// Runs `source` through both engines and checks the loss and the gradient of every target
/// against PyTorch's in `reference` (loss.npy, grad_TARGET.npy).
void expectMatchesPyTorch(const std::string& source, const std::string& fileName, const std::string& baseDir,
                          double tolerance, const std::filesystem::path& reference = referenceDir(),
                          const std::vector<std::string>& targets = kRnnTargets) {
  FrontendResult r = compileSource(source, fileName, baseDir);
  ASSERT_TRUE(r.ok()) << r.renderedDiagnostics();
  const std::map<std::string, std::map<std::string, Tensor>> engines = {
      {"reference interpreter", byName(ReferenceInterpreter(r.graph, {}).evaluateOutputs())},
      {"compiled engine", byName(runCompiled(compileProgram(r.graph, defaultPipeline()), r.graph.boundDefaults).outputs)},
  };
  for (const auto& [engine, outputs] : engines) {
    Tensor wantLoss = readNpy((reference / "loss.npy").string());
    const Tensor& loss = outputs.at("loss");  // over a domain: the loss is the sum of its values
    double got = 0;
    for (int64_t i = 0; i < loss.numel(); ++i) got += loss.at(i);
    EXPECT_NEAR(got, wantLoss.at(0), tolerance * std::fabs(wantLoss.at(0))) << fileName << ", " << engine;
    for (const std::string& target : targets) {
      Tensor want = readNpy((reference / ("grad_" + target + ".npy")).string());
      const Tensor& grad = outputs.at("grad_" + target);
      ASSERT_EQ(grad.shape(), want.shape()) << fileName << ", " << engine << ": grad_" << target;
      double err = normwiseRelativeError(grad, want);
      EXPECT_LE(err, tolerance) << fileName << ", " << engine << ": grad_" << target;
      std::cout << fileName << ", " << engine << ": grad_" << target << " relative error " << err << "\n";
    }
  }
}

TEST(AutodiffPyTorchReference, RnnInFloat64MatchesPyTorchOnBothEngines) {
  std::filesystem::path program = referenceDir() / "rnn_bptt.tpo";
  expectMatchesPyTorch(readText(program), "rnn_bptt.tpo", referenceDir().string(), 1e-10);
}

TEST(AutodiffPyTorchReference, RnnExampleInFloat32MatchesPyTorchOnBothEngines) {
  std::filesystem::path examples = sourceDir() / "resources" / "examples";
  expectMatchesPyTorch(readText(examples / "rnn.tpo") + kGradientLines, "rnn.tpo", examples.string(), 1e-4);
}

// Coupled recurrences (issue 14): the cell and the hidden state read each other.
TEST(AutodiffPyTorchReference, LstmInFloat64MatchesPyTorchOnBothEngines) {
  std::filesystem::path dir = referenceDir("lstm_grad");
  expectMatchesPyTorch(readText(dir / "lstm_bptt.tpo"), "lstm_bptt.tpo", dir.string(), 1e-10, dir,
                       {"Wf", "Ui", "Uf", "Uo", "bf", "x"});
}

}  // namespace
}  // namespace tempo::testing
