// `tempo run`: end-to-end results against the NumPy goldens, --set, --out,
// --engine and the exit codes of each failure.
#include "CliTestUtil.h"

#include "npy/Npy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tempo::cli::test {
namespace {

constexpr double kRtol = 1e-4;
constexpr double kAtol = 1e-5;

/// "" when `actual` matches `expected` within kRtol/kAtol, else what differs.
std::string compareArrays(const Tensor& actual, const Tensor& expected) {
  if (actual.shape() != expected.shape())
    return "shape " + shapeString(actual.shape()) + ", expected " + shapeString(expected.shape());
  int mismatches = 0;
  std::ostringstream first;
  for (int64_t i = 0; i < expected.numel(); ++i) {
    double a = actual.at(i), e = expected.at(i);
    if (std::abs(a - e) <= kAtol + kRtol * std::abs(e)) continue;
    if (mismatches++ == 0) first << "first at flat index " << i << ": " << a << " vs " << e;
  }
  if (mismatches == 0) return "";
  return std::to_string(mismatches) + " of " + std::to_string(expected.numel()) + " values differ; " + first.str();
}

std::vector<int64_t> savedShape(const TempDir& dir, const std::string& output) {
  return readNpy(dir.str(output + ".npy")).shape();
}

// THE end-to-end correctness test: every example, every golden output.
/// Runs every example with `engine` and compares each output with its NumPy golden.
void expectExamplesMatchGoldens(const std::string& engine) {
  int compared = 0;
  for (const auto& program : allExamples()) {
    SCOPED_TRACE(program.string() + " with the " + engine + " engine");
    std::filesystem::path golden = goldenDirFor(program);
    ASSERT_TRUE(std::filesystem::is_directory(golden)) << golden;
    TempDir out("goldens");
    CliResult r = tempo({"run", program.string(), "--out", out.str(), "--engine", engine});
    EXPECT_EQ(r.code, 0) << r.err;
    if (r.code != 0) continue;
    for (const auto& entry : std::filesystem::directory_iterator(golden)) {
      if (entry.path().extension() != ".npy") continue;
      std::string name = entry.path().stem().string();
      std::filesystem::path ours = out.path() / (name + ".npy");
      if (!std::filesystem::exists(ours)) {
        ADD_FAILURE() << "output " << name << " was not written";
        continue;
      }
      EXPECT_EQ(compareArrays(readNpy(ours.string()), readNpy(entry.path().string())), "") << "output " << name;
      ++compared;
    }
  }
  EXPECT_GE(compared, 18);  // the goldens README lists 18 outputs
}

TEST(CliRun, ExamplesMatchNumpyGoldens) { expectExamplesMatchGoldens("reference"); }

TEST(CliRun, CompiledEngineMatchesNumpyGoldens) { expectExamplesMatchGoldens("compiled"); }

TEST(CliRun, TransformedScheduleRunsOrSaysWhyNot) {
  CliResult plain = tempo({"run", example("rnn.tpo")});
  CliResult reversed = tempo({"run", example("rnn.tpo"), "--transform", "reverse b"});
  ASSERT_EQ(reversed.code, 0) << reversed.err;
  EXPECT_EQ(reversed.out.substr(0, reversed.out.find("engine compiled")), plain.out.substr(0, plain.out.find("engine compiled")));
  CliResult illegal = tempo({"run", example("rnn.tpo"), "--transform", "reverse t"});
  EXPECT_EQ(illegal.code, kExitProgramErrors);
  EXPECT_NE(illegal.err.find("the transformed schedule is illegal"), std::string::npos) << illegal.err;
  CliResult reference = tempo({"run", example("rnn.tpo"), "--engine", "reference", "--transform", "reverse b"});
  EXPECT_EQ(reference.code, kExitUsage);
}

TEST(CliRun, CompiledEngineSaysHowManyStatementsGeneratedKernelsComputed) {
  CliResult r = tempo({"run", example("rnn.tpo")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(" by generated kernels), peak "), std::string::npos) << r.out;
}

TEST(CliRun, CompiledEnginePrintsItsStatistics) {
  CliResult r = tempo({"run", example("small/counter.tpo"), "--engine", "compiled"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("c : f32[5] = [1, 2, 3, 4, 5]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("engine compiled: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("peak "), std::string::npos) << r.out;
}

TEST(CliRun, PrintsOneLinePerOutput) {
  CliResult r = tempo({"run", example("small/counter.tpo"), "--engine", "reference"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "c : f32[5] = [1, 2, 3, 4, 5]\n");
}

TEST(CliRun, CompiledIsTheDefaultEngineAndPrintsMeasuredAndPredictedPeaks) {
  CliResult r = tempo({"run", example("small/counter.tpo")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("c : f32[5] = [1, 2, 3, 4, 5]\nengine compiled: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("bytes measured, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" predicted, "), std::string::npos) << r.out;
}

// The memory profile: per node and after every memory statement, measured
// beside predicted, with the peaks the statistics line prints.
TEST(CliRun, MemoryProfileWritesTheTimelineMeasuredBesidePredicted) {
  TempDir dir("memprofile");
  CliResult r = tempo({"run", example("rnn.tpo"), "--memory-profile", dir.str("m.json")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + dir.str("m.json")), std::string::npos) << r.out;
  std::ifstream file(dir.str("m.json"));
  nlohmann::json j = nlohmann::json::parse(file);
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["bounds"]["T"], 16);
  int64_t measuredPeak = j["peak"]["measured"], predictedPeak = j["peak"]["predicted"];
  EXPECT_NE(r.out.find("peak " + std::to_string(measuredPeak) + " bytes measured, " + std::to_string(predictedPeak) +
                       " predicted"),
            std::string::npos)
      << r.out;
  ASSERT_FALSE(j["events"].empty());
  int64_t topMeasured = 0, topPredicted = 0, covered = 0;
  for (const auto& e : j["events"]) {
    topMeasured = std::max<int64_t>(topMeasured, e["measured"]["peak"]);
    topPredicted = std::max<int64_t>(topPredicted, e["predicted"]["live"]);
    covered += e["count"].get<int64_t>();
  }
  EXPECT_EQ(topMeasured, measuredPeak);
  EXPECT_EQ(topPredicted, predictedPeak);
  EXPECT_EQ(covered, j["statements"].get<int64_t>());
  bool sawH = false;
  for (const auto& n : j["nodes"]) sawH = sawH || n["name"] == "h";
  EXPECT_TRUE(sawH);
  EXPECT_EQ(tempo({"run", example("rnn.tpo"), "--engine", "reference", "--memory-profile", dir.str("x.json")}).code,
            kExitUsage);
}

// Under a budget the plan cannot meet, the profile says what the pager did, has its
// page_out / page_in events, and gives predicted live bytes only before the first of
// them (the prediction has no page events to line up with).
TEST(CliRun, MemoryProfileUnderABudgetHasThePagersEvents) {
  TempDir dir("memprofile-budget");
  CliResult r = tempo({"run", example("returns.tpo"), "--memory-budget", "300", "--memory-profile", dir.str("b.json")});
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream file(dir.str("b.json"));
  nlohmann::json j = nlohmann::json::parse(file);
  EXPECT_EQ(j["budget"]["bytes"], 300);
  EXPECT_EQ(j["budget"]["planMeetsIt"], false);
  EXPECT_EQ(j["budget"]["statementsOverBudget"], 0);
  const int64_t pageOuts = j["budget"]["pageOuts"];
  EXPECT_GT(pageOuts, 0);
  EXPECT_LE(j["peak"]["measured"].get<int64_t>(), 300);
  int64_t seenPageOuts = 0;
  bool paged = false;
  for (const auto& e : j["events"]) {
    const std::string kind = e["kind"];
    seenPageOuts += kind == "page_out" ? e["count"].get<int64_t>() : 0;  // few events: none merged
    paged = paged || kind == "page_out" || kind == "page_in";
    if (paged) EXPECT_FALSE(e.contains("predicted")) << e.dump();
  }
  EXPECT_EQ(seenPageOuts, pageOuts);
}

TEST(CliRun, ScheduleOptimizedPrintsTheLoopsTheRunExecutes) {
  // Issue 10's program: after static tiling the window's producer keeps 8 steps, in one loop with its reader.
  TempDir dir("optimized");
  std::string program = dir.str("slide.tpo");
  std::ofstream(program) << "dim t < T\nset T = 64\nparam a : f32[4096] = uniform(seed=5, low=-1.0, high=1.0)\n"
                            "x : f32[4096] over (t)\nx[0] = a\nx[t] = 0.9 * x[t-1] + a\n"
                            "m = max(x[max(0, t-7):t+1], dim=0)\nout y = sum(m, dim=0)\n";
  CliResult r = tempo({"schedule", program, "--optimized"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("alloc %1 x  (16384*min(8, T) bytes)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("where"), std::string::npos) << r.out;  // the tiled window's mask: the passes ran
  EXPECT_EQ(r.out.find("\nfor c0 in 0..T:", r.out.find("for c0 in 0..T:") + 1), std::string::npos) << r.out;  // one loop
}

TEST(CliRun, MemoryBudgetSwapsAndSaysWhenItCannotBeMet) {
  CliResult fits = tempo({"run", example("returns.tpo"), "--memory-budget", "1G"});
  ASSERT_EQ(fits.code, 0) << fits.err;
  EXPECT_NE(fits.out.find("memory budget 1073741824 B: met"), std::string::npos) << fits.out;
  // Above what any schedule needs (252 B: a step reads the whole arrays of r and g) but not met by the plan: what is left
  // over is paged at run time, and the measured peak stays under the budget (no warning).
  CliResult tight = tempo({"run", example("returns.tpo"), "--memory-budget", "300"});
  ASSERT_EQ(tight.code, 0) << tight.err;
  EXPECT_NE(tight.out.find("not met by the plan"), std::string::npos) << tight.out;
  EXPECT_NE(tight.out.find("over budget in the plan: statement "), std::string::npos) << tight.out;
  EXPECT_NE(tight.out.find("at run time: "), std::string::npos) << tight.out;
  EXPECT_NE(tight.out.find("every statement fit the budget"), std::string::npos) << tight.out;
  EXPECT_NE(tight.out.find("peak 300 bytes measured"), std::string::npos) << tight.out;
  EXPECT_EQ(tight.err, "");
  // Same outputs as without a budget.
  CliResult plain = tempo({"run", example("returns.tpo")});
  EXPECT_EQ(tight.out.substr(0, tight.out.find("memory budget")), plain.out.substr(0, plain.out.find("engine compiled")));
  // Below it: an error naming what cannot shrink, and no run.
  CliResult tiny = tempo({"run", example("returns.tpo"), "--memory-budget", "8"});
  EXPECT_EQ(tiny.code, 2);
  EXPECT_EQ(tiny.out, "");
  EXPECT_NE(tiny.err.find("--memory-budget 8: no schedule fits in 8 B: %10 fused at (t=0) needs 252 B at once: its "
                          "result 12 B, and its reads %0 r 120 B, %1 g 120 B"),
            std::string::npos)
      << tiny.err;
  CliResult schedule = tempo({"schedule", example("returns.tpo"), "--memory-budget", "8"});
  EXPECT_EQ(schedule.code, 2);
  EXPECT_NE(schedule.err.find("no schedule fits in 8 B"), std::string::npos) << schedule.err;
}

TEST(CliRun, BadMemoryBudgetIsUsageError) {
  for (const char* bad : {"lots", "-5", "12Q", "k"}) {
    CliResult r = tempo({"run", example("small/counter.tpo"), "--memory-budget", bad});
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("--memory-budget"), std::string::npos) << r.err;
  }
  CliResult reference = tempo({"run", example("small/counter.tpo"), "--memory-budget", "64k", "--engine", "reference"});
  EXPECT_EQ(reference.code, 2);
  EXPECT_NE(reference.err.find("needs the compiled engine"), std::string::npos) << reference.err;
}

TEST(CliRun, OutCreatesNestedDirectoryAndReportsFiles) {
  TempDir dir("nested_out");
  std::string out = dir.str("a/b/c");
  CliResult r = tempo({"run", example("small/running_sum.tpo"), "--out", out});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(savedShape(dir, "a/b/c/s"), (std::vector<int64_t>{4}));
  EXPECT_EQ(savedShape(dir, "a/b/c/w"), (std::vector<int64_t>{4}));
  EXPECT_NE(r.out.find("wrote "), std::string::npos) << r.out;
}

TEST(CliRun, SetChangesOutputShapes) {
  TempDir dir("set_counter");
  CliResult r = tempo({"run", "--set", "T=7", example("small/counter.tpo"), "--out", dir.str()});
  ASSERT_EQ(r.code, 0) << r.err;
  Tensor c = readNpy(dir.str("c.npy"));
  ASSERT_EQ(c.shape(), (std::vector<int64_t>{7}));
  EXPECT_EQ(c.at(6), 7.0);
}

// rnn.tpo with its input made generated instead of loaded, so any T works.
TEST(CliRun, SetChangesRecurrentOutputShapes) {
  TempDir dir("set_rnn");
  writeFile(dir.str("rnn.tpo"),
            "dim b < B\ndim t < T\nset B = 4, T = 16\nconst IN = 5, H = 8\n"
            "input x : f32[IN] over (b, t) = normal(seed=1)\n"
            "param W : f32[IN, H] = normal(seed=2, std=0.3)\n"
            "param U : f32[H, H] = normal(seed=3, std=0.3)\n"
            "param bias : f32[H] = zeros()\n"
            "h : f32[H] over (b, t)\n"
            "h[b, 0] = tanh(x[b, 0] @ W + bias)\n"
            "h[b, t] = tanh(x[b, t] @ W + h[b, t-1] @ U + bias)\n"
            "s = h[b, 0:T]\nout y = mean(s, dim=0)\nout h\n");
  CliResult r = tempo({"run", dir.str("rnn.tpo"), "--set", "T=5", "--set", "B=3", "--out", dir.str("out")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(savedShape(dir, "out/h"), (std::vector<int64_t>{3, 5, 8}));
  EXPECT_EQ(savedShape(dir, "out/y"), (std::vector<int64_t>{3, 8}));
  EXPECT_NE(r.out.find("h : f32[3, 5, 8] = ["), std::string::npos) << r.out;
}

TEST(CliRun, SetThatDisagreesWithLoadedDataIsAProgramError) {
  CliResult r = tempo({"run", example("rnn.tpo"), "--set", "T=5"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("'data/rnn/x.npy' has shape (4, 16, 5) but x over (b, t) needs (B, T, 5) = (4, 5, 5)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliRun, BadSetIsUsageError) {
  for (const std::string& set : {"Q=3", "T=0", "T=-2", "T=abc", "T=1.5", "T", "=3", "T=", "T=99999999999999999999"}) {
    CliResult r = tempo({"run", example("small/counter.tpo"), "--set", set});
    EXPECT_EQ(r.code, 2) << set << "\n" << r.err;
    EXPECT_FALSE(r.err.empty()) << set;
    EXPECT_TRUE(r.out.empty()) << set << "\n" << r.out;
  }
}

TEST(CliRun, EnginesCompiledAndReferenceAreAcceptedOthersAreNot) {
  EXPECT_EQ(tempo({"run", example("small/counter.tpo"), "--engine", "reference"}).code, 0);
  EXPECT_EQ(tempo({"run", example("small/counter.tpo"), "--engine", "compiled"}).code, 0);
  CliResult r = tempo({"run", example("small/counter.tpo"), "--engine", "llvm"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown engine"), std::string::npos) << r.err;
}

TEST(CliRun, MatmulF64GivesTheReferenceNumericsAndBadValuesAreUsageErrors) {
  // gpt_decode's matmuls (K up to 32): f64 accumulation equals the reference to
  // relative 1e-6; the default sgemm is only within the stated tolerance.
  TempDir f64("matmul_f64"), ref("matmul_ref");
  CliResult a = tempo({"run", example("gpt_decode.tpo"), "--matmul", "f64", "--out", f64.str()});
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(tempo({"run", example("gpt_decode.tpo"), "--engine", "reference", "--out", ref.str()}).code, 0);
  Tensor got = readNpy(f64.str("y.npy")), want = readNpy(ref.str("y.npy"));
  ASSERT_EQ(got.shape(), want.shape());
  for (int64_t i = 0; i < want.numel(); ++i)
    EXPECT_LE(std::abs(got.at(i) - want.at(i)), 1e-6 * std::abs(want.at(i)) + 1e-30) << "element " << i;
  CliResult bad = tempo({"run", example("small/counter.tpo"), "--matmul", "f16"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("expected f32 or f64"), std::string::npos) << bad.err;
  CliResult reference = tempo({"run", example("small/counter.tpo"), "--matmul", "f64", "--engine", "reference"});
  EXPECT_EQ(reference.code, 2);
  EXPECT_NE(reference.err.find("needs the compiled engine"), std::string::npos) << reference.err;
}

TEST(CliRun, ProgramWithErrorExitsOneWithDiagnostic) {
  TempDir dir("run_error");
  writeFile(dir.str("broken.tpo"), "dim t < T\nset T = 3\nout y = q[t] + 1.0\n");
  CliResult r = tempo({"run", dir.str("broken.tpo")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("broken.tpo:3:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("error:"), std::string::npos) << r.err;
}

TEST(CliRun, NonexistentFileIsAProgramError) {
  CliResult r = tempo({"run", "/nonexistent/nothing.tpo"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("cannot read file"), std::string::npos) << r.err;
}

TEST(CliRun, EvaluationFailureIsRuntimeFailure) {
  TempDir dir("run_eval_error");
  // Integer division by zero passes every check and fails in the kernel.
  writeFile(dir.str("empty.tpo"),
            "dim t < T\nset T = 3\ninput n : i64[] over (t) = zeros()\nout m = n / n\n");
  CliResult r = tempo({"run", dir.str("empty.tpo"), "--out", dir.str("out"), "--engine", "reference"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("evaluation failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("empty.tpo:4:"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.str("out/m.npy")));
  // The compiled engine (the default) names the node, its source line and the point.
  CliResult compiled = tempo({"run", dir.str("empty.tpo"), "--out", dir.str("out")});
  EXPECT_EQ(compiled.code, 3) << compiled.err;
  EXPECT_NE(compiled.err.find("execution failed: node %"), std::string::npos) << compiled.err;
  EXPECT_NE(compiled.err.find("'m'"), std::string::npos) << compiled.err;
  EXPECT_NE(compiled.err.find("empty.tpo:4:"), std::string::npos) << compiled.err;
  EXPECT_NE(compiled.err.find(", point ("), std::string::npos) << compiled.err;  // (t=0), or () once t is batched
  EXPECT_FALSE(std::filesystem::exists(dir.str("out/m.npy")));
}

TEST(CliRun, UnwritableOutIsRuntimeFailure) {
  TempDir dir("run_unwritable");
  writeFile(dir.str("afile"), "not a directory");
  CliResult r = tempo({"run", example("small/counter.tpo"), "--out", dir.str("afile")});
  EXPECT_EQ(r.code, 3);
  EXPECT_FALSE(r.err.empty());
}

}  // namespace
}  // namespace tempo::cli::test

namespace tempo::cli::test {
namespace {

// small/train_sgd.tpo: W0 = [1, 2, 3] pulled towards c = [0.5, -1, 2] by SGD
// with momentum 0.9 and lr 0.1 over I = 6 iterations; the saved W is the
// update at i = 5 (torch.optim.SGD's formula), W over i its trajectory.
TEST(CliRun, SaveParamsWritesTheParamsAfterTheLastUpdate) {
  std::vector<double> W{1, 2, 3}, c{0.5, -1, 2}, buf(3);
  std::vector<std::vector<double>> trajectory;
  for (int i = 0; i < 6; ++i) {
    trajectory.push_back(W);
    for (size_t k = 0; k < 3; ++k) {
      double g = 2 * (W[k] - c[k]);
      buf[k] = i == 0 ? g : 0.9 * buf[k] + g;
      W[k] -= 0.1 * buf[k];
    }
  }
  for (const std::string engine : {"reference", "compiled"}) {
    SCOPED_TRACE(engine);
    TempDir dir("save_params");
    CliResult r = tempo({"run", example("small/train_sgd.tpo"), "--engine", engine, "--out", dir.str("out"),
                         "--save-params", dir.str("params")});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("wrote " + dir.str("params/W.npy")), std::string::npos) << r.out;
    Tensor saved = readNpy(dir.str("params/W.npy"));
    ASSERT_EQ(saved.shape(), (std::vector<int64_t>{3}));
    for (int64_t k = 0; k < 3; ++k) EXPECT_NEAR(saved.at(k), W[static_cast<size_t>(k)], 1e-12) << k;
    Tensor over = readNpy(dir.str("out/W.npy"));
    ASSERT_EQ(over.shape(), (std::vector<int64_t>{6, 3}));
    for (int64_t k = 0; k < 18; ++k) EXPECT_NEAR(over.at(k), trajectory[static_cast<size_t>(k / 3)][static_cast<size_t>(k % 3)], 1e-12);
    EXPECT_FALSE(std::filesystem::exists(dir.str("out/W.final.npy"))) << "the final params go to --save-params only";
  }
}

TEST(CliRun, SaveParamsNeedsAnOptimizeStatement) {
  TempDir dir("save_params_none");
  CliResult r = tempo({"run", example("small/counter.tpo"), "--save-params", dir.str()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("has no optimize statement"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tempo::cli::test
