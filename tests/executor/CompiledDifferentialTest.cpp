// The compiler's differential harness: every example and 300 generated
// programs are compiled ONCE (pass pipeline + parametric isl schedule) and run
// by the executor at several bound values; every output must equal the
// reference interpreter's on the unoptimised graph within the compiled
// engine's stated tolerance (relative 1e-5, absolute 1e-6, support/
// OutputCompare.h: static tiling reassociates sums and f32 matmuls accumulate
// in float). The examples also run with f64 matmul accumulation
// (CompiledRunOptions::matmul), the slower path with the reference's numerics.
// Wherever generated kernels ran (compiler/codegen), the same run with the
// library kernels only must give the same outputs bit for bit.
// TEMPO_DIFF_FIRST_SEED=N starts the generated programs at seed N (to iterate
// on one failure) and TEMPO_DIFF_LAST_SEED=M ends them at M (to search further
// seeds); by default they cover seeds 1..300. With
// TEMPO_DIFF_VERBOSE set, a failure also prints the optimised graph, its loops
// and the storage plan.
#include "executor/CompiledEngine.h"
#include "memory/StoragePlanner.h"
#include "graph/GraphPrinter.h"
#include "frontend/Frontend.h"
#include "interp/ReferenceInterpreter.h"
#include "pass/PassRegistry.h"
#include "support/GoldenFiles.h"
#include "support/OutputCompare.h"
#include "support/RandomProgram.h"
#include "support/RandomTrainingProgram.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

namespace tempo {
namespace {

using testing::compareOutputs;

/// The optimised graph, loops and storage plan, when TEMPO_DIFF_VERBOSE is set.
std::string compiledDetails(const CompiledProgram& p, const SymbolEnv& bounds) {
  if (!std::getenv("TEMPO_DIFF_VERBOSE")) return "";
  return "\n--- optimised graph\n" + printGraph(p.graph) + "--- loops\n" + printLoopProgram(p.graph, p.loops) +
         "--- storage plan\n" + printStoragePlan(p.graph, planStorage(p.graph, p.loops, bounds));
}

/// Bound assignments to try: the defaults and, where `free` says a bound may
/// change, 1 and a larger value.
std::vector<SymbolEnv> boundSets(const Graph& g, bool allFree, uint64_t seed) {
  std::string err;
  SymbolEnv defaults = *resolveBounds(g, {}, err);
  std::vector<SymbolEnv> out{defaults};
  if (!allFree || defaults.empty()) return out;
  std::mt19937 rng(static_cast<unsigned>(seed));
  SymbolEnv ones = defaults, mixed = defaults;
  for (auto& [name, v] : ones) v = 1;
  for (auto& [name, v] : mixed) v = 1 + static_cast<int64_t>(rng() % 7);
  out.push_back(ones);
  out.push_back(mixed);
  return out;
}

void checkProgram(const std::string& text, const std::string& label, const std::string& baseDir, bool allBoundsFree,
                  uint64_t seed, bool alsoF64Matmul = false) {
  FrontendResult r = compileSource(text, label, baseDir);
  ASSERT_TRUE(r.ok()) << label << "\n" << r.renderedDiagnostics() << text;
  CompiledProgram compiled;
  try {
    compiled = compileProgram(r.graph, defaultPipeline());
  } catch (const std::exception& ex) {
    FAIL() << label << ": compiling: " << ex.what() << "\n" << text;
  }
  for (const SymbolEnv& bounds : boundSets(r.graph, allBoundsFree, seed)) {
    std::string where;
    for (const auto& [n, v] : bounds) where += n + "=" + std::to_string(v) + " ";
    ReferenceInterpreter reference(r.graph, InterpreterOptions{bounds});
    auto want = reference.evaluateOutputs();
    std::vector<cpu::MatmulAccumulation> accumulations{cpu::MatmulAccumulation::F32};
    if (alsoF64Matmul) accumulations.push_back(cpu::MatmulAccumulation::F64);
    for (cpu::MatmulAccumulation matmul : accumulations) {
      CompiledRunOptions options;
      options.matmul = matmul;
      std::string how = where + (matmul == cpu::MatmulAccumulation::F64 ? "(f64 matmul) " : "");
      CompiledRunResult got;
      try {
        got = runCompiled(compiled, bounds, options);
      } catch (const std::exception& ex) {
        FAIL() << label << " at " << how << ": " << ex.what() << "\n" << text << compiledDetails(compiled, bounds);
      }
      EXPECT_EQ(compareOutputs(got.outputs, want), "") << label << " at " << how << "\n"
                                                       << text << compiledDetails(compiled, bounds);
      if (got.stats.nativeCalls > 0 && matmul == cpu::MatmulAccumulation::F32) {
        // The generated kernels equal the library kernels they replace, bit for bit.
        CompiledRunOptions library = options;
        library.generatedKernels = false;
        EXPECT_EQ(compareOutputs(runCompiled(compiled, bounds, library).outputs, got.outputs, 0.0, 0.0), "")
            << label << " at " << how << ": generated vs library kernels\n" << text;
      }
      // The prediction stays an upper bound within 10% (it can count a shared buffer
      // or an undefined branch point the stores do not hold; see PeakAgreement.h).
      EXPECT_LE(static_cast<double>(got.stats.peakBytes), 1.1 * static_cast<double>(got.predictedBytes) + 64)
          << label << " at " << how;
    }
  }
}

TEST(CompiledDifferential, ExamplesMatchTheReferenceInterpreter) {
  for (const auto& path : testing::examplePrograms()) {
    std::string text = testing::readFile(path);
    // Programs that load .npy files only run at the bounds their files were made for.
    bool loads = text.find("load(") != std::string::npos;
    checkProgram(text, path.filename().string(), path.parent_path().string(), !loads, 7, true);
  }
}

/// A seed range bound from the environment variable `name`, or `fallback`.
uint64_t seedFromEnv(const char* name, uint64_t fallback) {
  const char* env = std::getenv(name);
  return env ? std::max<uint64_t>(1, std::strtoull(env, nullptr, 10)) : fallback;
}

/// The 300 generated programs in shards of 50 seeds, one CTest test each, so
/// `ctest -j` runs them side by side and none nears the per-test time limit.
constexpr uint64_t kSeedsPerShard = 50;
constexpr uint64_t kShards = 6;

class CompiledDifferentialShard : public ::testing::TestWithParam<uint64_t> {};

TEST_P(CompiledDifferentialShard, GeneratedProgramsMatchAtSeveralBounds) {
  const uint64_t first = std::max(seedFromEnv("TEMPO_DIFF_FIRST_SEED", 1), 1 + GetParam() * kSeedsPerShard);
  const uint64_t last =
      std::min(seedFromEnv("TEMPO_DIFF_LAST_SEED", kShards * kSeedsPerShard), (GetParam() + 1) * kSeedsPerShard);
  for (uint64_t seed = first; seed <= last; ++seed) {
    std::string text = testing::generateRandomProgram(seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    checkProgram(text, "random" + std::to_string(seed) + ".tpo", ".", true, seed);
    if (HasFatalFailure()) return;
  }
}

// Generated training loops (`optimize` over i with windows of t and b in the
// loss, recurrences forwards and backwards in t): the backward pass, the
// update and the batching of b inside the training cycle must give the
// reference interpreter's params and losses.
class CompiledTrainingShard : public ::testing::TestWithParam<uint64_t> {};

TEST_P(CompiledTrainingShard, GeneratedTrainingProgramsMatchAtSeveralBounds) {
  for (uint64_t seed = 1 + GetParam() * 20; seed <= (GetParam() + 1) * 20; ++seed) {
    std::string text = testing::generateRandomTrainingProgram(seed);
    SCOPED_TRACE("training seed " + std::to_string(seed));
    checkProgram(text, "training" + std::to_string(seed) + ".tpo", ".", true, seed);
    if (HasFatalFailure()) return;
  }
}

// Under a memory budget (half the plain run's measured peak) a generated
// program computes exactly the outputs of its unbudgeted run, and its measured
// peak stays within 5% of the budget (the plan, then the run-time pager), or
// the budget is below what any schedule needs and the run is refused.
void checkUnderABudget(const std::string& text, const std::string& label) {
  FrontendResult r = compileSource(text, label, ".");
  ASSERT_TRUE(r.ok()) << label << "\n" << r.renderedDiagnostics() << text;
  CompiledProgram compiled = compileProgram(r.graph, defaultPipeline());
  std::string err;
  const SymbolEnv bounds = *resolveBounds(r.graph, {}, err);
  CompiledRunResult plain = runCompiled(compiled, bounds);
  const int64_t budget = plain.stats.peakBytes / 2;
  CompiledRunResult tight;
  try {
    tight = runCompiled(compiled, bounds, CompiledRunOptions{true, budget});
  } catch (const MemoryBudgetError&) {
    return;  // below the floor: refused before the run
  }
  ASSERT_TRUE(tight.paging) << label;
  EXPECT_EQ(compareOutputs(tight.outputs, plain.outputs, 0.0, 0.0), "") << label << "\n" << text;
  EXPECT_LE(static_cast<double>(tight.stats.peakBytes), 1.05 * static_cast<double>(budget))
      << label << " (plain peak " << plain.stats.peakBytes << ")\n"
      << tight.swapPlan->report() << tight.paging->report(compiled.graph) << text;
}

// Backward recurrences (a suffix recurrence written out, and the backward pass
// of a trained one) and the sums they feed, now running sums from the end with
// circular stores in the downward loop, against the reference interpreter.
TEST(CompiledDifferential, BackwardRecurrencesAndTheSumsTheyFeedMatchTheReference) {
  checkProgram(R"(
dim b < B
dim t < T
set B = 2, T = 6
param a : f32[8] over (b) = normal(seed=1)
g : f32[8] over (b, t)
g[b, T-1] = a
g[b, t] = 0.5 * g[b, t+1] + a
p = exp(g) * g
out y = sum(p[b, 0:T], dim=0)
out first = sum(g[b, 0:min(3, T)], dim=0)
)", "back.tpo", ".", true, 3);
  checkProgram(testing::readFile(testing::sourceDir() / "tests" / "executor" / "programs" / "bptt.tpo"), "bptt.tpo",
               ".", true, 4);
}

// The logical operators (and, or, not) on value and index-value comparisons, elementwise
// and in a recurrence's condition.
TEST(CompiledDifferential, LogicalOperatorsMatchTheReference) {
  checkProgram(R"(
dim t < T
set T = 6
input x : f32[4] over (t) = normal(seed=1)
inside = x > -0.5 and x < 0.5
out y = where(inside or not (x > 0.0), x, 0.0 - x)
out middle = where(t >= 1 and t < T - 1 and not (t == 3), 1.0, 0.0)
c : f32[4] over (t)
c[0] = x[0]
c[t] = where(c[t-1] > 0.0 or x[t] > 1.0, c[t-1] * 0.5, c[t-1] + x[t])
out c
)", "logic.tpo", ".", true, 3);
}

// argmax over a spatial axis, a whole window, a growing window (a running argmax), with
// keepdim and ties (the first index), and fed back into a recurrence as a number.
TEST(CompiledDifferential, ArgMaxMatchesTheReference) {
  checkProgram(R"(
dim t < T
set T = 6
input x : f32[5] over (t) = normal(seed=1)
param W : f32[5, 4] = normal(seed=2)
h : f32[4] over (t)
h[0] = tanh(x[0] @ W)
h[t] = tanh(x[t] @ W + h[t-1] * 0.5) + cast(argmax(h[t-1], dim=0), f32) * 0.1
out best = argmax(h, dim=0)
out first = argmax(h[0:T], dim=0)
out running = argmax(h[0:t+1], dim=0)
out ties = argmax(W * 0.0, dim=-1, keepdim=true)
)", "argmax.tpo", ".", true, 3);
}

// gather: embedding rows by ids over t (a repeated id included), a gather of ids of rank
// 1, columns along dim 1, an index value as the id, and the gradient (a scatter-add).
TEST(CompiledDifferential, GatherMatchesTheReference) {
  checkProgram(R"(
dim t < T
set T = 5
const V = 6, D = 3
param E : f32[V, D] = normal(seed=1)
input tok : i64[] over (t) = hash(key=3, scale=2.0)
ids = cast(abs(tok), i64)
emb = gather(E, ids)
both = gather(E, cat(reshape(ids, (1,)), reshape(ids, (1,)), dim=0))
cols = gather(E, cast(minimum(ids, 2), i32), dim=1)
h : f32[D] over (t)
h[0] = tanh(emb[0])
h[t] = tanh(h[t-1] * 0.5 + emb[t] + gather(E, t))
loss = sum(h[0:T]) + sum(both[0:T] * both[0:T]) * 0.5 + sum(cols[0:T]) * 0.25
out emb
out cols
out g = grad(loss, E)
)", "gather.tpo", ".", true, 3);
}

// take_along: topk of a matrix's rows over (b, t) (vectorisation batches b behind a leading
// axis), ids of the rows' own argtopk fed back into a recurrence, and the gradient (a
// scatter_along_add).
TEST(CompiledDifferential, TakeAlongMatchesTheReference) {
  checkProgram(R"(
dim b < B
dim t < T
set B = 3, T = 5
const V = 6
input x : f32[2, V] over (b, t) = normal(seed=1)
param W : f32[V, V] = normal(seed=2, std=0.5)
logits = x @ W
best = argtopk(logits, 3)
top = topk(logits, 3)
h : f32[2, 3] over (b, t)
h[b, 0] = tanh(top[b, 0])
h[b, t] = tanh(h[b, t-1] * 0.5 + take_along(logits, best, dim=1))
loss = sum(sum(h[b, 0:T], dim=0))
out top
out h
out g = grad(loss, W)
)", "take_along.tpo", ".", true, 4);
}

// Spatial indices after ';': slices (constant, from the end, moving with t) and points.
TEST(CompiledDifferential, SpatialIndicesMatchTheReference) {
  checkProgram(R"(
dim b < B
dim t < T
set B = 2, T = 5
const E = 4
input x : f32[3 * E] over (b, t) = normal(seed=1)
param W : f32[3, E] = normal(seed=2)
q = x[b, t; 0:E]
k = x[; E:2*E]
v = x[b, max(t-1, 0); 2*E:]
out y = q * k + W[; 0]
out z = sum(v, dim=0) + sum(W[; -1, 1:3], dim=0)
out w = x[; t:t+3]
)", "spatial.tpo", ".", true, 5);
}

// A step's product with 1 MiB weights, read as column panels (weight-panels): at several
// bounds, B = 1 included (one row per panel: a GEMV), the compiled engine gives the
// reference's outputs; and with a vector on the left (no batch dimension).
TEST(CompiledDifferential, ProductsOfWeightsReadAsPanelsMatchTheReference) {
  checkProgram(R"(
dim t < T
dim b < B
set T = 16, B = 6
input x : f32[512] over (t, b) = hash(key=1, scale=1.0)
param W : f32[512, 512] = hash(key=2, scale=0.04)
h : f32[512] over (t, b)
h[0, b] = tanh(x[0, b])
h[t, b] = tanh(h[t-1, b] @ W + x[t, b])
out y = sum(h[0:T, b], dim=0)
)", "panels.tpo", ".", true, 5);
  checkProgram(R"(
dim t < T
set T = 16
input x : f32[512] over (t) = hash(key=1, scale=1.0)
param W : f32[512, 1024] = hash(key=2, scale=0.04)
param V : f32[1024, 512] = hash(key=3, scale=0.03)
h : f32[512] over (t)
h[0] = tanh(x[0])
h[t] = tanh((h[t-1] @ W) @ V + x[t])
out y = sum(h[0:T], dim=0)
)", "panels_vector.tpo", ".", true, 6);
}

TEST(CompiledDifferential, GeneratedProgramsKeepToAMemoryBudget) {
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    checkUnderABudget(testing::generateRandomProgram(seed), "random" + std::to_string(seed) + ".tpo");
  }
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("training seed " + std::to_string(seed));
    checkUnderABudget(testing::generateRandomTrainingProgram(seed), "training" + std::to_string(seed) + ".tpo");
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, CompiledTrainingShard, ::testing::Range<uint64_t>(0, 2),
                         [](const ::testing::TestParamInfo<uint64_t>& info) {
                           return "seeds" + std::to_string(1 + info.param * 20) + "to" +
                                  std::to_string((info.param + 1) * 20);
                         });

INSTANTIATE_TEST_SUITE_P(Seeds, CompiledDifferentialShard, ::testing::Range<uint64_t>(0, kShards),
                         [](const ::testing::TestParamInfo<uint64_t>& info) {
                           return "seeds" + std::to_string(1 + info.param * kSeedsPerShard) + "to" +
                                  std::to_string((info.param + 1) * kSeedsPerShard);
                         });

}  // namespace
}  // namespace tempo
