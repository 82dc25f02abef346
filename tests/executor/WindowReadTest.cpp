// Slices that keep a window of their producer (WindowReads) and source arrays
// handed to a run by its caller: the same outputs bit for bit as copying and
// building, the measured peak equal to the predicted one, the lifetime rule
// refusing a producer freed before its slice, and a given array of the wrong
// shape refused with the node named.
#include "executor/CompiledEngine.h"
#include "executor/ExecError.h"
#include "frontend/Frontend.h"
#include "init/SourceArray.h"
#include "pass/PassRegistry.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tempo {
namespace {

// rnn_peer's shape at a small size: vectorisation hoists x @ W over every
// step, and each step reads its slice of the product.
constexpr const char* kRnn = R"(
dim t < T
dim b < B
set T = 6, B = 3
input x : f32[8] over (t, b) = hash(key=1, scale=1.0)
param W : f32[8, 8] = hash(key=2, scale=0.3)
param U : f32[8, 8] = hash(key=3, scale=0.3)
h : f32[8] over (t, b)
h[0, b] = tanh(x[0, b] @ W)
h[t, b] = tanh(x[t, b] @ W + h[t-1, b] @ U)
out y = sum(h[0:T, b], dim=0)
)";

CompiledProgram compile(const std::string& text) {
  FrontendResult r = compileSource(text, "rnn.tpo", ".");
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  return compileProgram(r.graph, defaultPipeline());
}

bool sameBits(const std::vector<std::pair<std::string, Tensor>>& a, const std::vector<std::pair<std::string, Tensor>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].second.shape() != b[i].second.shape()) return false;
    for (int64_t k = 0; k < a[i].second.numel(); ++k)
      if (a[i].second.at(k) != b[i].second.at(k)) return false;
  }
  return true;
}

TEST(WindowReads, TheHoistedProductsSliceKeepsAWindowWithTheSameOutputsAndAPredictedPeak) {
  CompiledProgram p = compile(kRnn);
  ASSERT_EQ(p.windowReads.size(), 1u) << printWindowReads(p.graph, p.windowReads);
  EXPECT_EQ(p.graph.node(p.windowReads[0].holder).op, OpKind::Slice);
  EXPECT_EQ(p.graph.node(p.windowReads[0].producer).op, OpKind::MatMul);
  for (int64_t T : {6, 40}) {
    SymbolEnv bounds{{"T", T}, {"B", 3}};
    CompiledRunResult windows = runCompiled(p, bounds, CompiledRunOptions{});
    CompiledProgram copying = p;
    copying.windowReads.clear();
    CompiledRunResult copies = runCompiled(copying, bounds, CompiledRunOptions{});
    EXPECT_TRUE(sameBits(windows.outputs, copies.outputs)) << "T=" << T;
    EXPECT_EQ(windows.stats.peakBytes, windows.predictedBytes) << "T=" << T;
    EXPECT_EQ(copies.stats.peakBytes, copies.predictedBytes) << "T=" << T;
    EXPECT_LE(windows.stats.peakBytes, copies.stats.peakBytes) << "T=" << T;
  }
}

TEST(WindowReads, AProducerFreedBeforeItsSliceIsReadIsCopied) {
  CompiledProgram p = compile(kRnn);
  ASSERT_EQ(p.windowReads.size(), 1u);
  const NodeId producer = p.windowReads[0].producer;
  // Move the producer's free to just after its alloc: the slice's statements now lie outside its lifetime.
  LoopBody& top = p.loops.body;
  auto isFree = [&](const LoopStmt& s) { return s.as<FreeStmt>() && s.as<FreeStmt>()->node == producer; };
  auto isAlloc = [&](const LoopStmt& s) { return s.as<AllocStmt>() && s.as<AllocStmt>()->node == producer; };
  auto free = std::find_if(top.begin(), top.end(), isFree);
  ASSERT_NE(free, top.end()) << "the product is freed at the top level";
  LoopStmt moved = *free;
  top.erase(free);
  auto alloc = std::find_if(top.begin(), top.end(), isAlloc);
  ASSERT_NE(alloc, top.end());
  top.insert(alloc + 1, moved);
  EXPECT_TRUE(windowReads(p.graph, p.loops, p.stores).empty());
  // A producer that keeps only its latest point replaces what a window holds: no window either.
  CompiledProgram q = compile(kRnn);
  q.stores[producer] = StoreSpec::point("test");
  EXPECT_TRUE(windowReads(q.graph, q.loops, q.stores).empty());
}

TEST(GivenSourceArrays, ARunUsesTheCallersArraysAndRefusesOneOfAnotherShape) {
  CompiledProgram p = compile(kRnn);
  SymbolEnv bounds = p.graph.withDerivedBounds({{"T", 6}, {"B", 3}});
  std::map<NodeId, Tensor> arrays = buildSourceArrays(p.graph, bounds);
  ASSERT_FALSE(arrays.empty());
  CompiledRunOptions given;
  given.sourceArrays = &arrays;
  CompiledRunResult built = runCompiled(p, {{"T", 6}, {"B", 3}}, CompiledRunOptions{});
  CompiledRunResult used = runCompiled(p, {{"T", 6}, {"B", 3}}, given);
  EXPECT_TRUE(sameBits(built.outputs, used.outputs));
  EXPECT_EQ(built.stats.peakBytes, used.stats.peakBytes);

  auto& [id, array] = *arrays.begin();
  std::vector<int64_t> wrong = array.shape();
  wrong.back() += 1;
  array = Tensor(array.dtype(), wrong);
  try {
    runCompiled(p, {{"T", 6}, {"B", 3}}, given);
    FAIL() << "an array of the wrong shape was used";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("the array given for it"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("%" + std::to_string(id)), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tempo
