// PassTestUtil: helpers shared by the compiler pass tests.
//
// Compiling a program (from text or a file) to its SDG, running one pass with
// validation, and evaluating every output with the reference interpreter so
// that tests can compare the outputs of a graph before and after a pass.
#pragma once

#include "frontend/Frontend.h"
#include "graph/GraphValidator.h"
#include "interp/ReferenceInterpreter.h"
#include "pass/PassRegistry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace tempo::testing {

inline Graph lowered(const std::string& source) {
  FrontendResult r = compileSource(source, "test.tpo", ".");
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  return r.graph;
}

inline std::string joinProblems(const std::vector<std::string>& problems) {
  std::string out;
  for (const std::string& p : problems) out += p + "\n";
  return out;
}

/// Runs the pass called `name` alone on `g` (validated); returns what it reported.
inline GraphChange runPass(Graph& g, const std::string& name) {
  Pipeline p;
  p.add(makePass(name));
  std::vector<PassSnapshot> snaps = p.run(g);
  EXPECT_TRUE(validateGraph(g).empty()) << joinProblems(validateGraph(g));
  return snaps.at(0).change;
}

/// `source` lowered and run through the default pipeline up to and including `lastPass`
/// (validated).
inline Graph throughPass(const std::string& source, const std::string& lastPass) {
  Graph g = lowered(source);
  Pipeline p = defaultPipeline();
  p.stopAfter(lastPass);
  p.run(g);
  EXPECT_TRUE(validateGraph(g).empty()) << joinProblems(validateGraph(g));
  return g;
}

using Outputs = std::vector<std::pair<std::string, Tensor>>;

/// Whether `snap` added up floats in another order than the program as
/// written: static tiling (block by block) and the algebraic rules that turn
/// sums into other sums (a running sum into a reduction, a sum over several
/// windows into nested sums, a sum of outer products into a matrix product).
/// Every other rewrite is exact, bit for bit.
inline bool reassociatesSums(const std::string& pass, const GraphChange& change) {
  if (pass == "static-tiling") return true;
  for (const std::string& note : change.notes)
    for (const char* rule : {"-> sum over the window", "-> one sum per window", "-> one matrix product", "-> a running sum"})
      if (note.find(rule) != std::string::npos) return true;
  return false;
}
inline bool reassociatesSums(const PassSnapshot& snap) { return reassociatesSums(snap.passName, snap.change); }

inline Outputs evaluate(const Graph& g) {
  ReferenceInterpreter interp(g, {});
  return interp.evaluateOutputs();
}

/// Every output equal in name, dtype, shape and value (within `relTol` relative; 0 = bit-equal values).
inline void expectSameOutputs(const Outputs& expected, const Outputs& actual, double relTol,
                              const std::string& what) {
  ASSERT_EQ(expected.size(), actual.size()) << what;
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& [name, want] = expected[i];
    const auto& [gotName, got] = actual[i];
    EXPECT_EQ(name, gotName) << what;
    ASSERT_EQ(want.dtype(), got.dtype()) << what << ": " << name;
    ASSERT_EQ(want.shape(), got.shape()) << what << ": " << name;
    for (int64_t k = 0; k < want.numel(); ++k) {
      double a = want.at(k), b = got.at(k);
      if (std::isnan(a) && std::isnan(b)) continue;
      if (relTol == 0) {
        ASSERT_EQ(a, b) << what << ": output " << name << " element " << k;
      } else {
        ASSERT_LE(std::fabs(a - b), relTol * std::max(1.0, std::fabs(a))) << what << ": output " << name
                                                                           << " element " << k;
      }
    }
  }
}

}  // namespace tempo::testing
