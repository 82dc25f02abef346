// Random programs (tests/support/RandomProgram.h) through the front end and the reference
// interpreter. The generator writes programs that are correct by construction, so: every one
// must compile with no diagnostic at all (the checker is complete on them), and every checked
// one must evaluate at several bound values, T = 1 included, without an EvalError and with
// finite outputs of the reported shapes (the checker is sound: a checked program never reads
// outside a domain). Also: the text is a function of the seed, and across the seeds every
// feature of the generator shows up.
#include "frontend/Frontend.h"
#include "interp/ReferenceInterpreter.h"
#include "support/RandomProgram.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace tempo {
namespace {

using testing::GeneratedProgram;
using testing::RandomFeature;

constexpr uint64_t kDefaultSeeds = 300;

/// 300 seeds, or TEMPO_RANDOM_SEEDS=N for a longer fuzzing run.
uint64_t seedCount() {
  const char* n = std::getenv("TEMPO_RANDOM_SEEDS");
  return n ? std::strtoull(n, nullptr, 10) : kDefaultSeeds;
}
constexpr int kMaxReported = 5;  ///< programs printed in full per test; the rest are counted

FrontendResult compileProgram(const GeneratedProgram& p, uint64_t seed) {
  return compileSource(p.text, "random_" + std::to_string(seed) + ".tpo", ".");
}

struct CompiledProgram {
  uint64_t seed;
  GeneratedProgram program;
  FrontendResult result;
};

/// The seedCount() programs, generated and compiled once for the tests that need both.
const std::vector<CompiledProgram>& corpus() {
  static const std::vector<CompiledProgram> programs = [] {
    std::vector<CompiledProgram> out;
    for (uint64_t seed = 0; seed < seedCount(); ++seed) {
      GeneratedProgram p = testing::generateRandomProgramWithReport(seed);
      FrontendResult r = compileProgram(p, seed);
      out.push_back({seed, std::move(p), std::move(r)});
    }
    return out;
  }();
  return programs;
}

/// The bound assignments a program runs at: its defaults, every bound at 1, and a mix
/// drawn from the seed (1..7 for one or two dims, 1..4 with three).
std::vector<std::map<std::string, int64_t>> boundAssignments(const GeneratedProgram& p, uint64_t seed) {
  std::map<std::string, int64_t> ones, mixed;
  uint64_t x = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  int64_t top = p.boundDefaults.size() >= 3 ? 4 : 7;
  for (const auto& [name, value] : p.boundDefaults) {
    ones[name] = 1;
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    mixed[name] = 1 + static_cast<int64_t>((x >> 33) % static_cast<uint64_t>(top));
  }
  return {p.boundDefaults, ones, mixed};
}

std::string boundsText(const std::map<std::string, int64_t>& b) {
  std::string s;
  for (const auto& [k, v] : b) s += (s.empty() ? "" : ", ") + k + "=" + std::to_string(v);
  return s;
}

/// Empty when every output has the reported name, shape and finite values.
std::string checkOutputs(const GeneratedProgram& p, const std::vector<std::pair<std::string, Tensor>>& got,
                         const std::map<std::string, int64_t>& bounds) {
  std::ostringstream err;
  if (got.size() != p.outputs.size()) err << "expected " << p.outputs.size() << " outputs, got " << got.size() << "\n";
  for (size_t i = 0; i < got.size() && i < p.outputs.size(); ++i) {
    const auto& want = p.outputs[i];
    const auto& [name, value] = got[i];
    std::vector<int64_t> shape;
    for (const std::string& b : want.domainBounds) shape.push_back(bounds.at(b));
    shape.insert(shape.end(), want.spatial.begin(), want.spatial.end());
    if (name != want.name) err << "output " << i << " is '" << name << "', expected '" << want.name << "'\n";
    if (value.shape() != shape)
      err << "output '" << name << "' has shape " << shapeString(value.shape()) << ", expected " << shapeString(shape) << "\n";
    for (int64_t k = 0; k < value.numel(); ++k)
      if (!std::isfinite(value.at(k))) {
        err << "output '" << name << "' has a non-finite value at flat index " << k << ": " << value.summary() << "\n";
        break;
      }
  }
  return err.str();
}

TEST(RandomProgram, SameSeedSameText) {
  for (uint64_t seed = 0; seed < 40; ++seed) {
    EXPECT_EQ(testing::generateRandomProgram(seed), testing::generateRandomProgram(seed)) << "seed " << seed;
    EXPECT_NE(testing::generateRandomProgram(seed), testing::generateRandomProgram(seed + 1)) << "seed " << seed;
  }
}

TEST(RandomProgram, EveryProgramCompilesWithoutDiagnostics) {
  int failures = 0;
  for (const auto& [seed, p, r] : corpus()) {
    if (r.diags.empty()) continue;
    if (++failures <= kMaxReported)
      ADD_FAILURE() << "seed " << seed << ": diagnostics on a generated program:\n"
                    << r.renderedDiagnostics() << "--- program:\n"
                    << p.text;
  }
  EXPECT_EQ(failures, 0) << failures << " of " << seedCount() << " generated programs had diagnostics";
}

TEST(RandomProgram, CheckedProgramsEvaluateAtSeveralBounds) {
  int failures = 0, runs = 0;
  for (const auto& [seed, p, r] : corpus()) {
    if (!r.ok()) continue;  // reported by EveryProgramCompilesWithoutDiagnostics
    for (const auto& bounds : boundAssignments(p, seed)) {
      std::string problem;
      try {
        ReferenceInterpreter interp(r.graph, InterpreterOptions{bounds});
        auto outputs = interp.evaluateOutputs();
        std::map<std::string, int64_t> extents = bounds;  // an `until` dimension runs the steps it reached
        for (const ReachedExtent& e : interp.reachedExtents()) extents[e.bound] = e.reached;
        problem = checkOutputs(p, outputs, extents);
      } catch (const std::exception& e) {
        problem = std::string("evaluation failed: ") + e.what() + "\n";
      }
      ++runs;
      if (problem.empty()) continue;
      if (++failures <= kMaxReported)
        ADD_FAILURE() << "seed " << seed << " at " << boundsText(bounds) << ":\n" << problem << "--- program:\n" << p.text;
    }
  }
  EXPECT_EQ(failures, 0) << failures << " of " << runs << " evaluations failed";
}

TEST(RandomProgram, EveryFeatureAppearsAcrossTheSeeds) {
  std::vector<int> programsUsing(static_cast<size_t>(RandomFeature::Count), 0);
  for (const auto& c : corpus()) {
    const GeneratedProgram& p = c.program;
    for (size_t f = 0; f < programsUsing.size(); ++f)
      if (p.features[f] > 0) ++programsUsing[f];
  }
  std::ostringstream table;
  for (size_t f = 0; f < programsUsing.size(); ++f)
    table << testing::featureName(static_cast<RandomFeature>(f)) << "=" << programsUsing[f] << " ";
  std::cout << "programs using each feature: " << table.str() << "\n";
  for (size_t f = 0; f < programsUsing.size(); ++f)
    EXPECT_GE(programsUsing[f], 5) << "feature " << testing::featureName(static_cast<RandomFeature>(f)) << " appears in only "
                                   << programsUsing[f] << " of " << seedCount() << " programs";
}

TEST(RandomProgram, TextMatchesTheFeatureReport) {
  for (uint64_t seed = 0; seed < 60; ++seed) {
    GeneratedProgram p = testing::generateRandomProgramWithReport(seed);
    if (p.uses(RandomFeature::GrowingWindow) > 0) EXPECT_NE(p.text.find("0:"), std::string::npos) << p.text;
    if (p.uses(RandomFeature::Softmax) > 0) EXPECT_NE(p.text.find("softmax("), std::string::npos) << p.text;
    if (p.uses(RandomFeature::Matmul) > 0) EXPECT_NE(p.text.find(" @ "), std::string::npos) << p.text;
    if (p.uses(RandomFeature::FutureRecurrence) > 0) EXPECT_NE(p.text.find(" - 1"), std::string::npos) << p.text;
    if (p.uses(RandomFeature::Clamp) > 0) EXPECT_TRUE(p.text.find("max(0, ") != std::string::npos || p.text.find("min(") != std::string::npos) << p.text;
  }
}

/// TEMPO_RANDOM_SEED=N prints program N (to reproduce a failure or to read an example).
TEST(RandomProgram, PrintSeedFromEnvironment) {
  const char* seed = std::getenv("TEMPO_RANDOM_SEED");
  if (!seed) GTEST_SKIP() << "set TEMPO_RANDOM_SEED=N to print program N";
  std::cout << testing::generateRandomProgram(std::strtoull(seed, nullptr, 10));
}

TEST(RandomProgram, OptionsSwitchFamiliesOff) {
  testing::RandomProgramOptions plain;
  plain.recurrences = plain.windows = plain.matmul = plain.movement = plain.casts = false;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    GeneratedProgram p = testing::generateRandomProgramWithReport(seed, plain);
    for (RandomFeature f : {RandomFeature::PastRecurrence, RandomFeature::FutureRecurrence, RandomFeature::LetCycle,
                            RandomFeature::GrowingWindow, RandomFeature::SlidingWindow, RandomFeature::Matmul,
                            RandomFeature::Attention, RandomFeature::Reshape, RandomFeature::Cast})
      EXPECT_EQ(p.uses(f), 0) << testing::featureName(f) << " in seed " << seed << ":\n" << p.text;
    FrontendResult r = compileProgram(p, seed);
    EXPECT_TRUE(r.diags.empty()) << r.renderedDiagnostics() << p.text;
  }
}

}  // namespace
}  // namespace tempo
