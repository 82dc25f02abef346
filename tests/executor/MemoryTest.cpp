// Memory statements end to end: MemoryPlacement's Alloc / Free in the compiled
// schedule, MemoryPrediction's predicted peak against the executor's measured
// peak on every example at two bound sets, the bounded memory of a sliding
// window decode (against the growing window, which grows by whole blocks of
// its producers' block stores), training memory flat in the iteration count,
// Free lowering the peak, reads after Free
// failing cleanly, and SwapPlacement under a memory budget.
// Examples that load .npy files get generated data instead (`normal(seed=1)`,
// the same shapes and dtype), so every bound can change.
#include "executor/CompiledEngine.h"
#include "memory/MemoryPlacement.h"
#include "memory/MemoryPrediction.h"
#include "executor/PeakAgreement.h"
#include "memory/StoragePlanner.h"
#include "frontend/Frontend.h"
#include "init/SourceArray.h"
#include "pass/PassRegistry.h"
#include "schedule/Scheduler.h"
#include "support/GoldenFiles.h"


#include <iostream>

#include <gtest/gtest.h>

#include <cmath>
#include <regex>

namespace tempo {
namespace {

namespace fs = std::filesystem;

CompiledProgram compileText(const std::string& text, const std::string& name, const std::string& baseDir = ".",
                            const std::vector<std::string>& disabledPasses = {}) {
  FrontendResult r = compileSource(text, name, baseDir);
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  Pipeline pipeline = defaultPipeline();
  for (const std::string& pass : disabledPasses) pipeline.disable(pass);
  return compileProgram(r.graph, pipeline);
}

/// The swap tests' program, with every pass (static tiling's block store of x included).
CompiledProgram compileSwapProgram(const char* text) { return compileText(text, "swap.tpo"); }

/// The example with every load() replaced by generated data of the same type.
CompiledProgram compileWithoutFiles(const fs::path& path) {
  std::string text = testing::withGeneratedData(path);
  return compileText(text, path.filename().string());
}

/// Same shape and bit-for-bit the same values (NaN equals NaN).
bool sameValues(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  for (int64_t i = 0; i < a.numel(); ++i)
    if (a.at(i) != b.at(i) && !(std::isnan(a.at(i)) && std::isnan(b.at(i)))) return false;
  return true;
}

SymbolEnv defaults(const Graph& g) {
  std::string err;
  return *resolveBounds(g, {}, err);
}

SymbolEnv scaled(const Graph& g, int64_t add) {
  SymbolEnv b = defaults(g);
  for (auto& [name, v] : b) v += add;
  return b;
}

TEST(Memory, MeasuredAndPredictedPeaksAgreeWithinTenPercentOnEveryExample) {
  for (const fs::path& path : testing::examplePrograms()) {
    CompiledProgram p = compileWithoutFiles(path);
    for (int64_t add : {0, 3}) {
      SymbolEnv bounds = scaled(p.graph, add);
      SCOPED_TRACE(path.filename().string() + " +" + std::to_string(add));
      CompiledRunResult r = runCompiled(p, bounds);
      EXPECT_GT(r.stats.memoryStatements, 0);
      EXPECT_TRUE(testing::peaksAgree(r.stats.peakBytes, r.predictedBytes));
    }
  }
}

/// Bytes of the arrays behind sources over `dim` at `bounds`: data the program is
/// given per step or iteration, held whole, not its working memory.
int64_t inputArrayBytesOver(const CompiledProgram& p, const SymbolEnv& bounds, const std::string& dim) {
  int64_t inputs = 0;
  for (const auto& [id, n] : p.graph.nodes())
    if (isWholeArraySource(n.op) && std::count(n.domain.begin(), n.domain.end(), dim))
      inputs += predictStoreBytes(p.graph, n, StoreSpec::whole(), p.graph.withDerivedBounds(bounds));
  return inputs;
}

int64_t nonOutputPeak(const CompiledProgram& p, int64_t T) {
  SymbolEnv bounds = defaults(p.graph);
  bounds["T"] = T;
  return runCompiled(p, bounds).stats.peakNonOutputBytes;
}

// The backward pass runs its loop over t downwards (t = -c1): a recurrence
// reading t + 1 keeps two steps there too, and a sum over every t of a value it
// feeds becomes a running sum from T - 1 down, read at 0 (window-sums). `back`
// keeps the same peak at T = 64 and 512 (it held every step: 2 MB -> 16.8 MB
// before). In `bptt`, trained through its recurrence, the only memory growing
// with T is the two windows the weight gradient's one product reads (x and the
// pre-activation's gradient, 2 x 8 floats a step); the backward states were
// whole stores (at width 32: 574 KB at T = 64, 4.4 MB at 512, now 66 KB and 181 KB).
TEST(Memory, BackwardRecurrencesKeepTwoStepsAndSumWhatTheyFeedAsTheyGo) {
  CompiledProgram back = compileText(R"(
dim t < T
set T = 64
param a : f32[4096] = normal(seed=1)
g : f32[4096] over (t)
g[T-1] = a
g[t] = 0.5 * g[t+1] + a
p = exp(g) * g
out y = sum(p[0:T], dim=0)
)", "back.tpo");
  const int64_t small = nonOutputPeak(back, 64), large = nonOutputPeak(back, 512);
  EXPECT_LE(static_cast<double>(large), 1.05 * static_cast<double>(small)) << small << " -> " << large;
  EXPECT_LT(small, 8 * 4096 * 4);  // a few steps, not 64
  CompiledProgram bptt = compileWithoutFiles(testing::sourceDir() / "tests" / "executor" / "programs" / "bptt.tpo");
  const int64_t growth = nonOutputPeak(bptt, 512) - nonOutputPeak(bptt, 64);
  EXPECT_LE(static_cast<double>(growth), 1.05 * (512 - 64) * 2 * 8 * 4) << growth;
}

TEST(Memory, SlidingWindowDecodeKeepsItsMemoryWhileTheGrowingWindowDoesNot) {
  fs::path dir = testing::sourceDir() / "resources" / "examples";
  CompiledProgram window = compileWithoutFiles(dir / "gpt_decode_window.tpo");
  CompiledProgram growing = compileWithoutFiles(dir / "gpt_decode.tpo");
  EXPECT_EQ(nonOutputPeak(window, 16), nonOutputPeak(window, 64));
  EXPECT_GT(nonOutputPeak(growing, 64), nonOutputPeak(growing, 16) + 1000);
}

// Sliding windows over recurrent tensors and over values computed per step keep
// a peak (outputs aside) that does not grow with T: the reader's loop is fused
// with its producer's, so the producer keeps a circular store of W steps. The
// first program is issue 10's (it grew by one x[t] per step, 8.5 MB at T=512).
/// The issue's sliding window: x[t] = 0.9 x[t-1] + a over f32[size], the max of its last 8 steps, T = `defaultT`.
std::string slidingMaxOverARecurrence(int size, int defaultT) {
  const std::string n = std::to_string(size);
  return "dim t < T\nset T = " + std::to_string(defaultT) + "\nparam a : f32[" + n +
         "] = uniform(seed=5, low=-1.0, high=1.0)\nx : f32[" + n +
         "] over (t)\nx[0] = a\nx[t] = 0.9 * x[t-1] + a\nm = max(x[max(0, t-7):t+1], dim=0)\nout y = sum(m, dim=0)\n";
}

TEST(Memory, SlidingWindowsKeepAPeakThatDoesNotGrowWithT) {
  const std::vector<std::pair<std::string, std::string>> programs = {
      {"max over a recurrence", slidingMaxOverARecurrence(4096, 64)},
      {"max over a recurrence, compiled for T = 8 (static tiling: blocks of 2 under a guard)",
       slidingMaxOverARecurrence(65536, 8)},
      {"mean over a batched recurrence", R"(
dim b < B
dim t < T
set B = 3, T = 64
param W : f32[64, 64] = normal(seed=1, std=0.1)
input u : f32[64] over (b) = normal(seed=2)
h : f32[64] over (b, t)
h[b, 0] = tanh(u[b])
h[b, t] = tanh(h[b, t-1] @ W + u[b])
s = mean(h[b, max(0, t-2):t+1], dim=0)
out y = sum(s * s, dim=0)
)"},
      {"a window of a per-step value computed from a recurrence", R"(
dim t < T
set T = 64
param a : f32[32] = normal(seed=3)
param K : f32[32, 32] = normal(seed=4, std=0.2)
h : f32[32] over (t)
h[0] = a
h[t] = tanh(h[t-1] @ K)
e = exp(h @ K)
w = sum(e[max(0, t-4):t+1], dim=0)
out y = max(w, dim=0)
)"},
  };
  for (const auto& [what, text] : programs) {
    SCOPED_TRACE(what);
    CompiledProgram p = compileText(text, "window.tpo");
    int64_t small = nonOutputPeak(p, 64), large = nonOutputPeak(p, 512);
    EXPECT_GT(small, 0);
    EXPECT_LE(static_cast<double>(large), 1.05 * static_cast<double>(small)) << small << " -> " << large;
  }
  // The examples' inputs over t are arrays held whole (data, not the
  // program's working memory): their bytes are left out.
  for (const char* example : {"attention_window.tpo", "gpt_decode_window.tpo"}) {
    SCOPED_TRACE(example);
    CompiledProgram p = compileWithoutFiles(testing::sourceDir() / "resources" / "examples" / example);
    auto working = [&](int64_t T) {
      SymbolEnv b = defaults(p.graph);
      b["T"] = T;
      return nonOutputPeak(p, T) - inputArrayBytesOver(p, b, "t");
    };
    int64_t small = working(32), large = working(256);
    EXPECT_LE(static_cast<double>(large), 1.05 * static_cast<double>(small)) << small << " -> " << large;
  }
}

/// The peer decoder `program` of bench/programs at these bounds (the defaults otherwise).
CompiledRunResult runPeerDecoder(const CompiledProgram& p, const SymbolEnv& set) {
  SymbolEnv bounds = defaults(p.graph);
  for (const auto& [name, value] : set) bounds[name] = value;
  return runCompiled(p, bounds);
}

CompiledProgram compilePeerDecoder(const char* program) {
  return compileWithoutFiles(testing::sourceDir() / "bench" / "programs" / program);
}

// decode_peer.tpo, the torch peer's decoder (B = 8, L = 4, E = 512, 50 MB of
// weights): once its KV cache outgrows the 21 MB of the weights' assembly
// (from about T = 160), the peak is the KV cache, 2·L·B·T·E·4 bytes, plus the
// weights plus one step's values (the FFN's activations, one block's scores
// and copies, the outputs: at most one block of k and v per layer, the issue's
// allowance; 1.1 MB at the cost model's 23 positions a block); between two sizes it grows by the KV
// cache's growth and at most one block of k and v per layer. It grew half as
// fast again when the blocks' outputs y were a whole store (read after the
// loop by the sum of the first 64 outputs and by the last one), and by a
// quarter more when the blockwise attention's running sums over ds were kept
// for every layer and block.
TEST(Memory, DecodePeersPeakIsItsKVCachePlusItsWeights) {
  CompiledProgram p = compilePeerDecoder("decode_peer.tpo");
  const int64_t L = 4, B = 8, E = 512;
  int64_t blockSize = 0, weights = 0;
  for (const auto& [id, spec] : p.stores)
    if (spec.kind == StoreKind::Block) blockSize = spec.blockSize();
  for (const auto& [id, n] : p.graph.nodes())
    if (isWholeArraySource(n.op) && n.domain == std::vector<std::string>{"l"})  // Wqkv, Wo, W1, W2 over l
      weights += predictStoreBytes(p.graph, n, StoreSpec::whole(), defaults(p.graph));
  ASSERT_GT(blockSize, 0) << printStoragePlan(p.graph, p.stores);
  EXPECT_EQ(weights, 16 * 786432 * 4);  // 4 layers of Wqkv, Wo, W1, W2
  auto kv = [&](int64_t T) { return 2 * L * B * ((T + blockSize - 1) / blockSize * blockSize) * E * 4; };
  const int64_t block = 2 * B * blockSize * E * 4;  // k and v of one layer
  const int64_t small = 176, large = 208;
  const int64_t atSmall = runPeerDecoder(p, {{"T", small}}).stats.peakBytes;
  const int64_t atLarge = runPeerDecoder(p, {{"T", large}}).stats.peakBytes;
  EXPECT_GE(atLarge - atSmall, kv(large) - kv(small));
  EXPECT_LE(atLarge - atSmall, kv(large) - kv(small) + L * block) << atSmall << " -> " << atLarge;
  for (auto [T, peak] : {std::pair{small, atSmall}, std::pair{large, atLarge}}) {
    EXPECT_GE(peak, kv(T) + weights) << "T=" << T;
    EXPECT_LE(peak - kv(T) - weights, L * block) << "T=" << T;
  }
}

// decode_window_peer.tpo reads k[b, l, max(0, t-W+1):t+1] with the window W a
// bound: k and v keep min(T, W) positions (the size is printed in W), and the
// blocks' outputs y two, so the peak does not grow with T. They were whole
// stores (+3·L·B·T·E·4 bytes: 50 MB more at T = 512).
TEST(Memory, DecodeWindowPeersPeakDoesNotGrowWithT) {
  CompiledProgram p = compilePeerDecoder("decode_window_peer.tpo");
  const int64_t atSmall = runPeerDecoder(p, {{"T", 64}, {"W", 16}}).stats.peakNonOutputBytes;
  const int64_t atLarge = runPeerDecoder(p, {{"T", 512}, {"W", 16}}).stats.peakNonOutputBytes;
  EXPECT_LE(static_cast<double>(atLarge), 1.05 * static_cast<double>(atSmall)) << atSmall << " -> " << atLarge;
  bool windowInW = false;
  for (const auto& [id, spec] : p.stores)
    if (spec.kind == StoreKind::Circular && spec.window.dependsOn("W")) windowInW = true;
  EXPECT_TRUE(windowInW) << printStoragePlan(p.graph, p.stores);
}

// A training step's values over (i, b, t), summed over b and t at the same i
// (the per-sample gradients of REINFORCE), keep one iteration: the peak beside
// the outputs grows with the number of iterations only by the arrays of the
// inputs drawn for every iteration (the reset states and the sampling noise,
// 320 B per iteration here). It grew by 378 KB per iteration when such a store
// was whole, and by 64 B per iteration of every value derived from the reset
// states when vectorisation batched them along i. From I = 3 on every
// iteration but the last updates the params the next one reads.
TEST(Memory, TrainingIterationsDoNotAccumulateTheirStepValues) {
  fs::path path = testing::sourceDir() / "resources" / "examples" / "rl" / "reinforce.tpo";
  CompiledProgram p = compileWithoutFiles(path);
  auto workingAt = [&](int64_t iterations) {
    SymbolEnv bounds = defaults(p.graph);
    bounds["I"] = iterations, bounds["B"] = 4, bounds["T"] = 16;
    return runCompiled(p, bounds).stats.peakNonOutputBytes - inputArrayBytesOver(p, bounds, "i");
  };
  const int64_t few = workingAt(3), many = workingAt(10);
  EXPECT_LE(many - few, 64) << few << " B at I=3, " << many << " B at I=10";
}

// REINFORCE's weight gradients sum one outer product per (t, b), a [P, P]
// matrix at every point. Summed window by window and contracted into one
// matrix product per step (WindowSums.h), they are never stored over t: the
// peak grows with T by the step values the backward pass reads (states,
// activations and returns, and the windows gathered from them), 6.3 KB per
// step here, well under the B·P·P·4 = 16 KB per step that storing the outer
// products of W2 alone would add.
TEST(Memory, PolicyGradientsDoNotStoreAnOuterProductPerStep) {
  CompiledProgram p = compileWithoutFiles(testing::sourceDir() / "resources" / "examples" / "rl" / "reinforce.tpo");
  auto workingAt = [&](int64_t steps) {
    SymbolEnv bounds = defaults(p.graph);
    bounds["I"] = 3, bounds["B"] = 4, bounds["T"] = steps;
    return runCompiled(p, bounds).stats.peakNonOutputBytes - inputArrayBytesOver(p, bounds, "t");
  };
  const int64_t perStep = (workingAt(48) - workingAt(16)) / 32;
  EXPECT_LE(perStep, 8 * 1024) << perStep << " B per step";
}

/// gpt_decode.tpo compiled with blocks of `bs`, every load replaced by generated
/// data of its own seed (equal seeds would let CSE merge k with q and v).
CompiledProgram compileDecodeWithBlocks(int64_t bs) {
  fs::path path = testing::sourceDir() / "resources" / "examples" / "gpt_decode.tpo";
  std::string text = testing::readFile(path);
  const std::regex load(R"(load\("[^"]*"\))");
  for (int seed = 1; std::regex_search(text, load); ++seed)
    text = std::regex_replace(text, load, "normal(seed=" + std::to_string(seed) + ")",
                              std::regex_constants::format_first_only);
  FrontendResult r = compileSource(text, "gpt_decode.tpo", ".");
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  PassContext context;
  context.options["block-size"] = std::to_string(bs);
  return compileProgram(r.graph, defaultPipeline(), context);
}

TEST(Memory, TheGrowingWindowDecodeGrowsByWholeBlocksOfItsProducers) {
  const int64_t bs = 4;
  CompiledProgram p = compileDecodeWithBlocks(bs);
  // The windowed producers (k and v of every layer) are block stores, read in place.
  int64_t blockBytes = 0;  // one block of every block store, over its other dims
  SymbolEnv bounds = defaults(p.graph);
  for (const auto& [id, spec] : p.stores) {
    if (spec.kind != StoreKind::Block) continue;
    EXPECT_EQ(spec.window, bs);
    const Node& n = p.graph.node(id);
    int64_t bytes = static_cast<int64_t>(dtypeSize(n.type.dtype)) * bs;
    for (int64_t s : n.type.evaluateShape(bounds)) bytes *= s;
    for (size_t k = 0; k < n.domain.size(); ++k)
      if (static_cast<int>(k) != spec.dim) bytes *= bounds.at(p.graph.boundOf(n.domain[k]));
    blockBytes += bytes;
  }
  ASSERT_GT(blockBytes, 0) << printStoragePlan(p.graph, p.stores);
  // T = 16 fills 4 blocks; T = 17 starts a fifth, T = 20 fills it: the peak grows
  // by one block of each producer (plus one value per block of the accumulators
  // and masks over ds), then not at all until the next block starts — never by
  // BS copies of the producers per step, as the shift register did.
  int64_t at16 = nonOutputPeak(p, 16), at17 = nonOutputPeak(p, 17), at20 = nonOutputPeak(p, 20);
  EXPECT_GE(at17 - at16, blockBytes) << printLoopProgram(p.graph, p.loops);
  EXPECT_LT(at17 - at16, 2 * blockBytes);
  EXPECT_EQ(at20, at17);
  EXPECT_EQ(nonOutputPeak(p, 32) - at16, 4 * (at17 - at16));
  for (const auto& [id, spec] : p.stores) {  // each block store holds whole blocks
    if (spec.kind != StoreKind::Block) continue;
    SymbolEnv b = defaults(p.graph);
    b["T"] = 17;
    Executor ex(p.graph, p.loops, ExecutorOptions{b, planStorage(p.graph, p.loops, b)});
    ex.run();
    EXPECT_EQ(ex.memory().nodePeakBytes(id), predictStoreBytes(p.graph, p.graph.node(id), spec, b));
    EXPECT_EQ(ex.memory().nodePeakBytes(id) % (5 * bs), 0);  // 5 blocks of 4 positions
    break;
  }
  // Measured equals predicted with the blocks, at a T inside a block too.
  for (int64_t T : {16, 17, 21}) {
    SymbolEnv b = defaults(p.graph);
    b["T"] = T;
    CompiledRunResult r = runCompiled(p, b);
    EXPECT_TRUE(testing::peaksAgree(r.stats.peakBytes, r.predictedBytes)) << "T=" << T;
  }
}

TEST(Memory, FreeLowersThePeakAgainstNeverFreeing) {
  CompiledProgram p = compileWithoutFiles(testing::sourceDir() / "resources" / "examples" / "gpt_decode_window.tpo");
  SymbolEnv bounds = defaults(p.graph);
  bounds["T"] = 32;
  auto peak = [&](const LoopProgram& loops) {
    Executor ex(p.graph, loops, ExecutorOptions{bounds, planStorage(p.graph, loops, bounds)});
    ex.run();
    return ex.stats().peakBytes;
  };
  LoopProgram neverFree = withoutFrees(p.loops);
  int64_t freed = peak(p.loops), kept = peak(neverFree);
  EXPECT_LT(freed, kept);
  const std::vector<SharedBuffer> shared = sharedBuffers(p.graph, p.graph.withDerivedBounds(bounds));
  EXPECT_TRUE(testing::peaksAgree(kept, predictMemory(neverFree, bounds, shared).peakBytes));
  EXPECT_EQ(runCompiled(p, bounds).predictedBytes, predictMemory(p.loops, bounds, shared).peakBytes);
}

TEST(Memory, APredictionWithoutARunEqualsTheRunsAndARunMayGoWithoutOne) {
  CompiledProgram p = compileWithoutFiles(testing::sourceDir() / "resources" / "examples" / "gpt_decode_window.tpo");
  const SymbolEnv bounds{{"T", 24}};  // the other bounds at their defaults, as a run takes them
  const CompiledRunResult predicted = runCompiled(p, bounds);
  EXPECT_GT(predicted.predictedBytes, 0);
  EXPECT_EQ(predictRunPeak(p, bounds), predicted.predictedBytes);
  CompiledRunOptions options;
  options.predictMemory = false;
  const CompiledRunResult unpredicted = runCompiled(p, bounds, options);
  EXPECT_EQ(unpredicted.predictedBytes, 0);
  EXPECT_TRUE(unpredicted.predictedTimeline.events().empty());
  EXPECT_EQ(unpredicted.stats.peakBytes, predicted.stats.peakBytes);  // the run itself is the same
}

// An output that reads one point of a param over l (a window of the param's whole array)
// keeps a copy: a window would hold the whole array to the end of the run, past the
// param's Free, where the prediction no longer counts it, and e is computed after that Free
// (found by random seed 22).
TEST(Memory, AnOutputReadingOnePointOfASourceDoesNotKeepItsWholeArray) {
  CompiledProgram p = compileText(R"(dim l < L
set L = 16
param w : f32[4096] over (l) = normal(seed=1)
input x : f32[64] over (l) = normal(seed=2)
a = sum(w, dim=0)
out o = w[0]
out s = sum(a[0:L], dim=0)
e = exp(reshape(x, (64, 1)) @ reshape(x, (1, 64)) * s)
out y = sum(e[0:L], dim=0)
)", "point_of_a_source.tpo");
  const CompiledRunResult r = runCompiled(p, defaults(p.graph));
  EXPECT_TRUE(testing::peaksAgree(r.stats.peakBytes, r.predictedBytes))
      << r.stats.peakBytes << " measured, " << r.predictedBytes << " predicted\n" << printLoopProgram(p.graph, p.loops);
  const Tensor o = r.outputs.at(0).second;
  EXPECT_EQ(o.shape(), (std::vector<int64_t>{4096}));
}

TEST(Memory, OutputsAreNeverFreedAndWholeStoresLiveAtTheTop) {
  CompiledProgram p = compileWithoutFiles(testing::sourceDir() / "resources" / "examples" / "rnn.tpo");
  std::string text = printLoopProgram(p.graph, p.loops);
  for (const GraphOutput& o : p.graph.outputs)
    EXPECT_EQ(text.find("free %" + std::to_string(o.node) + " "), std::string::npos) << text;
  for (const LoopStmt& s : p.loops.body)  // every whole store's Alloc is a top-level statement
    if (const auto* f = s.as<ForStmt>())
      for (const auto& [id, spec] : p.stores)
        if (spec.kind == StoreKind::Whole)
          EXPECT_EQ(printLoopProgram(p.graph, LoopProgram{{s}}).find("alloc %" + std::to_string(id) + " "),
                    std::string::npos);
}

TEST(Memory, OneBOfAWindowReadOverBAndTIsKeptCircularOrAsAWholeStoreInsideTheLoopOverB) {
  std::string text = testing::withGeneratedData(testing::sourceDir() / "resources" / "examples" / "attention_causal.tpo");
  FrontendResult f = compileSource(text, "attention_causal.tpo", ".");
  ASSERT_TRUE(f.ok()) << f.renderedDiagnostics();
  const Graph& g = f.graph;
  IslContext isl;
  LoopProgram schedule = scheduleGraph(g, isl);
  StoragePlan stores = chooseStores(g, schedule);
  NodeId k = -1;
  for (const auto& [id, n] : g.nodes())
    if (n.name == "k") k = id;
  // k over (b, t) is read as k[b, 0:t+1]: one b at a time, every t of it. The
  // planner keeps one b (circular along b, a slot holding every t); as a whole
  // store it is allocated inside the loop over b, never around it.
  ASSERT_EQ(stores.at(k).kind, StoreKind::Circular);
  EXPECT_EQ(g.node(k).domain[static_cast<size_t>(stores.at(k).dim)], "b");
  EXPECT_EQ(stores.at(k).window, 1);
  stores[k] = StoreSpec::whole("the placement of a whole store under test");
  LoopProgram loops = placeMemory(g, schedule, stores);
  std::string printed = printLoopProgram(g, loops);
  std::string label = "%" + std::to_string(k) + " k  (32*T bytes)\n";
  EXPECT_NE(printed.find("for c0 in 0..B:\n  alloc " + label), std::string::npos) << printed;
  EXPECT_NE(printed.find("\n  free " + label), std::string::npos) << printed;
  SymbolEnv bounds = defaults(g);
  StoragePlan planned = planStorage(g, loops, bounds);
  planned[k] = StoreSpec::whole();
  planned[k].predictedBytes = predictStoreBytes(g, g.node(k), planned[k], bounds);
  Executor ex(g, loops, ExecutorOptions{bounds, planned});
  ex.run();
  EXPECT_EQ(ex.memory().nodePeakBytes(k), 32 * bounds.at("T"));  // never B * T
  int64_t predicted = predictMemory(loops, bounds, sharedBuffers(g, bounds)).peakBytes;
  EXPECT_TRUE(testing::peaksAgree(ex.stats().peakBytes, predicted));
}

TEST(Memory, ReadingAFreedStoreIsAnExecErrorNamingTheNodeAndPoint) {
  CompiledProgram p = compileWithoutFiles(testing::sourceDir() / "resources" / "examples" / "small" / "running_sum.tpo");
  // Free v right after its exec in the loop, before `s` and `w` read it there.
  LoopProgram broken = p.loops;
  NodeId v = -1;
  for (LoopStmt& s : broken.body)
    if (auto* f = s.as<ForStmt>())
      for (size_t i = 0; i < f->body.size() && v < 0; ++i)
        if (const auto* e = f->body[i].as<ExecStmt>(); e && p.graph.node(e->node).name == "v") {
          v = e->node;
          f->body.insert(f->body.begin() + static_cast<std::ptrdiff_t>(i) + 1, LoopStmt{FreeStmt{v, 0}});
        }
  ASSERT_GE(v, 0) << printLoopProgram(p.graph, p.loops);
  Executor ex(p.graph, broken, ExecutorOptions{defaults(p.graph), p.stores});
  try {
    ex.run();
    FAIL() << "expected an ExecError";
  } catch (const ExecError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("'v'"), std::string::npos) << what;
    EXPECT_NE(what.find("read after the store was freed"), std::string::npos) << what;
    EXPECT_EQ(e.point, (std::vector<int64_t>{0}));
  }
}

TEST(Memory, WritingBeforeTheAllocIsAnExecError) {
  CompiledProgram p = compileWithoutFiles(testing::sourceDir() / "resources" / "examples" / "small" / "running_sum.tpo");
  LoopProgram late = p.loops;  // every top-level Alloc moved to the end
  LoopBody allocs, rest;
  for (LoopStmt& s : late.body) (s.as<AllocStmt>() ? allocs : rest).push_back(s);
  rest.insert(rest.end(), allocs.begin(), allocs.end());
  late.body = rest;
  Executor ex(p.graph, late, ExecutorOptions{defaults(p.graph), p.stores});
  try {
    ex.run();
    FAIL() << "expected an ExecError";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("write before the store was allocated"), std::string::npos) << e.what();
  }
}

/// w is produced first and read only after a loop whose stores are large: a budget can swap it out over the loop.
const char* kSwapProgram = R"(
dim t < T
set T = 16
input w : f32[4096] = normal(seed=1)
input x : f32[256] over (t) = normal(seed=2)
c = sum(x[0:t+1] * 2.0, dim=0)
acc : f32[] over (t)
acc[0] = sum(c[0], dim=0)
acc[t] = acc[t-1] + sum(c[t], dim=0)
out r = sum(w * acc[T-1], dim=0)
)";

TEST(Memory, ABudgetSwapsOutAStoreNotReadSoonAndKeepsThePeakUnderIt) {
  CompiledProgram p = compileSwapProgram(kSwapProgram);
  SymbolEnv bounds = defaults(p.graph);
  CompiledRunResult plain = runCompiled(p, bounds);
  // Static tiling's masked block of 2x ([BS, 256] per step) lives inside the loop, next to x's block store.
  const int64_t budget = 56 * 1024;
  ASSERT_GT(plain.stats.peakBytes, budget);
  CompiledRunResult swapped = runCompiled(p, bounds, CompiledRunOptions{true, budget});
  ASSERT_TRUE(swapped.swapPlan);
  EXPECT_TRUE(swapped.swapPlan->met()) << swapped.swapPlan->report();
  ASSERT_EQ(swapped.swapPlan->swaps.size(), 1u) << swapped.swapPlan->report();
  EXPECT_EQ(swapped.swapPlan->swaps[0].rfind("%0 w ", 0), 0u) << swapped.swapPlan->swaps[0];
  EXPECT_LE(swapped.stats.peakBytes, budget);
  EXPECT_TRUE(testing::peaksAgree(swapped.stats.peakBytes, swapped.predictedBytes));
  EXPECT_EQ(swapped.stats.peakSwappedBytes, 4096 * 4);  // the generated array (its store holds a window of it)
  std::string text = printLoopProgram(p.graph, swapped.swapPlan->program);
  EXPECT_NE(text.find("swap_out %0 w  (16384 bytes)"), std::string::npos) << text;
  EXPECT_NE(text.find("swap_in %0 w  (16384 bytes)"), std::string::npos) << text;
  ASSERT_EQ(plain.outputs.size(), swapped.outputs.size());
  for (size_t i = 0; i < plain.outputs.size(); ++i)
    EXPECT_TRUE(sameValues(plain.outputs[i].second, swapped.outputs[i].second)) << plain.outputs[i].first;
}

TEST(Memory, ABudgetThePlanCannotMeetIsPagedAtRunTime) {
  CompiledProgram p = compileSwapProgram(kSwapProgram);
  SymbolEnv bounds = defaults(p.graph);
  CompiledRunResult plain = runCompiled(p, bounds);
  // At the floor (a masked block of x, 16 KB, read with x's block, 16 KB): the plan cannot meet it, since
  // the loop uses every store live around it; it says which stores and why.
  const int64_t floor = placeSwaps(p.graph, p.loops, p.graph.withDerivedBounds(bounds), 1).floor;
  CompiledRunResult r = runCompiled(p, bounds, CompiledRunOptions{true, floor});
  ASSERT_TRUE(r.swapPlan);
  EXPECT_TRUE(r.swapPlan->feasible());
  EXPECT_FALSE(r.swapPlan->met());
  std::string report = r.swapPlan->report();
  EXPECT_NE(report.find("not met by the plan"), std::string::npos) << report;
  EXPECT_NE(report.find("%1 x 16384 B"), std::string::npos) << report;  // used by the loop that is over budget
  EXPECT_NE(report.find("are used by it"), std::string::npos) << report;
  // The pager does it inside the loop: x's block goes out while the masked block is made, and back.
  ASSERT_TRUE(r.paging);
  const std::string paged = r.paging->report(p.graph);
  EXPECT_LE(r.stats.peakBytes, floor) << paged;
  EXPECT_EQ(r.paging->overBudget, 0) << paged;
  // x's block goes out and comes back at (about) every one of the 16 steps; the exact count depends on
  // where the schedule puts the loads.
  std::smatch counts;
  ASSERT_TRUE(std::regex_search(paged, counts, std::regex("page %1 x: ([0-9]+) out, ([0-9]+) in"))) << paged;
  EXPECT_GE(std::stoi(counts[1]), 15) << paged;
  EXPECT_GE(std::stoi(counts[2]), 15) << paged;
  int pageOuts = 0;
  for (const MemoryEvent& e : r.measuredTimeline.events()) pageOuts += e.kind == MemoryEvent::Kind::PageOut;
  EXPECT_EQ(pageOuts, r.paging->pageOuts());
  ASSERT_EQ(plain.outputs.size(), r.outputs.size());
  for (size_t i = 0; i < plain.outputs.size(); ++i)
    EXPECT_TRUE(sameValues(plain.outputs[i].second, r.outputs[i].second)) << plain.outputs[i].first;
}

TEST(Memory, ABudgetBelowWhatAnyScheduleNeedsIsRefusedNamingTheStores) {
  CompiledProgram p = compileSwapProgram(kSwapProgram);
  SymbolEnv bounds = defaults(p.graph);
  SwapPlan plan = placeSwaps(p.graph, p.loops, p.graph.withDerivedBounds(bounds), 1024);
  EXPECT_FALSE(plan.feasible());
  EXPECT_FALSE(plan.met());
  // One step's masked block of 2x: 16 x 256 f32 written while x's block (the same size) and the mask are read.
  EXPECT_EQ(plan.floor, 2 * 16384 + 16);
  EXPECT_NE(plan.infeasibility().find("no schedule fits in 1024 B: "), std::string::npos) << plan.infeasibility();
  EXPECT_NE(plan.infeasibility().find("needs 32784 B at once: its result 16384 B, and its reads %1 x 16384 B"),
            std::string::npos)
      << plan.infeasibility();
  EXPECT_NE(plan.report().find("infeasible"), std::string::npos) << plan.report();
  try {
    runCompiled(p, bounds, CompiledRunOptions{true, 1024});
    ADD_FAILURE() << "ran under an infeasible budget";
  } catch (const MemoryBudgetError& e) {
    EXPECT_EQ(std::string(e.what()), plan.infeasibility());
  }
  // The outputs: every value of the recurrence y over t is returned, and each step writes
  // into y's store of all of them (stores are swapped and paged whole) while reading x.
  CompiledProgram outputs = compileSwapProgram(
      "dim t < T\nset T = 64\ninput x : f32[256] = normal(seed=3)\ny : f32[256] over (t)\n"
      "y[0] = x\ny[t] = 0.5 * y[t-1] + x\nout y\n");
  SwapPlan tight = placeSwaps(outputs.graph, outputs.loops, defaults(outputs.graph), 1000);
  EXPECT_FALSE(tight.feasible());
  EXPECT_NE(tight.floorReason.find("needs 67584 B at once: its result 1024 B, and its reads %0 x 1024 B, %1 y 65536 B"),
            std::string::npos)
      << tight.floorReason;
  // A source is one array, built and held whole: reading one step of it holds all of it.
  CompiledProgram whole = compileSwapProgram(
      "dim t < T\nset T = 64\ninput x : f32[256] over (t) = normal(seed=3)\nout y = sum(x[t], dim=0)\n");
  SwapPlan source = placeSwaps(whole.graph, whole.loops, defaults(whole.graph), 1000);
  EXPECT_FALSE(source.feasible());
  EXPECT_NE(source.floorReason.find("B at once: its result 256 B, and its reads %0 x 65536 B"), std::string::npos)
      << source.floorReason;
}

// Inside a loop: in causal attention (its inputs generated) the stores live
// around the loop over t — the weights, x, q — are read early in each step and
// not again in it; under 95% of the plain peak they are swapped out after that read
// and back in before the next step's, and the peak meets the budget. (The bytes
// allocated inside the loop are few since the score and value blocks are read in
// place: the swaps can take out ~7% of the peak, x and Wq.)
TEST(Memory, ABudgetSwapsInsideALoopWhatEachIterationReadsOnlyAtItsStart) {
  CompiledProgram p = compileWithoutFiles(testing::sourceDir() / "resources" / "examples" / "attention_causal.tpo");
  SymbolEnv bounds = defaults(p.graph);
  CompiledRunResult plain = runCompiled(p, bounds);
  const int64_t budget = plain.predictedBytes * 19 / 20;
  CompiledRunResult tight = runCompiled(p, bounds, CompiledRunOptions{true, budget});
  ASSERT_TRUE(tight.swapPlan);
  const std::string report = tight.swapPlan->report();
  EXPECT_TRUE(tight.swapPlan->met()) << report;
  EXPECT_LE(tight.stats.peakBytes, budget) << report;
  EXPECT_TRUE(testing::peaksAgree(tight.stats.peakBytes, tight.predictedBytes));
  EXPECT_NE(report.find("of the next iteration, every iteration of `for c0 in 0..T:`"), std::string::npos) << report;
  std::string text = printLoopProgram(p.graph, tight.swapPlan->program);
  EXPECT_NE(text.find("\n  swap_out %"), std::string::npos) << text;  // inside the loop
  EXPECT_NE(text.find("\n  swap_in %"), std::string::npos) << text;
  ASSERT_EQ(plain.outputs.size(), tight.outputs.size());
  for (size_t i = 0; i < plain.outputs.size(); ++i)
    EXPECT_TRUE(sameValues(plain.outputs[i].second, tight.outputs[i].second)) << plain.outputs[i].first;
}

// Under a budget (three quarters and half of the plain peak) every example and
// REINFORCE computes the same outputs, bit for bit, and the measured peak is
// never more than 5% over the budget: the plan's swaps and recomputes where it
// sees them, the run-time pager for the rest (inside nested loops, point and
// circular stores). Where nothing was paged, the plan's prediction holds (within
// 10%). A budget below the floor is refused.
TEST(Memory, OutputsAreIdenticalWithAndWithoutABudgetOnEveryExample) {
  std::vector<fs::path> programs = testing::examplePrograms();
  programs.push_back(testing::sourceDir() / "resources" / "examples" / "rl" / "reinforce.tpo");
  for (const fs::path& path : programs) {
    SCOPED_TRACE(path.filename().string());
    CompiledProgram p = compileWithoutFiles(path);
    SymbolEnv bounds = defaults(p.graph);
    if (path.filename() == "reinforce.tpo") bounds["I"] = 3, bounds["B"] = 4, bounds["T"] = 16;
    CompiledRunResult plain = runCompiled(p, bounds);
    for (int64_t budget : {plain.predictedBytes * 3 / 4, plain.predictedBytes / 2}) {
      SwapPlan plan = placeSwaps(p.graph, p.loops, p.graph.withDerivedBounds(bounds), budget);
      if (!plan.feasible()) {  // refused before the run
        EXPECT_THROW(runCompiled(p, bounds, CompiledRunOptions{true, budget}), MemoryBudgetError);
        std::cout << path.filename().string() << " budget " << budget << ": " << plan.infeasibility() << "\n";
        continue;
      }
      CompiledRunResult tight = runCompiled(p, bounds, CompiledRunOptions{true, budget});
      ASSERT_TRUE(tight.swapPlan);
      ASSERT_TRUE(tight.paging);
      std::cout << path.filename().string() << " budget " << budget << ": floor " << plan.floor << ", plan "
                << (tight.swapPlan->met() ? "meets it" : "over") << ", " << tight.paging->pageOuts()
                << " page-outs, peak " << tight.stats.peakBytes << " plain " << plain.stats.peakBytes << "\n";
      ASSERT_EQ(plain.outputs.size(), tight.outputs.size());
      for (size_t i = 0; i < plain.outputs.size(); ++i)
        EXPECT_TRUE(sameValues(plain.outputs[i].second, tight.outputs[i].second)) << plain.outputs[i].first;
      if (tight.paging->pageOuts() == 0) EXPECT_TRUE(testing::peaksAgree(tight.stats.peakBytes, tight.predictedBytes));
      EXPECT_LE(static_cast<double>(tight.stats.peakBytes), 1.05 * static_cast<double>(budget))
          << tight.swapPlan->report() << tight.paging->report(p.graph);
      EXPECT_EQ(tight.paging->overBudget, 0) << tight.paging->report(p.graph);
    }
  }
}

// Rematerialisation: v, computed once at the top level from w (which the end
// reads too), is freed during the loop and computed again before its last read:
// two operations per element cost less than moving its 16 KB out and back, so
// it goes before w (an input: swapped), whose next read is as far.
const char* kRecomputeProgram = R"(
dim t < T
set T = 16
input w : f32[4096] = normal(seed=1)
input x : f32[256] over (t) = normal(seed=2)
v = w * 2.0 + 1.0
m = max(v, dim=0)
c = sum(x[0:t+1], dim=0)
acc : f32[] over (t)
acc[0] = sum(c[0], dim=0) * m
acc[t] = acc[t-1] + sum(c[t], dim=0)
out r = sum(v * acc[T-1] + w * acc[T-1], dim=0)
)";

TEST(Memory, ABudgetRecomputesACheapValueInsteadOfSwappingIt) {
  CompiledProgram p = compileSwapProgram(kRecomputeProgram);
  SymbolEnv bounds = defaults(p.graph);
  CompiledRunResult plain = runCompiled(p, bounds);
  const int64_t budget = plain.stats.peakBytes - 8 * 1024;
  CompiledRunResult tight = runCompiled(p, bounds, CompiledRunOptions{true, budget});
  ASSERT_TRUE(tight.swapPlan);
  const std::string report = tight.swapPlan->report();
  EXPECT_TRUE(tight.swapPlan->met()) << report;
  ASSERT_EQ(tight.swapPlan->recomputes.size(), 1u) << report;
  EXPECT_TRUE(tight.swapPlan->swaps.empty()) << report;
  EXPECT_NE(tight.swapPlan->recomputes[0].find(" v (16384 B): freed after"), std::string::npos) << report;
  EXPECT_NE(report.find("8192 operations against 32768 B a swap moves"), std::string::npos) << report;
  EXPECT_LE(tight.stats.peakBytes, budget);
  EXPECT_TRUE(testing::peaksAgree(tight.stats.peakBytes, tight.predictedBytes));
  std::string text = printLoopProgram(p.graph, tight.swapPlan->program);
  EXPECT_NE(text.find("recompute %"), std::string::npos) << text;
  ASSERT_EQ(plain.outputs.size(), tight.outputs.size());
  for (size_t i = 0; i < plain.outputs.size(); ++i)
    EXPECT_TRUE(sameValues(plain.outputs[i].second, tight.outputs[i].second)) << plain.outputs[i].first;
  // The recompute is in the memory timeline too, measured and predicted.
  for (const MemoryTimeline* timeline : {&tight.measuredTimeline, &tight.predictedTimeline}) {
    int recomputes = 0;
    for (const MemoryEvent& e : timeline->events()) recomputes += e.kind == MemoryEvent::Kind::Recompute;
    EXPECT_EQ(recomputes, 1);
  }
}

}  // namespace
}  // namespace tempo
