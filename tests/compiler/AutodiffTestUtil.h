// AutodiffTestUtil: gradient checks of the SDG autodiff against finite differences.
//
// A check compiles a small f64 program, turns each target tensor into a load
// of a .npy file holding its current value (so it can be perturbed one element
// at a time), adds the backward graph with addGradients, and compares every
// element of each gradient (evaluated by the reference interpreter) with the
// central difference (L(w + h) - L(w - h)) / 2h of the loss L = the sum of the
// loss node over its domain. With h = 1e-5 in f64 the truncation error is
// about h^2 |L'''| ~ 1e-10 and the rounding error about 1e-16 / h ~ 1e-11, so
// the tolerance is |ad - fd| <= 1e-6 (1 + |fd|). Every check also runs the
// gradients through the compiled engine and compares it with the interpreter.
#pragma once

#include "autodiff/Autodiff.h"
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "graph/GraphValidator.h"
#include "interp/ReferenceInterpreter.h"
#include "npy/Npy.h"
#include "pass/PassRegistry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace tempo::testing {

constexpr double kFiniteDifferenceStep = 1e-5;
constexpr double kGradientTolerance = 1e-6;

inline NodeId nodeNamed(const Graph& g, const std::string& name) {
  for (const auto& [id, n] : g.nodes())
    if (n.name == name) return id;
  ADD_FAILURE() << "no node named " << name;
  return -1;
}

inline Graph compiledOrFail(const std::string& source) {
  FrontendResult r = compileSource(source, "autodiff_test.tpo", ".");
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  return r.graph;
}

inline Tensor wholeValue(const Graph& g, NodeId n) {
  ReferenceInterpreter interp(g, {});
  return interp.evaluateOutput(GraphOutput{"v", n, {}});
}

inline double lossValue(const Graph& g, NodeId loss) {
  Tensor v = wholeValue(g, loss);
  double s = 0;
  for (int64_t i = 0; i < v.numel(); ++i) s += v.at(i);
  return s;
}

/// A temporary directory for the perturbed arrays of one check.
inline std::string scratchDir(const std::string& tag) {
  auto dir = std::filesystem::temp_directory_path() /
             ("tempo_autodiff_" + tag + "_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

/// Makes node `n` a load of `path`, which is written with its current value.
inline Tensor turnIntoLoad(Graph& g, NodeId n, const std::string& path) {
  Tensor value = wholeValue(g, n);
  writeNpy(path, value);
  Node& node = g.node(n);
  node.op = OpKind::Load;
  node.attrs = OpAttrs{};
  node.attrs.path = path;
  node.attrs.displayPath = path;
  return value;
}

/// The compiled engine (default pipeline) gives the interpreter's values for
/// `nodes`, within `tol` * (1 + |value|).
inline void expectCompiledMatchesInterpreter(Graph g, const std::vector<NodeId>& nodes, const std::string& tag,
                                             double tol = 1e-9) {
  g.outputs.clear();
  for (size_t i = 0; i < nodes.size(); ++i) g.outputs.push_back({"v" + std::to_string(i), nodes[i], {}});
  ReferenceInterpreter interp(g, {});
  auto reference = interp.evaluateOutputs();
  CompiledRunResult run = runCompiled(compileProgram(g, defaultPipeline()), g.boundDefaults);
  ASSERT_EQ(run.outputs.size(), reference.size()) << tag;
  for (size_t i = 0; i < reference.size(); ++i) {
    const Tensor& want = reference[i].second;
    const Tensor& got = run.outputs[i].second;
    ASSERT_EQ(want.shape(), got.shape()) << tag << ": output " << i;
    for (int64_t k = 0; k < want.numel(); ++k)
      EXPECT_NEAR(got.at(k), want.at(k), tol * (1 + std::fabs(want.at(k)))) << tag << ": output " << i << " #" << k;
  }
}

/// Checks d(sum of `loss`)/d(target) for every named target of the program
/// `g` against central finite differences, element by element.
inline void expectGradientsMatchFiniteDifferences(Graph g, const std::string& lossName,
                                                  const std::vector<std::string>& targetNames,
                                                  const std::string& tag) {
  NodeId loss = nodeNamed(g, lossName);
  std::string dir = scratchDir(tag);
  std::vector<NodeId> targets;
  std::vector<Tensor> values;
  std::vector<std::string> paths;
  for (const std::string& name : targetNames) {
    targets.push_back(nodeNamed(g, name));
    paths.push_back(dir + "/" + name + ".npy");
    values.push_back(turnIntoLoad(g, targets.back(), paths.back()));
  }
  Graph withGrads = g;
  std::vector<NodeId> grads = addGradients(withGrads, loss, targets);
  std::vector<std::string> problems = validateGraph(withGrads);
  ASSERT_TRUE(problems.empty()) << problems.front();
  for (size_t k = 0; k < targets.size(); ++k) {
    Tensor ad = wholeValue(withGrads, grads[k]);
    ASSERT_EQ(ad.shape(), values[k].shape()) << targetNames[k];
    for (int64_t i = 0; i < values[k].numel(); ++i) {
      Tensor plus = values[k].clone(), minus = values[k].clone();
      plus.set(i, values[k].at(i) + kFiniteDifferenceStep);
      minus.set(i, values[k].at(i) - kFiniteDifferenceStep);
      writeNpy(paths[k], plus);
      double lp = lossValue(g, loss);
      writeNpy(paths[k], minus);
      double lm = lossValue(g, loss);
      double fd = (lp - lm) / (2 * kFiniteDifferenceStep);
      EXPECT_NEAR(ad.at(i), fd, kGradientTolerance * (1 + std::fabs(fd)))
          << tag << ": d " << lossName << " / d " << targetNames[k] << " at flat element " << i;
    }
    writeNpy(paths[k], values[k]);
  }
  expectCompiledMatchesInterpreter(withGrads, grads, tag + " (compiled engine)");
}

inline void expectGradientsMatchFiniteDifferences(const std::string& source, const std::string& lossName,
                                                  const std::vector<std::string>& targetNames,
                                                  const std::string& tag) {
  expectGradientsMatchFiniteDifferences(compiledOrFail(source), lossName, targetNames, tag);
}

}  // namespace tempo::testing
