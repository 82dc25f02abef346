// Values computed by the reference interpreter on small hand-built graphs,
// checked against hand-computed numbers.
#include "InterpTestGraphs.h"

#include "init/Initializers.h"
#include "interp/ReferenceInterpreter.h"
#include "npy/Npy.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <unistd.h>

namespace tempo {
namespace {

using namespace interp_test;
using Rel = Constraint::Rel;

const IndexExpr t = dim("t");
const IndexExpr T = bound("T");

/// g[t] = r[T - 1] if t == T - 1 else r[t] + 0.5 * g[t + 1], with r[t] = t.
NodeId buildDiscountedFuture(Graph& g) {
  g.dims = {{"t", "T"}};
  NodeId r = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t), "r");
  NodeId half = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(0.5));
  NodeId scaled = addNode(g, OpKind::Mul, {"t"}, f32());
  NodeId sum = addNode(g, OpKind::Add, {"t"}, f32());
  NodeId ret = addNode(g, OpKind::Merge, {"t"}, f32(), {}, "g");
  addEdge(g, scaled, 0, half, {});
  addEdge(g, scaled, 1, ret, {at(t + 1)});
  addEdge(g, sum, 0, r, {at(t)});
  addEdge(g, sum, 1, scaled, {at(t)});
  addEdge(g, ret, 0, r, {at(T - 1)}, when(t, Rel::Eq, T - 1));
  addEdge(g, ret, 1, sum, {at(t)}, when(t, Rel::Lt, T - 1));
  g.outputs = {{"g", ret, {}}};
  return ret;
}

std::vector<float> discountedFuture(int64_t steps) {
  std::vector<float> out(steps);
  out[steps - 1] = static_cast<float>(steps - 1);
  for (int64_t i = steps - 2; i >= 0; --i) out[i] = static_cast<float>(i) + 0.5f * out[i + 1];
  return out;
}

std::filesystem::path freshTempDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  auto dir = std::filesystem::temp_directory_path() /
             ("tempo_interp_" + std::string(info->name()) + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

Tensor f32Tensor(std::vector<int64_t> shape, const std::vector<double>& values) {
  Tensor out(DType::F32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) out.set(static_cast<int64_t>(i), values[i]);
  return out;
}

void expectValues(const Tensor& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.numel(), static_cast<int64_t>(expected.size())) << actual.summary();
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_FLOAT_EQ(actual.at(static_cast<int64_t>(i)), expected[i]) << "at flat index " << i;
}

TEST(ReferenceInterpreter, CounterCountsUp) {
  Graph g;
  NodeId c = buildCounter(g).c;
  ReferenceInterpreter interp(g, {{{"T", 5}}});
  EXPECT_EQ(interp.valueAt(c, {3}).at(0), 4.0);
  Tensor all = interp.evaluateOutput(g.outputs[0]);
  EXPECT_EQ(all.shape(), (std::vector<int64_t>{5}));
  expectValues(all, {1, 2, 3, 4, 5});
  EXPECT_EQ(interp.valueAt(c, {0}).dtype(), DType::F32);
}

TEST(ReferenceInterpreter, OptionsOverrideBoundDefaults) {
  Graph g;
  buildCounter(g);
  g.boundDefaults["T"] = 3;
  ReferenceInterpreter withDefault(g, {});
  EXPECT_EQ(withDefault.evaluateOutput(g.outputs[0]).shape(), (std::vector<int64_t>{3}));
  ReferenceInterpreter overridden(g, {{{"T", 4}}});
  expectValues(overridden.evaluateOutput(g.outputs[0]), {1, 2, 3, 4});
}

TEST(ReferenceInterpreter, MemoisesEachPointOnce) {
  Graph g;
  NodeId c = buildCounter(g).c;
  ReferenceInterpreter interp(g, {{{"T", 10}}});
  interp.valueAt(c, {9});
  size_t afterFirst = interp.pointsEvaluated();
  // c at 10 points, inc at 9 points, the constant once.
  EXPECT_EQ(afterFirst, 10u + 9u + 1u);
  interp.evaluateOutputs();
  EXPECT_EQ(interp.pointsEvaluated(), afterFirst);
}

TEST(ReferenceInterpreter, RunningSumOverHashInit) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::HashInit, {"t"}, f32({3}), hashAttrs(7, 1.0), "x");
  NodeId add = addNode(g, OpKind::Add, {"t"}, f32({3}));
  NodeId s = addNode(g, OpKind::Merge, {"t"}, f32({3}), {}, "s");
  addEdge(g, add, 0, s, {at(t - 1)});
  addEdge(g, add, 1, x, {at(t)});
  addEdge(g, s, 0, x, {at(0)}, when(t, Rel::Eq, 0));
  addEdge(g, s, 1, add, {at(t)}, when(t, Rel::Ge, 1));
  g.outputs = {{"s", s, {}}};

  const int64_t steps = 6;
  ReferenceInterpreter interp(g, {{{"T", steps}}});
  Tensor out = interp.evaluateOutput(g.outputs[0]);
  ASSERT_EQ(out.shape(), (std::vector<int64_t>{steps, 3}));
  std::vector<float> acc(3, 0.0f);
  for (int64_t i = 0; i < steps; ++i)
    for (int64_t j = 0; j < 3; ++j) {
      float xv = hashInitValue(static_cast<uint64_t>(i * 3 + j), 7, 1.0);
      acc[j] = i == 0 ? xv : acc[j] + xv;
      EXPECT_EQ(static_cast<float>(out.at(i * 3 + j)), acc[j]) << "t=" << i << " j=" << j;
    }
}

TEST(ReferenceInterpreter, RunningSumOverLoadedArray) {
  auto dir = freshTempDir();
  std::string path = (dir / "x.npy").string();
  writeNpy(path, f32Tensor({4, 2}, {1, 10, 2, 20, 3, 30, 4, 40}));
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::Load, {"t"}, f32({2}), loadAttrs(path), "x");
  NodeId add = addNode(g, OpKind::Add, {"t"}, f32({2}));
  NodeId s = addNode(g, OpKind::Merge, {"t"}, f32({2}), {}, "s");
  addEdge(g, add, 0, s, {at(t - 1)});
  addEdge(g, add, 1, x, {at(t)});
  addEdge(g, s, 0, x, {at(0)}, when(t, Rel::Eq, 0));
  addEdge(g, s, 1, add, {at(t)}, when(t, Rel::Ge, 1));
  g.outputs = {{"s", s, {}}};
  ReferenceInterpreter interp(g, {{{"T", 4}}});
  Tensor out = interp.evaluateOutput(g.outputs[0]);
  EXPECT_EQ(out.shape(), (std::vector<int64_t>{4, 2}));
  expectValues(out, {1, 10, 3, 30, 6, 60, 10, 100});
  std::filesystem::remove_all(dir);
}

TEST(ReferenceInterpreter, FutureReadDiscountedReturn) {
  Graph g;
  buildDiscountedFuture(g);
  ReferenceInterpreter interp(g, {{{"T", 4}}});
  // g[3] = 3; g[2] = 2 + 1.5 = 3.5; g[1] = 1 + 1.75 = 2.75; g[0] = 0 + 1.375.
  expectValues(interp.evaluateOutput(g.outputs[0]), {1.375, 2.75, 3.5, 3});
}

TEST(ReferenceInterpreter, GrowingWindowReduceSum) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t), "x");
  NodeId window = addNode(g, OpKind::Identity, {"t"}, f32({t + 1}), {}, "window");
  NodeId s = addNode(g, OpKind::ReduceSum, {"t"}, f32(), reduceAttrs({0}), "s");
  addEdge(g, window, 0, x, {range(0, t + 1)});
  addEdge(g, s, 0, window, {at(t)});
  g.outputs = {{"s", s, {}}};
  ReferenceInterpreter interp(g, {{{"T", 5}}});
  const Tensor& w3 = interp.valueAt(window, {3});
  EXPECT_EQ(w3.shape(), (std::vector<int64_t>{4}));
  expectValues(w3, {0, 1, 2, 3});
  expectValues(interp.evaluateOutput(g.outputs[0]), {0, 1, 3, 6, 10});
}

TEST(ReferenceInterpreter, SlidingWindowWithMax) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t), "x");
  IndexExpr lo = IndexExpr::max(0, t - 2);
  NodeId window = addNode(g, OpKind::Identity, {"t"}, f32({t + 1 - lo}), {}, "window");
  NodeId s = addNode(g, OpKind::ReduceSum, {"t"}, f32(), reduceAttrs({0}), "s");
  addEdge(g, window, 0, x, {range(lo, t + 1)});
  addEdge(g, s, 0, window, {at(t)});
  g.outputs = {{"s", s, {}}};
  ReferenceInterpreter interp(g, {{{"T", 6}}});
  expectValues(interp.valueAt(window, {0}), {0});
  expectValues(interp.valueAt(window, {1}), {0, 1});
  expectValues(interp.valueAt(window, {5}), {3, 4, 5});
  expectValues(interp.evaluateOutput(g.outputs[0]), {0, 1, 3, 6, 9, 12});
}

TEST(ReferenceInterpreter, EmptySliceGivesZeroSizedLeadingDim) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::HashInit, {"t"}, f32({2}), hashAttrs(1, 1.0), "x");
  NodeId past = addNode(g, OpKind::Identity, {"t"}, f32({t, 2}), {}, "past");
  NodeId s = addNode(g, OpKind::ReduceSum, {"t"}, f32({2}), reduceAttrs({0}), "s");
  addEdge(g, past, 0, x, {range(0, t)});
  addEdge(g, s, 0, past, {at(t)});
  ReferenceInterpreter interp(g, {{{"T", 3}}});
  EXPECT_EQ(interp.valueAt(past, {0}).shape(), (std::vector<int64_t>{0, 2}));
  expectValues(interp.valueAt(s, {0}), {0, 0});
  EXPECT_EQ(interp.valueAt(past, {2}).shape(), (std::vector<int64_t>{2, 2}));
}

TEST(ReferenceInterpreter, TwoDomainsWithSharedParamAndMatMul) {
  Graph g;
  g.dims = {{"b", "B"}, {"t", "T"}};
  const IndexExpr b = dim("b");
  NodeId x = addNode(g, OpKind::HashInit, {"b", "t"}, f32({2}), hashAttrs(11, 1.0), "x");
  NodeId w = addNode(g, OpKind::HashInit, {}, f32({2, 2}), hashAttrs(3, 0.5), "W");
  NodeId y = addNode(g, OpKind::MatMul, {"b", "t"}, f32({2}), {}, "y");
  NodeId rows = addNode(g, OpKind::Identity, {"b"}, f32({T, 2}), {}, "rows");
  addEdge(g, y, 0, x, {at(b), at(t)});
  addEdge(g, y, 1, w, {});
  addEdge(g, rows, 0, x, {at(b), range(0, T)});
  g.outputs = {{"y", y, {}}, {"rows", rows, {}}};

  const int64_t B = 2, steps = 3;
  ReferenceInterpreter interp(g, {{{"B", B}, {"T", steps}}});
  auto outputs = interp.evaluateOutputs();
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].first, "y");
  EXPECT_EQ(outputs[1].first, "rows");
  const Tensor& out = outputs[0].second;
  ASSERT_EQ(out.shape(), (std::vector<int64_t>{B, steps, 2}));
  auto xv = [&](int64_t bi, int64_t ti, int64_t k) {
    return hashInitValue(static_cast<uint64_t>((bi * steps + ti) * 2 + k), 11, 1.0);
  };
  auto wv = [&](int64_t k, int64_t j) { return hashInitValue(static_cast<uint64_t>(k * 2 + j), 3, 0.5); };
  for (int64_t bi = 0; bi < B; ++bi)
    for (int64_t ti = 0; ti < steps; ++ti)
      for (int64_t j = 0; j < 2; ++j) {
        double sum = double(xv(bi, ti, 0)) * wv(0, j) + double(xv(bi, ti, 1)) * wv(1, j);
        EXPECT_FLOAT_EQ(out.at((bi * steps + ti) * 2 + j), static_cast<float>(sum));
      }
  // rows[b] = x[b, 0:T] stacks the T points along a new leading axis: shape (T, 2).
  const Tensor& rows1 = interp.valueAt(rows, {1});
  ASSERT_EQ(rows1.shape(), (std::vector<int64_t>{steps, 2}));
  for (int64_t ti = 0; ti < steps; ++ti)
    for (int64_t k = 0; k < 2; ++k) EXPECT_EQ(static_cast<float>(rows1.at(ti * 2 + k)), xv(1, ti, k));
  EXPECT_EQ(outputs[1].second.shape(), (std::vector<int64_t>{B, steps, 2}));
}

TEST(ReferenceInterpreter, MatMulOfLoadedMatrices) {
  auto dir = freshTempDir();
  writeNpy((dir / "a.npy").string(), f32Tensor({2, 2}, {1, 2, 3, 4}));
  writeNpy((dir / "b.npy").string(), f32Tensor({2, 2}, {5, 6, 7, 8}));
  Graph g;
  NodeId a = addNode(g, OpKind::Load, {}, f32({2, 2}), loadAttrs((dir / "a.npy").string()));
  NodeId bm = addNode(g, OpKind::Load, {}, f32({2, 2}), loadAttrs((dir / "b.npy").string()));
  NodeId c = addNode(g, OpKind::MatMul, {}, f32({2, 2}), {}, "c");
  addEdge(g, c, 0, a, {});
  addEdge(g, c, 1, bm, {});
  g.outputs = {{"c", c, {}}};
  ReferenceInterpreter interp(g, {});
  Tensor out = interp.evaluateOutput(g.outputs[0]);
  EXPECT_EQ(out.shape(), (std::vector<int64_t>{2, 2}));
  expectValues(out, {19, 22, 43, 50});
  std::filesystem::remove_all(dir);
}

TEST(ReferenceInterpreter, EvalIndexUsesPointAndBounds) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId e = addNode(g, OpKind::EvalIndex, {"t"}, i64(), indexAttrs(int64_t{2} * t + T), "e");
  ReferenceInterpreter interp(g, {{{"T", 10}}});
  const Tensor& v = interp.valueAt(e, {3});
  EXPECT_EQ(v.dtype(), DType::I64);
  EXPECT_TRUE(v.shape().empty());
  EXPECT_EQ(v.data<int64_t>()[0], 16);
}

TEST(ReferenceInterpreter, RandomParamDiffersPerDomainPoint) {
  Graph g;
  g.dims = {{"l", "L"}};
  OpAttrs attrs;
  attrs.seed = 5;
  attrs.a = 0.0;
  attrs.b = 1.0;
  NodeId p = addNode(g, OpKind::RandomNormal, {"l"}, f32({4}), attrs, "p");
  ReferenceInterpreter interp(g, {{{"L", 3}}});
  Tensor whole = normalInit(DType::F32, {3, 4}, 5, 0.0, 1.0);
  for (int64_t l = 0; l < 3; ++l) {
    const Tensor& v = interp.valueAt(p, {l});
    ASSERT_EQ(v.shape(), (std::vector<int64_t>{4}));
    for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(v.at(j), whole.at(l * 4 + j));
  }
  EXPECT_NE(interp.valueAt(p, {0}).at(0), interp.valueAt(p, {1}).at(0));
}

TEST(ReferenceInterpreter, DeepRecurrenceDoesNotOverflowTheStack) {
  Graph g;
  NodeId c = buildCounter(g).c;
  const int64_t steps = 200000;
  ReferenceInterpreter interp(g, {{{"T", steps}}});
  EXPECT_EQ(interp.valueAt(c, {steps - 1}).at(0), static_cast<double>(steps));
  EXPECT_EQ(interp.pointsEvaluated(), static_cast<size_t>(2 * steps));
}

TEST(ReferenceInterpreter, DeepFutureReadDoesNotOverflowTheStack) {
  Graph g;
  NodeId ret = buildDiscountedFuture(g);
  const int64_t steps = 200000;
  ReferenceInterpreter interp(g, {{{"T", steps}}});
  std::vector<float> expected = discountedFuture(steps);
  EXPECT_FLOAT_EQ(interp.valueAt(ret, {0}).at(0), expected[0]);
  EXPECT_FLOAT_EQ(interp.valueAt(ret, {steps / 2}).at(0), expected[steps / 2]);
}

TEST(ReferenceInterpreter, ProgressCallbackReportsPoints) {
  Graph g;
  NodeId c = buildCounter(g).c;
  ReferenceInterpreter interp(g, {{{"T", 100}}});
  std::vector<size_t> reports;
  interp.setProgressCallback([&](size_t done) { reports.push_back(done); }, 50);
  interp.valueAt(c, {99});
  EXPECT_EQ(reports, (std::vector<size_t>{50, 100, 150, 200}));
}

TEST(ReferenceInterpreter, CancelFlagStopsEvaluation) {
  Graph g;
  NodeId c = buildCounter(g).c;
  ReferenceInterpreter interp(g, {{{"T", 100000}}});
  std::atomic<bool> cancel{true};
  interp.setCancelFlag(&cancel);
  EXPECT_THROW(
      {
        try {
          interp.valueAt(c, {99999});
        } catch (const EvalError& e) {
          EXPECT_STREQ(e.what(), "cancelled");
          throw;
        }
      },
      EvalError);
  cancel = false;
  EXPECT_EQ(interp.valueAt(c, {9}).at(0), 10.0);  // still usable afterwards
}

}  // namespace
}  // namespace tempo
