// Static tiling, differentially: programs with growing, suffix and sliding
// windows (tests/golden/passes/static-tiling, plus a GPT-style decoder with
// permutes and reshapes) are tiled with block sizes 1, 2, 3, 8 and the cost
// model's, and run at bounds below, at and above the block size (T = 1, a T
// that is not a multiple of it, T < BS). The tiled graph under the reference
// interpreter and the compiled engine (compiled once per block size, run at
// every bound) must equal the reference interpreter on the untiled graph
// (relative 1e-5, absolute 1e-6, as in CompiledDifferentialTest), every
// window must have been tiled, and no kernel may see a dynamic shape.
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "interp/ReferenceInterpreter.h"
#include "pass/PassRegistry.h"
#include "support/GoldenFiles.h"
#include "support/OutputCompare.h"
#include "tiling/StaticShapeCheck.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

const char* kDecoder = R"(
dim l < L
dim t < T
set L = 2, T = 6
const E = 8, NH = 2, D = 4, FF = 16
input x0 : f32[E] = normal(seed=1, std=1.0)
param Wq : f32[E, E] over (l) = normal(seed=2, std=0.3)
param Wk : f32[E, E] over (l) = normal(seed=3, std=0.3)
param Wv : f32[E, E] over (l) = normal(seed=4, std=0.3)
param Wo : f32[E, E] over (l) = normal(seed=5, std=0.3)
param W1 : f32[E, FF] over (l) = normal(seed=6, std=0.3)
param W2 : f32[FF, E] over (l) = normal(seed=7, std=0.3)
x : f32[E] over (l, t)
q = reshape(x[l, t] @ Wq[l], (NH, D))
k = reshape(x[l, t] @ Wk[l], (NH, D))
v = reshape(x[l, t] @ Wv[l], (NH, D))
Kp = permute(k[l, 0:t+1], (1, 2, 0))
Vp = permute(v[l, 0:t+1], (1, 0, 2))
scores = (reshape(q, (NH, 1, D)) @ Kp) / sqrt(D)
att = softmax(scores, dim=-1)
heads = reshape(att @ Vp, (E,))
a = x[l, t] + tanh(heads @ Wo[l])
y = a + tanh(relu(a @ W1[l]) @ W2[l])
x[0, 0] = x0
x[0, t] = y[L-1, t-1]
x[l, t] = y[l-1, t]
out y
)";

struct Program {
  std::string label, text;
};

std::vector<Program> programs() {
  std::vector<Program> out;
  for (const auto& path : testing::filesWithExtension(testing::sourceDir() / "tests" / "golden" / "passes" / "static-tiling", ".tpo"))
    out.push_back({path.filename().string(), testing::readFile(path)});
  out.push_back({"decoder", kDecoder});
  return out;
}

/// The program's bounds with its time bound set to `T`.
SymbolEnv boundsWithTime(const Graph& g, int64_t T) {
  std::string err;
  SymbolEnv env = *resolveBounds(g, {}, err);
  env["T"] = T;
  return env;
}

TEST(StaticTilingDifferential, TiledGraphsMatchTheUntiledReference) {
  for (const Program& p : programs()) {
    FrontendResult r = compileSource(p.text, p.label, ".");
    ASSERT_TRUE(r.ok()) << p.label << "\n" << r.renderedDiagnostics();
    for (int64_t bs : {0, 1, 2, 3, 8}) {  // 0: the cost model's
      std::string label = p.label + " with block size " + (bs ? std::to_string(bs) : "of the model");
      PassContext context;
      if (bs) context.options["block-size"] = std::to_string(bs);
      // Tiling in isolation: vectorisation runs first in the default pipeline and can batch
      // a window's reader through a reshape that merges the window axis (attention's
      // `K @ q` on a batched q), which tiling then leaves untiled (a documented limit).
      Pipeline pipeline = defaultPipeline();
      pipeline.disable("vectorisation");
      CompiledProgram compiled = compileProgram(r.graph, pipeline, context);
      bool tiled = false;
      for (const PassSnapshot& s : compiled.passes)
        if (s.passName == "static-tiling")
          for (const std::string& note : s.change.notes) {
            EXPECT_EQ(note.rfind("tiled ", 0), 0u) << label << ": " << note;
            tiled = true;
          }
      EXPECT_TRUE(tiled) << label << ": nothing tiled";
      EXPECT_TRUE(dynamicShapes(compiled.graph).empty()) << label << ": " << dynamicShapes(compiled.graph).front();
      for (int64_t T : {1, 2, 5, 8, 13}) {
        SCOPED_TRACE(label + " at T=" + std::to_string(T));
        SymbolEnv bounds = boundsWithTime(r.graph, T);
        auto want = ReferenceInterpreter(r.graph, InterpreterOptions{bounds}).evaluateOutputs();
        auto tiledRef = ReferenceInterpreter(compiled.graph, InterpreterOptions{bounds}).evaluateOutputs();
        EXPECT_EQ(testing::compareOutputs(tiledRef, want), "") << "reference interpreter on the tiled graph";
        CompiledRunResult got = runCompiled(compiled, bounds);
        EXPECT_EQ(testing::compareOutputs(got.outputs, want), "") << "compiled engine";
      }
    }
  }
}

}  // namespace
}  // namespace tempo
