// Strided views (Tensor::permutedView / expandedView) and the kernels that read
// them in place: every such kernel gives the same bits on a view as on its
// contiguous copy (the executor relies on it: a view and a copy must be
// interchangeable), a view shares its input's buffer, and a view read as a
// contiguous array throws instead of giving elements in the wrong order.
#include "kernels/ReferenceKernels.h"
#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/Fused.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tempo {
namespace {

Tensor counting(DType dtype, std::vector<int64_t> shape, double scale = 0.37) {
  Tensor t(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, std::sin(scale * static_cast<double>(i + 1)) * 3.0);
  return t;
}

std::vector<int64_t> swapLastTwo(int64_t rank) {
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d) perm.push_back(d);
  std::swap(perm[rank - 1], perm[rank - 2]);
  return perm;
}

void expectSameBits(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  for (int64_t i = 0; i < got.numel(); ++i) {
    double a = got.at(i), b = want.at(i);
    if (std::isnan(a) && std::isnan(b)) continue;
    ASSERT_EQ(a, b) << what << " at " << i;
  }
}

TEST(StridedView, APermutedViewSharesTheBufferAndReadsThePermutedElements) {
  Tensor x = counting(DType::F32, {2, 3, 4});
  Tensor v = x.permutedView({2, 0, 1});
  EXPECT_EQ(v.shape(), (std::vector<int64_t>{4, 2, 3}));
  EXPECT_FALSE(v.isContiguous());
  EXPECT_TRUE(v.sharesBufferWith(x));
  EXPECT_EQ(v.strides(), (std::vector<int64_t>{1, 12, 4}));
  Tensor c = v.contiguous();
  EXPECT_TRUE(c.isContiguous());
  EXPECT_FALSE(c.sharesBufferWith(x));
  for (int64_t k = 0; k < 4; ++k)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j) {
        double want = x.at(i * 12 + j * 4 + k);
        EXPECT_EQ(v.at(k * 6 + i * 3 + j), want);
        EXPECT_EQ(c.at(k * 6 + i * 3 + j), want);
      }
  EXPECT_THROW(v.data<float>(), std::logic_error);
  EXPECT_THROW(v.permutedView({0, 0, 1}), std::invalid_argument);
  // A view of a window (element 0 not at the buffer's start): rows of it are copied from the right place.
  Tensor wv = x.window(12, {3, 4}).permutedView({1, 0});  // [4, 3] of the second [3, 4] block
  Tensor row = wv.viewAt({2});
  for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(row.at(j), x.at(12 + j * 4 + 2));
  // Permuting back, or moving only axes of size 1, is contiguous again.
  EXPECT_TRUE(v.permutedView({1, 2, 0}).isContiguous());
  EXPECT_TRUE(counting(DType::F32, {1, 5}).permutedView({1, 0}).isContiguous());
}

TEST(StridedView, AnExpandedViewRepeatsWithStrideZeroAndTheSameBuffer) {
  Tensor a = counting(DType::F64, {3});
  Tensor e = a.expandedView({4, 3});
  EXPECT_EQ(e.numel(), 12);
  EXPECT_EQ(e.bufferBytes(), a.bufferBytes());
  EXPECT_EQ(e.strides(), (std::vector<int64_t>{0, 1}));
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 3; ++c) EXPECT_EQ(e.at(r * 3 + c), a.at(c));
  EXPECT_THROW(a.expandedView({4, 2}), std::invalid_argument);
  // Anything that needs the elements in a row copies them first.
  Tensor r = e.reshaped({12});
  EXPECT_TRUE(r.isContiguous());
  EXPECT_EQ(r.at(7), a.at(1));
  Tensor s = Tensor::stack({e, e}, DType::F64, {4, 3});
  EXPECT_EQ(s.at(12 + 5), a.at(2));
}

TEST(StridedView, EveryKernelThatReadsViewsGivesTheBitsItGivesOnACopy) {
  Tensor x = counting(DType::F32, {3, 5, 4});
  Tensor p = x.permutedView({1, 2, 0});  // [5, 4, 3], no contiguous axis
  Tensor pc = p.contiguous();
  Tensor y = counting(DType::F32, {5, 4, 3}, 0.11);
  Tensor b = counting(DType::F32, {3}, 0.5);
  Tensor e = b.expandedView({5, 4, 3});
  Tensor ec = e.contiguous();
  Tensor mask = cpu::evalOp(OpKind::Gt, {}, {y, pc}, DType::Bool, {5, 4, 3});
  const std::vector<int64_t> shape{5, 4, 3};
  for (OpKind op : {OpKind::Tanh, OpKind::Exp, OpKind::Neg, OpKind::Sqrt, OpKind::Abs}) {
    expectSameBits(cpu::evalOp(op, {}, {p}, DType::F32, shape), cpu::evalOp(op, {}, {pc}, DType::F32, shape),
                   std::string(opName(op)) + " of a permuted view");
    expectSameBits(cpu::evalOp(op, {}, {e}, DType::F32, shape), cpu::evalOp(op, {}, {ec}, DType::F32, shape),
                   std::string(opName(op)) + " of an expanded view");
  }
  for (OpKind op : {OpKind::Add, OpKind::Mul, OpKind::Sub, OpKind::Maximum, OpKind::Lt}) {
    DType out = op == OpKind::Lt ? DType::Bool : DType::F32;
    expectSameBits(cpu::evalOp(op, {}, {p, e}, out, shape), cpu::evalOp(op, {}, {pc, ec}, out, shape),
                   std::string(opName(op)) + " of two views");
    expectSameBits(cpu::evalOp(op, {}, {y, p}, out, shape), cpu::evalOp(op, {}, {y, pc}, out, shape),
                   std::string(opName(op)) + " of an array and a view");
  }
  expectSameBits(cpu::evalOp(OpKind::Where, {}, {mask, p, e}, DType::F32, shape),
                 cpu::evalOp(OpKind::Where, {}, {mask, pc, ec}, DType::F32, shape), "where of views");
  for (OpKind op : {OpKind::ReduceSum, OpKind::ReduceMax})
    for (std::vector<int64_t> axes : {std::vector<int64_t>{0}, {1}, {2}, {0, 2}, {1, 2}, {0, 1, 2}}) {
      OpAttrs attrs;
      attrs.axes = axes;
      std::vector<int64_t> out;
      for (int64_t d = 0; d < 3; ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) out.push_back(shape[static_cast<size_t>(d)]);
      expectSameBits(cpu::evalOp(op, attrs, {p}, DType::F32, out), cpu::evalOp(op, attrs, {pc}, DType::F32, out),
                     std::string(opName(op)) + " of a permuted view over " + std::to_string(axes.size()) + " axes");
      expectSameBits(cpu::evalOp(op, attrs, {e}, DType::F32, out), cpu::evalOp(op, attrs, {ec}, DType::F32, out),
                     std::string(opName(op)) + " of an expanded view");
    }
  // A fused program (in0 * in1 + 2) over a view and an array.
  std::vector<FusedStep> program{
      {OpKind::Mul, {{FusedOperand::Kind::Input, 0}, {FusedOperand::Kind::Input, 1}}, DType::F32},
      {OpKind::Add, {{FusedOperand::Kind::Step, 0}, {FusedOperand::Kind::Literal, 0, 2.0, DType::F32}}, DType::F32}};
  std::optional<Tensor> viewed = cpu::fused(program, {p, y}, DType::F32, shape);
  std::optional<Tensor> copied = cpu::fused(program, {pc, y}, DType::F32, shape);
  ASSERT_TRUE(viewed && copied);
  expectSameBits(*viewed, *copied, "fused over a view");
  // A kernel that needs contiguous operands gets a copy: matmul of a transposed view.
  Tensor m = counting(DType::F32, {4, 3});
  Tensor w = counting(DType::F32, {4, 2}, 0.2);
  expectSameBits(cpu::evalOp(OpKind::MatMul, {}, {m.permutedView({1, 0}), w}, DType::F32, {3, 2}),
                 cpu::evalOp(OpKind::MatMul, {}, {m.permutedView({1, 0}).contiguous(), w}, DType::F32, {3, 2}),
                 "matmul of a transposed view");
}

TEST(StridedView, AMatmulReadsTransposedOperandsInPlaceWithTheReferencesResult) {
  // Shapes of a weight gradient (x^T @ g), a backward product (h @ W^T), both flags, a
  // batched product, and the single-row and single-column GEMV cases, in f32 and f64.
  struct Case {
    std::vector<int64_t> a, b;  // as stored (before the transpose flags)
    bool ta, tb;
  };
  const std::vector<Case> cases = {{{64, 48}, {64, 32}, true, false}, {{40, 24}, {56, 24}, false, true},
                                   {{33, 17}, {9, 33}, true, true},   {{3, 16, 8}, {3, 16, 5}, true, false},
                                   {{7, 1}, {7, 6}, true, false},     {{5, 7}, {1, 7}, false, true}};
  for (DType dtype : {DType::F32, DType::F64})
    for (const Case& c : cases) {
      Tensor a = counting(dtype, c.a, 0.13), b = counting(dtype, c.b, 0.29);
      OpAttrs attrs;
      if (c.ta) attrs.permA = swapLastTwo(a.rank());
      if (c.tb) attrs.permB = swapLastTwo(b.rank());
      Tensor ta = c.ta ? a.transposedView().contiguous() : a, tb = c.tb ? b.transposedView().contiguous() : b;
      std::vector<int64_t> shape(ta.shape().begin(), ta.shape().end() - 1);
      shape.push_back(tb.shape().back());
      Tensor want = ref::evalOp(OpKind::MatMul, {}, {ta, tb}, dtype, shape);
      Tensor ref = ref::evalOp(OpKind::MatMul, attrs, {a, b}, dtype, want.shape());
      expectSameBits(ref, want, "the reference with transpose flags");
      Tensor got = cpu::evalOp(OpKind::MatMul, attrs, {a, b}, dtype, want.shape());
      ASSERT_EQ(got.shape(), want.shape());
      for (int64_t i = 0; i < got.numel(); ++i)
        ASSERT_NEAR(got.at(i), want.at(i), 1e-4 * (1.0 + std::fabs(want.at(i)))) << dtypeName(dtype) << " case " << shapeString(c.a) << " at " << i;
    }
}

TEST(StridedView, AMatmulReadsPermutedBatchedOperandsWithTheReferencesResult) {
  // Decode's attention per head out of a block of the KV cache stored [BS, B, NH, D]: scores
  // q @ K with K = the block permuted to [B, NH, D, BS] (a transposed operand, leading
  // dimension B*NH*D, batch strides NH*D and D), then p @ V with V = [B, NH, BS, D] (row-major,
  // the same leading dimension); and a permutation that leaves neither matrix axis with unit
  // stride, which the GEMM gets as a copy. f32 and f64; the reference permutes, then multiplies.
  struct Case {
    std::vector<int64_t> a, b, permA, permB, out;
  };
  const std::vector<Case> cases = {{{3, 4, 1, 8}, {16, 3, 4, 8}, {}, {1, 2, 3, 0}, {3, 4, 1, 16}},
                                   {{3, 4, 1, 16}, {16, 3, 4, 8}, {}, {1, 2, 0, 3}, {3, 4, 1, 8}},
                                   {{5, 2, 3}, {4, 5, 3}, {}, {1, 2, 0}, {5, 2, 4}},
                                   {{8, 2, 5}, {2, 8, 7}, {1, 2, 0}, {}, {2, 5, 7}},
                                   {{6, 3, 5, 2}, {5, 4}, {3, 1, 0, 2}, {}, {2, 3, 6, 4}}};
  for (DType dtype : {DType::F32, DType::F64})
    for (const Case& c : cases) {
      Tensor a = counting(dtype, c.a, 0.13), b = counting(dtype, c.b, 0.29);
      OpAttrs attrs;
      attrs.permA = c.permA;
      attrs.permB = c.permB;
      Tensor pa = c.permA.empty() ? a : a.permutedView(c.permA).contiguous();
      Tensor pb = c.permB.empty() ? b : b.permutedView(c.permB).contiguous();
      const std::vector<int64_t>& shape = c.out;
      Tensor want = ref::evalOp(OpKind::MatMul, {}, {pa, pb}, dtype, shape);
      expectSameBits(ref::evalOp(OpKind::MatMul, attrs, {a, b}, dtype, shape), want, "the reference with permutations");
      Tensor got = cpu::evalOp(OpKind::MatMul, attrs, {a, b}, dtype, shape);
      ASSERT_EQ(got.shape(), want.shape());
      for (int64_t i = 0; i < got.numel(); ++i)
        ASSERT_NEAR(got.at(i), want.at(i), 1e-4 * (1.0 + std::fabs(want.at(i))))
            << dtypeName(dtype) << " case " << shapeString(c.a) << " @ " << shapeString(c.b) << " at " << i;
    }
}

}  // namespace
}  // namespace tempo
