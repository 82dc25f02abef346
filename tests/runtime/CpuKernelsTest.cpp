// Differential tests of the fast CPU kernels (cpu::evalOp) against the
// reference kernels on random tensors: every op, ranks 0-4, broadcasting,
// scalars, empty dimensions and sizes above the parallel threshold.
// Tolerances (see CpuKernels.h for why): bit-identical except
//  - f32 exp/tanh/sigmoid: at most 1 ulp;
//  - reduce_sum over a reduced innermost run: |d| <= 1 ulp + 1e-15 * n * max|x|;
//  - matmul: |d| <= 2 K eps_f32 sum_k |a_ik b_kj| (sgemm, the default, needs
//    the full bound; f64 accumulation is far inside: it is the harness's
//    tolerance / 100 at K = 4096).
#include "kernels/Broadcast.h"
#include "kernels/KernelParts.h"
#include "kernels/ReferenceKernels.h"
#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/Matmul.h"
#include "support/OutputCompare.h"

#include <gtest/gtest.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <tuple>

namespace tempo {
namespace {

using Shape = std::vector<int64_t>;

Tensor randomTensor(DType dtype, const Shape& shape, std::mt19937& rng, bool specials = false) {
  Tensor t(dtype, shape);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> small(-50, 50);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (dtype == DType::Bool) t.set(i, small(rng) > 0);
    else if (isInteger(dtype)) t.set(i, small(rng));
    else t.set(i, normal(rng) * std::ldexp(1.0, small(rng) / 10));
  }
  if (specials && isFloat(dtype)) {
    const double values[] = {0.0, -0.0, std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(), std::nan(""), 1e-30, 100.0, -100.0};
    for (int64_t i = 0; i < t.numel() && i < 8; ++i) t.set(i * 7 % t.numel(), values[i]);
  }
  return t;
}

/// Distance in units in the last place between two floats (0 when both NaN).
int64_t ulpDistance(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (a == b) return 0;
  int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if ((ia < 0) != (ib < 0)) return std::numeric_limits<int64_t>::max();
  return std::abs(int64_t(ia) - int64_t(ib));
}

/// Runs `op` through both kernel libraries; `tol(i, cpu, ref)` says whether element i is close enough.
void expectSame(OpKind op, const OpAttrs& attrs, const std::vector<Tensor>& in, const Tensor& expected,
                const std::function<bool(int64_t, double, double)>& close = {}, const cpu::KernelOptions& options = {}) {
  Tensor got = cpu::evalOp(op, attrs, in, expected.dtype(), expected.shape(), options);
  ASSERT_EQ(got.dtype(), expected.dtype());
  ASSERT_EQ(got.shape(), expected.shape());
  std::string what = std::string(opName(op)) + " on " + shapeString(in[0].shape()) +
                     (in.size() > 1 ? " and " + shapeString(in[1].shape()) : "") + " " +
                     std::string(dtypeName(in[0].dtype()));
  int failures = 0;
  for (int64_t i = 0; i < got.numel() && failures < 5; ++i) {
    double g = got.at(i), e = expected.at(i);
    bool ok = (std::isnan(g) && std::isnan(e)) || g == e || (close && close(i, g, e));
    if (!ok) ++failures;
    EXPECT_TRUE(ok) << what << " at " << i << ": cpu " << g << " ref " << e;
  }
}

Tensor refOp(OpKind op, const OpAttrs& attrs, const std::vector<Tensor>& in, DType dtype, const Shape& shape) {
  return ref::evalOp(op, attrs, in, dtype, shape);
}

const std::vector<Shape> kShapes = {{}, {0}, {1}, {7}, {3, 5}, {2, 3, 4}, {2, 1, 3, 5}, {0, 4}, {40000}, {64, 1024}};
const DType kAllTypes[] = {DType::F32, DType::F64, DType::I32, DType::I64, DType::Bool};

bool definedUnary(OpKind op, DType t) {
  if (t == DType::Bool) return op == OpKind::Not;
  if (isInteger(t)) return op == OpKind::Neg || op == OpKind::Relu || op == OpKind::Abs;
  return op != OpKind::Not;
}

TEST(CpuKernels, UnaryMatchesReference) {
  std::mt19937 rng(1);
  const OpKind ops[] = {OpKind::Neg, OpKind::Exp, OpKind::Log, OpKind::Sqrt, OpKind::Tanh,
                        OpKind::Sigmoid, OpKind::Relu, OpKind::Abs, OpKind::Not};
  for (OpKind op : ops)
    for (DType t : kAllTypes) {
      if (!definedUnary(op, t)) continue;
      for (const Shape& s : kShapes) {
        Tensor x = randomTensor(t, s, rng, true);
        Tensor e = refOp(op, {}, {x}, t, s);
        bool fastMath = t == DType::F32 && (op == OpKind::Exp || op == OpKind::Tanh || op == OpKind::Sigmoid);
        expectSame(op, {}, {x}, e, [&](int64_t, double g, double r) { return fastMath && ulpDistance(float(g), float(r)) <= 1; });
      }
    }
}

TEST(CpuKernels, FastMathIsWithinOneUlpOnAWideRange) {
  Tensor x(DType::F32, {200001});
  for (int64_t i = 0; i < x.numel(); ++i) x.set(i, (i - 100000) * 1e-3);  // [-100, 100]
  for (OpKind op : {OpKind::Exp, OpKind::Tanh, OpKind::Sigmoid}) {
    Tensor e = refOp(op, {}, {x}, DType::F32, x.shape());
    Tensor g = cpu::evalOp(op, {}, {x}, DType::F32, x.shape());
    int64_t off = 0;
    for (int64_t i = 0; i < x.numel(); ++i) {
      int64_t d = ulpDistance(g.data<float>()[i], e.data<float>()[i]);
      EXPECT_LE(d, 1) << opName(op) << "(" << x.at(i) << ")";
      off += d != 0;
    }
    // All three evaluate in float (FastMath.h). Over every float, none is more than 1 ulp off;
    // on this grid 5.6% of exp's and 4.7% of sigmoid's results are 1 ulp off (0.24% and 1.7%
    // of all floats), tanh's 0.13% of all positive floats (docs/compiler.md).
    EXPECT_LE(off, x.numel() / (op == OpKind::Tanh ? 200 : 16)) << opName(op) << ": too many 1-ulp differences";
  }
}

const std::vector<std::pair<Shape, Shape>> kBinaryShapes = {
    {{}, {}},         {{3, 5}, {3, 5}},   {{}, {3, 5}},        {{3, 5}, {}},       {{3, 5}, {5}},
    {{3, 1}, {3, 5}}, {{2, 1, 4}, {3, 1}}, {{2, 3, 1, 5}, {1, 3, 4, 1}}, {{0, 3}, {3}}, {{0}, {}},
    {{64, 1024}, {1024}}, {{64, 1}, {64, 1024}}, {{40000}, {40000}}, {{1, 1}, {1}}};

TEST(CpuKernels, BinaryMatchesReference) {
  std::mt19937 rng(2);
  const OpKind ops[] = {OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::Div, OpKind::Pow, OpKind::Maximum,
                        OpKind::Minimum, OpKind::Lt, OpKind::Le, OpKind::Gt, OpKind::Ge, OpKind::Eq,
                        OpKind::Ne, OpKind::And, OpKind::Or};
  for (OpKind op : ops)
    for (DType t : kAllTypes) {
      bool logical = op == OpKind::And || op == OpKind::Or;
      bool arith = !isComparison(op) && !logical && op != OpKind::Maximum && op != OpKind::Minimum;
      if ((t == DType::Bool && arith) || (t != DType::Bool && logical)) continue;
      for (const auto& [sa, sb] : kBinaryShapes) {
        Tensor a = randomTensor(t, sa, rng, true), b = randomTensor(t, sb, rng, true);
        if (isInteger(t) && (op == OpKind::Div || op == OpKind::Pow))  // no division by 0, no negative powers
          for (int64_t i = 0; i < b.numel(); ++i) b.set(i, std::abs(int64_t(b.at(i))) % 5 + (op == OpKind::Div));
        Shape s = ref::broadcastShapes(sa, sb);
        DType rt = isComparison(op) ? DType::Bool : t;
        expectSame(op, {}, {a, b}, refOp(op, {}, {a, b}, rt, s));
      }
    }
}

TEST(CpuKernels, WhereMatchesReference) {
  std::mt19937 rng(3);
  const std::vector<std::vector<Shape>> cases = {{{}, {}, {}},           {{3, 5}, {3, 5}, {3, 5}}, {{3, 1}, {5}, {}},
                                                 {{2, 1, 4}, {3, 1}, {4}}, {{0, 2}, {2}, {}},       {{64, 1024}, {64, 1024}, {1024}}};
  for (DType t : kAllTypes)
    for (const auto& c : cases) {
      Tensor cond = randomTensor(DType::Bool, c[0], rng), a = randomTensor(t, c[1], rng), b = randomTensor(t, c[2], rng);
      Shape s = ref::broadcastShapes(ref::broadcastShapes(c[0], c[1]), c[2]);
      expectSame(OpKind::Where, {}, {cond, a, b}, refOp(OpKind::Where, {}, {cond, a, b}, t, s));
    }
}

TEST(CpuKernels, ReduceMatchesReferenceOverEveryAxisSet) {
  std::mt19937 rng(4);
  const std::vector<Shape> shapes = {{}, {5}, {0}, {3, 4}, {2, 3, 4}, {2, 1, 3, 17}, {3, 0, 2}, {300, 1000}, {4, 50, 300}};
  for (DType t : kAllTypes)
    for (const Shape& s : shapes)
      for (uint32_t mask = 0; mask < (1u << s.size()); ++mask)
        for (bool keep : {false, true})
          for (OpKind op : {OpKind::ReduceSum, OpKind::ReduceMax}) {
            if (t == DType::Bool && op == OpKind::ReduceSum) continue;
            OpAttrs attrs;
            attrs.keepDims = keep;
            Shape out;
            for (size_t d = 0; d < s.size(); ++d) {
              if (mask >> d & 1) attrs.axes.push_back(int64_t(d));
              if (!(mask >> d & 1)) out.push_back(s[d]);
              else if (keep) out.push_back(1);
            }
            Tensor x = randomTensor(t, s, rng);
            double scale = 0;  // n * max|x|: the bound on a reordering error of an f64 sum
            for (int64_t i = 0; i < x.numel(); ++i) scale = std::max(scale, std::fabs(x.at(i)));
            scale *= double(x.numel());
            expectSame(op, attrs, {x}, refOp(op, attrs, {x}, t, out), [&](int64_t, double g, double r) {
              if (op != OpKind::ReduceSum || !isFloat(t)) return false;
              double ulp = t == DType::F32 ? std::ldexp(1.0, -23) : std::ldexp(1.0, -52);
              return std::fabs(g - r) <= ulp * std::fabs(r) + 1e-15 * scale;
            });
          }
}

TEST(CpuKernels, PermuteExpandSliceCatReshapeMatchReference) {
  std::mt19937 rng(5);
  for (DType t : kAllTypes) {
    for (const Shape& s : std::vector<Shape>{{}, {4}, {3, 5}, {2, 3, 4}, {2, 0, 3}, {2, 3, 1, 5}, {64, 1024}}) {
      Tensor x = randomTensor(t, s, rng);
      std::vector<int64_t> perm(s.size());
      for (size_t i = 0; i < perm.size(); ++i) perm[i] = int64_t(i);
      do {
        OpAttrs attrs;
        attrs.perm = perm;
        Shape out;
        for (int64_t p : perm) out.push_back(s[p]);
        expectSame(OpKind::Permute, attrs, {x}, refOp(OpKind::Permute, attrs, {x}, t, out));
      } while (std::next_permutation(perm.begin(), perm.end()));
    }
    for (const auto& [from, to] : std::vector<std::pair<Shape, Shape>>{
             {{}, {3, 4}}, {{4}, {3, 4}}, {{3, 1}, {3, 4}}, {{1, 3, 1}, {2, 3, 5}}, {{2, 1}, {0, 2, 7}}, {{1024}, {64, 1024}}}) {
      Tensor x = randomTensor(t, from, rng);
      OpAttrs attrs;
      for (int64_t d : to) attrs.shape.push_back(IndexExpr(d));
      expectSame(OpKind::Expand, attrs, {x}, refOp(OpKind::Expand, attrs, {x}, t, to));
    }
    Tensor x = randomTensor(t, {4, 6, 3}, rng), y = randomTensor(t, {4, 2, 3}, rng);
    OpAttrs slice;
    slice.axis = 1, slice.start = IndexExpr(int64_t(1)), slice.stop = IndexExpr(int64_t(5));
    expectSame(OpKind::Slice, slice, {x}, refOp(OpKind::Slice, slice, {x}, t, {4, 4, 3}));
    OpAttrs cat;
    cat.axis = 1;
    expectSame(OpKind::Cat, cat, {x, y}, refOp(OpKind::Cat, cat, {x, y}, t, {4, 8, 3}));
    OpAttrs reshape;
    Tensor r = cpu::evalOp(OpKind::Reshape, reshape, {x}, t, {12, 6});
    EXPECT_EQ(r.raw(), x.raw()) << "reshape shares the buffer";
    EXPECT_EQ(cpu::evalOp(OpKind::Identity, {}, {x}, t, x.shape()).raw(), x.raw());
    expectSame(OpKind::Cast, {.dtype = DType::F64}, {x}, refOp(OpKind::Cast, {.dtype = DType::F64}, {x}, DType::F64, x.shape()));
  }
}

/// A slice that is one contiguous run is a window on the input's buffer: the
/// reference's values, no copy, and windows of windows, clones and kernels
/// reading a window see exactly its elements.
TEST(CpuKernels, ContiguousSlicesAreWindowsWithTheReferenceValues) {
  std::mt19937 rng(8);
  auto sliceAttrs = [](int64_t axis, int64_t start, int64_t stop) {
    OpAttrs a;
    a.axis = axis, a.start = IndexExpr(start), a.stop = IndexExpr(stop);
    return a;
  };
  for (DType t : kAllTypes) {
    Tensor x = randomTensor(t, {5, 3, 4}, rng);
    size_t esize = dtypeSize(t);
    for (auto [axis, start, stop] : std::vector<std::array<int64_t, 3>>{{0, 2, 3}, {0, 1, 4}, {0, 0, 5}, {0, 5, 5}}) {
      Shape out = {stop - start, 3, 4};
      Tensor want = refOp(OpKind::Slice, sliceAttrs(axis, start, stop), {x}, t, out);
      Tensor got = cpu::evalOp(OpKind::Slice, sliceAttrs(axis, start, stop), {x}, t, out);
      EXPECT_EQ(got.raw(), static_cast<const std::byte*>(x.raw()) + start * 12 * esize) << "a window, not a copy";
      ASSERT_EQ(got.shape(), want.shape());
      EXPECT_EQ(std::memcmp(got.raw(), want.raw(), want.nbytes()), 0) << dtypeName(t);
    }
    // [1, 3, 4] out of axis 0, then rows 1:3 of it (axis 1: the axis before has size 1): a window of a window.
    Tensor row = cpu::evalOp(OpKind::Slice, sliceAttrs(0, 3, 4), {x}, t, {1, 3, 4});
    Tensor inner = cpu::evalOp(OpKind::Slice, sliceAttrs(1, 1, 3), {row}, t, {1, 2, 4});
    Tensor want = refOp(OpKind::Slice, sliceAttrs(1, 1, 3), {refOp(OpKind::Slice, sliceAttrs(0, 3, 4), {x}, t, {1, 3, 4})}, t, {1, 2, 4});
    EXPECT_EQ(inner.raw(), static_cast<const std::byte*>(x.raw()) + (3 * 12 + 4) * esize);
    EXPECT_EQ(std::memcmp(inner.raw(), want.raw(), want.nbytes()), 0);
    Tensor copy = inner.clone();
    EXPECT_NE(copy.raw(), inner.raw());
    EXPECT_EQ(std::memcmp(copy.raw(), want.raw(), want.nbytes()), 0);
    if (t != DType::Bool)  // a kernel reading a window sees only its elements
      expectSame(OpKind::Add, {}, {inner, inner}, refOp(OpKind::Add, {}, {want, want}, t, {1, 2, 4}));
    // Not one run (axis 1 of [5, 3, 4]): the reference's copy.
    Tensor strided = cpu::evalOp(OpKind::Slice, sliceAttrs(1, 1, 2), {x}, t, {5, 1, 4});
    EXPECT_EQ(std::memcmp(strided.raw(), refOp(OpKind::Slice, sliceAttrs(1, 1, 2), {x}, t, {5, 1, 4}).raw(),
                          strided.nbytes()), 0);
  }
  Tensor x(DType::F32, {4, 2});
  EXPECT_THROW(x.window(7, {1, 2}), std::out_of_range);
  EXPECT_THROW(cpu::evalOp(OpKind::Slice, sliceAttrs(0, 3, 5), {x}, DType::F32, {2, 2}), std::invalid_argument);
}

/// Every rank combination 1-4 x 1-4, with broadcast batch dims; returns the worst |d| / bound seen.
double checkMatmul(DType t, int64_t m, int64_t k, int64_t n, std::mt19937& rng, cpu::MatmulAccumulation acc) {
  const std::vector<Shape> batches = {{}, {3}, {1}, {2, 3}, {2, 1}};
  double worst = 0;
  for (int ra = 1; ra <= 4; ++ra)
    for (int rb = 1; rb <= 4; ++rb)
      for (const Shape& ba : batches)
        for (const Shape& bb : batches) {
          if (ba.size() != size_t(std::max(ra - 2, 0)) || bb.size() != size_t(std::max(rb - 2, 0))) continue;
          Shape sa = ba, sb = bb;
          if (ra == 1) sa = {k};
          else sa.insert(sa.end(), {m, k});
          if (rb == 1) sb = {k};
          else sb.insert(sb.end(), {k, n});
          Tensor a = randomTensor(t, sa, rng), b = randomTensor(t, sb, rng);
          Tensor e = ref::detail::evalMatMul(a, b);
          Tensor absA = a.converted(DType::F64), absB = b.converted(DType::F64);  // bound: 2 K eps sum|a||b|
          if (isFloat(t)) {
            for (int64_t i = 0; i < absA.numel(); ++i) absA.set(i, std::fabs(absA.at(i)));
            for (int64_t i = 0; i < absB.numel(); ++i) absB.set(i, std::fabs(absB.at(i)));
          }
          Tensor bound = isFloat(t) ? ref::detail::evalMatMul(absA, absB) : absA;
          double eps = t == DType::F32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
          expectSame(OpKind::MatMul, {}, {a, b}, e, [&](int64_t i, double g, double r) {
            if (!isFloat(t)) return false;
            double allowed = 2 * double(k) * eps * bound.at(i) + 1e-300;
            worst = std::max(worst, std::fabs(g - r) / allowed);
            return std::fabs(g - r) <= allowed;
          }, {acc});
        }
  return worst;
}

TEST(CpuKernels, MatmulEveryRankCombination) {
  std::mt19937 rng(6);
  for (auto acc : {cpu::MatmulAccumulation::F64, cpu::MatmulAccumulation::F32}) {
    for (DType t : kAllTypes) {
      if (t == DType::Bool) continue;
      for (auto [m, k, n] : std::vector<std::array<int64_t, 3>>{{2, 3, 4}, {1, 5, 1}, {3, 1, 2}, {0, 3, 2}, {2, 0, 3}, {2, 3, 0}})
        checkMatmul(t, m, k, n, rng, acc);
    }
  }
}

/// The compiled-vs-reference harness's stated tolerance (support/OutputCompare.h)
/// holds for sgemm, the default, with a margin at the test programs' K <= 32,
/// and for f64 accumulation at any K. On data in [-1, 1] sgemm leaves it from
/// K ~ 256 (measured here and printed; quoted in docs/compiler.md), which is why
/// larger programs are compared by checksums (bench_checksums, rtol 1e-4).
TEST(CpuKernels, MatmulWithinTheDifferentialTolerance) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto acc : {cpu::MatmulAccumulation::F64, cpu::MatmulAccumulation::F32}) {
    for (int64_t k : {4, 16, 32, 256, 1024, 4096}) {
      Tensor a(DType::F32, {32, k}), b(DType::F32, {k, 64});
      for (int64_t i = 0; i < a.numel(); ++i) a.data<float>()[i] = u(rng);
      for (int64_t i = 0; i < b.numel(); ++i) b.data<float>()[i] = u(rng);
      Tensor e = ref::detail::evalMatMul(a, b);
      Tensor g = cpu::evalOp(OpKind::MatMul, {}, {a, b}, DType::F32, e.shape(), {acc});
      double worst = 0, worstAbs = 0;
      int64_t differ = 0;
      for (int64_t i = 0; i < e.numel(); ++i) {
        double d = std::fabs(g.at(i) - e.at(i));
        worst = std::max(worst, d / (testing::kAbsTolerance + testing::kRelTolerance * std::fabs(e.at(i))));
        worstAbs = std::max(worstAbs, d);
        differ += d != 0;
      }
      bool f64 = acc == cpu::MatmulAccumulation::F64;
      std::printf("%s K=%lld: max |cpu - ref| = %.3g, worst ratio to the harness tolerance = %.3g, %lld of %lld differ\n",
                  f64 ? "f64-accumulating" : "sgemm", static_cast<long long>(k), worstAbs, worst,
                  static_cast<long long>(differ), static_cast<long long>(e.numel()));
      if (f64) EXPECT_LE(worst, 0.01) << "K = " << k;
      if (k <= 32) EXPECT_LE(worst, 0.5) << "K = " << k;
    }
  }
}

TEST(CpuKernels, RowsTimesColumnPanelsMatchTheReferenceOnAnyThreadCount) {
  // x [M, K] @ panels [P, K, 64] (weight-panels' product): one libxsmm kernel per panel, the
  // panels split between the cores. Each panel is one thread's product, so one thread and
  // all of them give the same bits; both are within the harness's tolerance of the reference.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto [m, k, p] : {std::tuple<int64_t, int64_t, int64_t>{8, 512, 32}, {3, 2048, 8}, {32, 64, 4}}) {
    Tensor a(DType::F32, {m, k}), b(DType::F32, {p, k, 64});
    for (int64_t i = 0; i < a.numel(); ++i) a.data<float>()[i] = u(rng);
    for (int64_t i = 0; i < b.numel(); ++i) b.data<float>()[i] = u(rng);
    Tensor want = ref::detail::evalMatMul(a, b);
    ASSERT_EQ(want.shape(), (std::vector<int64_t>{p, m, 64}));
    Tensor all = cpu::evalOp(OpKind::MatMul, {}, {a, b}, DType::F32, want.shape());
    for (int64_t i = 0; i < want.numel(); ++i)
      ASSERT_LE(std::fabs(all.at(i) - want.at(i)), testing::kAbsTolerance + testing::kRelTolerance * std::sqrt(double(k)) * std::fabs(want.at(i)) + 1e-5)
          << m << "x" << k << " @ " << p << " panels, at " << i;
#ifdef _OPENMP
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    Tensor one = cpu::evalOp(OpKind::MatMul, {}, {a, b}, DType::F32, want.shape());
    omp_set_num_threads(threads);
    for (int64_t i = 0; i < want.numel(); ++i) ASSERT_EQ(one.at(i), all.at(i)) << "at " << i;
#endif
  }
}

TEST(CpuKernels, ErrorsAreTheReferencesErrors) {
  Tensor f(DType::F32, {2, 3}), i(DType::I32, {2, 3}), g(DType::F32, {4});
  auto message = [](const std::function<Tensor()>& f) -> std::string {
    try {
      f();
    } catch (const std::invalid_argument& ex) {
      return ex.what();
    }
    return "no error";
  };
  auto same = [&](OpKind op, std::vector<Tensor> in, DType t, Shape s, OpAttrs attrs = {}) {
    std::string want = message([&] { return ref::evalOp(op, attrs, in, t, s); });
    EXPECT_NE(want, "no error");
    EXPECT_EQ(message([&] { return cpu::evalOp(op, attrs, in, t, s); }), want);
  };
  same(OpKind::Add, {f, i}, DType::F32, {2, 3});
  same(OpKind::Add, {f, g}, DType::F32, {2, 3});
  same(OpKind::Add, {f, f}, DType::F32, {3, 2});
  same(OpKind::MatMul, {f, f}, DType::F32, {2, 3});
  same(OpKind::Exp, {i}, DType::I32, {2, 3});
  same(OpKind::ReduceSum, {f}, DType::F32, {2}, {.axes = {1, 0}});
  same(OpKind::Permute, {f}, DType::F32, {3, 2}, {.perm = {0, 0}});
  EXPECT_THROW(cpu::evalOp(OpKind::Div, {}, {i, Tensor(DType::I32, {2, 3})}, DType::I32, {2, 3}), std::domain_error);
}

TEST(CpuKernels, SmallGemmsAreTheProductsBelowTwoToTheNineteenWithTwoRowsAndColumns) {
  EXPECT_TRUE(cpu::isSmallGemm(16, 64, 64));     // REINFORCE's hidden layer at N = 16
  EXPECT_TRUE(cpu::isSmallGemm(4, 8, 5));        // resources/examples/rnn.tpo
  EXPECT_FALSE(cpu::isSmallGemm(8, 256, 256));   // 2^19: both cores through oneDNN
  EXPECT_FALSE(cpu::isSmallGemm(32, 256, 256));  // a step's h @ U
  EXPECT_FALSE(cpu::isSmallGemm(1, 64, 64));     // GEMVs go to OpenBLAS
  EXPECT_FALSE(cpu::isSmallGemm(64, 1, 64));
  cpu::prepareSmallGemm();  // idempotent, and the products it prepares still compute
  cpu::prepareSmallGemm();
  Tensor a(DType::F32, {2, 3}), b(DType::F32, {3, 2});
  for (int64_t i = 0; i < 6; ++i) a.set(i, double(i)), b.set(i, double(i % 3));
  std::optional<Tensor> c = cpu::matmul(a, b, cpu::MatmulAccumulation::F32);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->at(0), 0 * 0 + 1 * 2 + 2 * 1);  // row 0 of a = (0, 1, 2), column 0 of b = (0, 2, 1)
}

}  // namespace
}  // namespace tempo
