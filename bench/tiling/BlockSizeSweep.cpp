// block_size_sweep: static tiling's block size against the executor's time.
//
// Compiles a GPT-style decoder (resources/examples/gpt_decode.tpo with
// random weights instead of .npy files, so that it runs at any T) once per
// block size with the compiled engine — the cost model's choice, then
// 1, 2, 4, ... up to T — runs each at the given T (default 256), and prints
// one row per block size: the blocks per step at the end, the statements
// run, the best run time of a few repeats and its ratio to the fastest size.
// The last line says how far the model's default is from the best.
//   usage: block_size_sweep [T] [repeats]
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "pass/PassRegistry.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {

const char* kDecoder = R"(
dim l < L
dim t < T
set L = 2, T = 8
const E = 16, NH = 2, D = 8, FF = 32
input x0 : f32[E] = normal(seed=1, std=1.0)
param Wq : f32[E, E] over (l) = normal(seed=2, std=0.25)
param Wk : f32[E, E] over (l) = normal(seed=3, std=0.25)
param Wv : f32[E, E] over (l) = normal(seed=4, std=0.25)
param Wo : f32[E, E] over (l) = normal(seed=5, std=0.25)
param W1 : f32[E, FF] over (l) = normal(seed=6, std=0.25)
param W2 : f32[FF, E] over (l) = normal(seed=7, std=0.25)
param g1 : f32[E] over (l) = uniform(seed=8, low=0.5, high=1.5)
param g2 : f32[E] over (l) = uniform(seed=9, low=0.5, high=1.5)
x : f32[E] over (l, t)
mu1 = mean(x[l, t], dim=-1)
xc1 = x[l, t] - mu1
var1 = mean(xc1 * xc1, dim=-1)
n1 = xc1 / sqrt(var1 + 1e-5) * g1[l]
q = reshape(n1 @ Wq[l], (NH, D))
k = reshape(n1 @ Wk[l], (NH, D))
v = reshape(n1 @ Wv[l], (NH, D))
Kp = permute(k[l, 0:t+1], (1, 2, 0))
Vp = permute(v[l, 0:t+1], (1, 0, 2))
scores = (reshape(q, (NH, 1, D)) @ Kp) / sqrt(D)
att = softmax(scores, dim=-1)
heads = reshape(att @ Vp, (E,))
a = x[l, t] + heads @ Wo[l]
mu2 = mean(a, dim=-1)
ac = a - mu2
var2 = mean(ac * ac, dim=-1)
n2 = ac / sqrt(var2 + 1e-5) * g2[l]
y = a + relu(n2 @ W1[l]) @ W2[l]
x[0, 0] = x0
x[0, t] = y[L-1, t-1]
x[l, t] = y[l-1, t]
out y
)";

struct Row {
  std::string size;
  int64_t blockSize = 0;
  int64_t blocks = 0;
  int64_t statements = 0;
  double seconds = 0;
};

/// The block size static tiling used (from its note), 0 if it tiled nothing.
int64_t tiledBlockSize(const tempo::CompiledProgram& p) {
  for (const auto& s : p.passes)
    for (const std::string& note : s.change.notes)
      if (auto at = note.find("into blocks of "); at != std::string::npos) return std::stoll(note.substr(at + 15));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tempo;
  const int64_t T = argc > 1 ? std::stoll(argv[1]) : 256;
  const int repeats = argc > 2 ? std::stoi(argv[2]) : 3;
  FrontendResult r = compileSource(kDecoder, "decoder.tpo", ".");
  if (!r.ok()) {
    std::cerr << r.renderedDiagnostics();
    return 1;
  }
  const SymbolEnv bounds{{"L", 2}, {"T", T}};
  std::vector<int64_t> sizes{0};  // 0: the cost model's choice
  for (int64_t bs = 1; bs <= T; bs *= 2) sizes.push_back(bs);
  std::vector<Row> rows;
  for (int64_t bs : sizes) {
    PassContext context;
    context.boundHints = bounds;
    if (bs) context.options["block-size"] = std::to_string(bs);
    CompiledProgram program = compileProgram(r.graph, defaultPipeline(), context);
    Row row{bs ? std::to_string(bs) : "model", tiledBlockSize(program), 0, 0, 1e30};
    for (int k = 0; k < repeats; ++k) {
      CompiledRunResult run = runCompiled(program, bounds);
      row.seconds = std::min(row.seconds, run.stats.seconds);
      row.statements = run.stats.execs;
    }
    row.blocks = (T + row.blockSize - 1) / std::max<int64_t>(row.blockSize, 1);
    rows.push_back(row);
  }
  double best = 1e30;
  for (const Row& row : rows) best = std::min(best, row.seconds);
  std::printf("GPT decoder, L=2, T=%lld, best of %d runs\n", static_cast<long long>(T), repeats);
  std::printf("%-8s %6s %8s %12s %10s %8s\n", "size", "BS", "blocks", "statements", "run ms", "vs best");
  for (const Row& row : rows)
    std::printf("%-8s %6lld %8lld %12lld %10.2f %7.2fx\n", row.size.c_str(), static_cast<long long>(row.blockSize),
                static_cast<long long>(row.blocks), static_cast<long long>(row.statements), row.seconds * 1e3,
                row.seconds / best);
  std::printf("the model's block size %lld is %.1f%% slower than the best\n",
              static_cast<long long>(rows.front().blockSize), (rows.front().seconds / best - 1) * 100);
  return 0;
}
