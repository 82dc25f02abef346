#include "KernelTestUtil.h"

#include <limits>

namespace tempo {
namespace {

using namespace tempo::testing;

Tensor matmul(const Tensor& a, const Tensor& b, const std::vector<int64_t>& outShape) {
  return run(OpKind::MatMul, {a, b}, a.dtype(), outShape);
}

Tensor iota(DType dtype, std::vector<int64_t> shape, double start = 1) {
  Tensor t(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, start + i);
  return t;
}

TEST(MatMulKernel, VectorVectorIsScalar) {
  expectTensor(matmul(f32({3}, {1, 2, 3}), f32({3}, {4, 5, 6}), {}), DType::F32, {}, {32});
}

TEST(MatMulKernel, VectorMatrix) {
  // [1 2] @ [[1 2 3], [4 5 6]] = [9 12 15]
  expectTensor(matmul(f32({2}, {1, 2}), iota(DType::F32, {2, 3}), {3}), DType::F32, {3}, {9, 12, 15});
}

TEST(MatMulKernel, MatrixVector) {
  // [[1 2 3], [4 5 6]] @ [1 0 -1] = [-2 -2]
  expectTensor(matmul(iota(DType::F32, {2, 3}), f32({3}, {1, 0, -1}), {2}), DType::F32, {2}, {-2, -2});
}

TEST(MatMulKernel, MatrixMatrix) {
  // [[1 2], [3 4]] @ [[5 6], [7 8]] = [[19 22], [43 50]]
  expectTensor(matmul(f32({2, 2}, {1, 2, 3, 4}), f32({2, 2}, {5, 6, 7, 8}), {2, 2}), DType::F32, {2, 2},
               {19, 22, 43, 50});
  expectTensor(matmul(iota(DType::F64, {1, 3}), iota(DType::F64, {3, 1}), {1, 1}), DType::F64, {1, 1}, {14});
}

TEST(MatMulKernel, BatchedWithSharedRightOperand) {
  // batch 0: I @ B = B; batch 1: 2I @ B = 2B.
  Tensor a = f32({2, 2, 2}, {1, 0, 0, 1, 2, 0, 0, 2});
  Tensor b = f32({2, 2}, {1, 2, 3, 4});
  expectTensor(matmul(a, b, {2, 2, 2}), DType::F32, {2, 2, 2}, {1, 2, 3, 4, 2, 4, 6, 8});
  expectTensor(matmul(b, a, {2, 2, 2}), DType::F32, {2, 2, 2}, {1, 2, 3, 4, 2, 4, 6, 8});
}

TEST(MatMulKernel, BatchDimsBroadcast) {
  // a: [2, 1, 1, 2] (two row vectors), b: [3, 2, 1] (three column vectors) -> [2, 3, 1, 1].
  Tensor a = f32({2, 1, 1, 2}, {1, 2, 3, 4});
  Tensor b = f32({3, 2, 1}, {1, 0, 0, 1, 1, 1});
  expectTensor(matmul(a, b, {2, 3, 1, 1}), DType::F32, {2, 3, 1, 1}, {1, 2, 3, 3, 4, 7});
}

TEST(MatMulKernel, VectorWithBatchedOperands) {
  Tensor batch = iota(DType::F32, {2, 2, 3});  // [[1 2 3][4 5 6]], [[7 8 9][10 11 12]]
  expectTensor(matmul(batch, f32({3}, {1, 0, 1}), {2, 2}), DType::F32, {2, 2}, {4, 10, 16, 22});
  expectTensor(matmul(f32({2}, {1, -1}), batch, {2, 3}), DType::F32, {2, 3}, {-3, -3, -3, -3, -3, -3});
}

TEST(MatMulKernel, EmptyContractionGivesZeros) {
  expectTensor(matmul(f32({2, 0}, {}), f32({0, 2}, {}), {2, 2}), DType::F32, {2, 2}, {0, 0, 0, 0});
}

TEST(MatMulKernel, F32AccumulatesInDoubleAndRoundsOnce) {
  // In float, ((1e8 + 1) - 1e8) would be 0; the reference sums in double.
  expectTensor(matmul(f32({3}, {1e8, 1, -1e8}), f32({3}, {1, 1, 1}), {}), DType::F32, {}, {1});
}

TEST(MatMulKernel, IntegerAndBool) {
  expectTensor(matmul(i64({2, 2}, {1, 2, 3, 4}), i64({2}, {-1, 1}), {2}), DType::I64, {2}, {1, 1});
  Tensor wrap = matmul(make(DType::I32, {2}, {65536, 65536}), make(DType::I32, {2}, {65536, 1}), {});
  EXPECT_EQ(wrap.at(0), 65536.0);  // 2^32 wraps to 0, plus 2^16
  expectTensor(matmul(boolean({2, 2}, {1, 0, 0, 0}), boolean({2, 2}, {1, 1, 1, 1}), {2, 2}), DType::Bool, {2, 2},
               {1, 1, 0, 0});
}

TEST(MatMulKernel, Errors) {
  EXPECT_THROW(matmul(f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2}), {2}), std::invalid_argument);
  EXPECT_THROW(matmul(f32({}, {1}), f32({1}, {1}), {}), std::invalid_argument);
  EXPECT_THROW(matmul(iota(DType::F32, {2, 1, 1}), iota(DType::F32, {3, 1, 1}), {3, 1, 1}), std::invalid_argument);
  EXPECT_THROW(matmul(f32({2}, {1, 2}), f32({2}, {1, 2}), {1}), std::invalid_argument);  // declared shape
}

Tensor reduce(OpKind op, const Tensor& x, std::vector<int64_t> axes, bool keepDims, const std::vector<int64_t>& outShape) {
  OpAttrs attrs;
  attrs.axes = std::move(axes);
  attrs.keepDims = keepDims;
  return run(op, {x}, x.dtype(), outShape, attrs);
}

TEST(ReduceKernels, SumOverOneAxis) {
  Tensor x = iota(DType::F32, {2, 3});  // [[1 2 3], [4 5 6]]
  expectTensor(reduce(OpKind::ReduceSum, x, {1}, false, {2}), DType::F32, {2}, {6, 15});
  expectTensor(reduce(OpKind::ReduceSum, x, {1}, true, {2, 1}), DType::F32, {2, 1}, {6, 15});
  expectTensor(reduce(OpKind::ReduceSum, x, {0}, false, {3}), DType::F32, {3}, {5, 7, 9});
  expectTensor(reduce(OpKind::ReduceSum, x, {0}, true, {1, 3}), DType::F32, {1, 3}, {5, 7, 9});
}

TEST(ReduceKernels, SumOverSeveralAxes) {
  Tensor x = iota(DType::I64, {2, 2, 2}, 0);  // 0..7
  expectTensor(reduce(OpKind::ReduceSum, x, {0, 2}, false, {2}), DType::I64, {2}, {0 + 1 + 4 + 5, 2 + 3 + 6 + 7});
  expectTensor(reduce(OpKind::ReduceSum, x, {0, 2}, true, {1, 2, 1}), DType::I64, {1, 2, 1}, {10, 18});
  expectTensor(reduce(OpKind::ReduceSum, x, {0, 1, 2}, false, {}), DType::I64, {}, {28});
  expectTensor(reduce(OpKind::ReduceSum, x, {0, 1, 2}, true, {1, 1, 1}), DType::I64, {1, 1, 1}, {28});
  expectTensor(reduce(OpKind::ReduceSum, x, {}, false, {2, 2, 2}), DType::I64, {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
}

TEST(ReduceKernels, SumAccumulatesInDouble) {
  expectTensor(reduce(OpKind::ReduceSum, f32({3}, {1e8, 1, -1e8}), {0}, false, {}), DType::F32, {}, {1});
  expectTensor(reduce(OpKind::ReduceSum, f32({2, 0}, {}), {1}, false, {2}), DType::F32, {2}, {0, 0});
}

TEST(ReduceKernels, Max) {
  Tensor x = f32({2, 3}, {1, 7, 3, -4, -5, -6});
  expectTensor(reduce(OpKind::ReduceMax, x, {1}, false, {2}), DType::F32, {2}, {7, -4});
  expectTensor(reduce(OpKind::ReduceMax, x, {0}, true, {1, 3}), DType::F32, {1, 3}, {1, 7, 3});
  expectTensor(reduce(OpKind::ReduceMax, x, {0, 1}, false, {}), DType::F32, {}, {7});
  double nan = std::numeric_limits<double>::quiet_NaN();
  expectTensor(reduce(OpKind::ReduceMax, f32({3}, {1, nan, 2}), {0}, false, {}), DType::F32, {}, {nan});
  expectTensor(reduce(OpKind::ReduceMax, i64({2, 2}, {-3, -9, 4, 0}), {1}, false, {2}), DType::I64, {2}, {-3, 4});
  expectTensor(reduce(OpKind::ReduceMax, boolean({2, 2}, {0, 0, 0, 1}), {1}, false, {2}), DType::Bool, {2}, {0, 1});
  // The max of an empty axis is the identity of max.
  double inf = std::numeric_limits<double>::infinity();
  expectTensor(reduce(OpKind::ReduceMax, f32({2, 0}, {}), {1}, false, {2}), DType::F32, {2}, {-inf, -inf});
  expectTensor(reduce(OpKind::ReduceMax, i64({0}, {}), {0}, false, {}), DType::I64, {},
               {static_cast<double>(std::numeric_limits<int64_t>::lowest())});
}

// argmax: the first index of the maximum along one axis (NumPy's rule: the first NaN wins), as i64.
TEST(ReduceKernels, ArgMax) {
  auto argmax = [](const Tensor& x, int64_t axis, bool keepDims, const std::vector<int64_t>& outShape) {
    OpAttrs attrs;
    attrs.axes = {axis};
    attrs.keepDims = keepDims;
    return run(OpKind::ReduceArgMax, {x}, DType::I64, outShape, attrs);
  };
  Tensor x = f32({2, 3}, {1, 7, 3, -4, -5, -6});
  expectTensor(argmax(x, 1, false, {2}), DType::I64, {2}, {1, 0});
  expectTensor(argmax(x, 0, true, {1, 3}), DType::I64, {1, 3}, {0, 0, 0});
  expectTensor(argmax(f32({4}, {2, 5, 5, 1}), 0, false, {}), DType::I64, {}, {1});  // the first of a tie
  double nan = std::numeric_limits<double>::quiet_NaN();
  expectTensor(argmax(f32({4}, {1, nan, 9, nan}), 0, false, {}), DType::I64, {}, {1});
  expectTensor(argmax(f32({3}, {-1, -2, nan}), 0, false, {}), DType::I64, {}, {2});
  expectTensor(argmax(i64({2, 2}, {-3, -9, 4, 0}), 0, false, {2}), DType::I64, {2}, {1, 1});
  EXPECT_THROW(argmax(f32({2, 0}, {}), 1, false, {2}), std::invalid_argument);  // no index to give
  EXPECT_THROW(argmax(boolean({2}, {0, 1}), 0, false, {}), std::invalid_argument);
}

// argtopk: the positions of the k largest along one axis, largest first; a tie keeps the lower
// position first and a NaN counts as the largest (so k = 1 is argmax).
TEST(IndexedKernels, ArgTopK) {
  auto argtopk = [](const Tensor& x, int64_t axis, int64_t k, const std::vector<int64_t>& outShape) {
    OpAttrs attrs;
    attrs.axis = axis;
    attrs.k = k;
    return run(OpKind::ArgTopK, {x}, DType::I64, outShape, attrs);
  };
  Tensor x = f32({2, 4}, {1, 7, 3, 5, -4, -5, -6, 0});
  expectTensor(argtopk(x, 1, 3, {2, 3}), DType::I64, {2, 3}, {1, 3, 2, 3, 0, 1});
  expectTensor(argtopk(x, 0, 1, {1, 4}), DType::I64, {1, 4}, {0, 0, 0, 0});
  expectTensor(argtopk(x, 1, 4, {2, 4}), DType::I64, {2, 4}, {1, 3, 2, 0, 3, 0, 1, 2});  // a full sort
  expectTensor(argtopk(f32({5}, {2, 5, 1, 5, 2}), 0, 4, {4}), DType::I64, {4}, {1, 3, 0, 4});  // ties: lower first
  double nan = std::numeric_limits<double>::quiet_NaN();
  expectTensor(argtopk(make(DType::F64, {4}, {1, nan, 9, nan}), 0, 3, {3}), DType::I64, {3}, {1, 3, 2});
  // the middle axis of [2, 3, 2]: each (outer, inner) line on its own
  Tensor y = i64({2, 3, 2}, {0, 9, 5, 1, 3, 4, 8, 2, 7, 6, 1, 0});
  expectTensor(argtopk(y, 1, 2, {2, 2, 2}), DType::I64, {2, 2, 2}, {1, 0, 2, 2, 0, 1, 1, 0});
  EXPECT_THROW(argtopk(f32({3}, {1, 2, 3}), 0, 4, {4}), std::invalid_argument);  // more than the axis holds
  EXPECT_THROW(argtopk(f32({3}, {1, 2, 3}), 0, 0, {0}), std::invalid_argument);
  EXPECT_THROW(argtopk(boolean({2}, {0, 1}), 0, 1, {1}), std::invalid_argument);
}

// gather (NumPy's take along one axis) and scatter_add, its adjoint: repeated ids accumulate.
TEST(IndexedKernels, GatherAndScatterAdd) {
  OpAttrs rows, cols;
  cols.axis = 1;
  Tensor x = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor ids = i64({2, 2}, {2, 0, 2, 2});
  expectTensor(run(OpKind::Gather, {x, ids}, DType::F32, {2, 2, 2}, rows), DType::F32, {2, 2, 2}, {5, 6, 1, 2, 5, 6, 5, 6});
  expectTensor(run(OpKind::Gather, {x, i64({}, {1})}, DType::F32, {3}, cols), DType::F32, {3}, {2, 4, 6});
  OpAttrs back = rows;
  back.shape = {3, 2};
  Tensor g = f32({2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1});
  expectTensor(run(OpKind::ScatterAdd, {ids, g}, DType::F32, {3, 2}, back), DType::F32, {3, 2}, {1, 1, 0, 0, 3, 3});
  EXPECT_THROW(run(OpKind::Gather, {x, i64({1}, {3})}, DType::F32, {1, 2}, rows), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Gather, {x, i64({1}, {-1})}, DType::F32, {1, 2}, rows), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Gather, {x, f32({1}, {0})}, DType::F32, {1, 2}, rows), std::invalid_argument);
}

// take_along (NumPy's take_along_axis) and scatter_along_add, its adjoint: one id per
// position of each row; a repeated id in a row accumulates.
TEST(IndexedKernels, TakeAlongAndScatterAlongAdd) {
  OpAttrs cols, rows;
  cols.axis = 1;
  Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor ids = i64({2, 2}, {2, 0, 1, 1});
  expectTensor(run(OpKind::TakeAlong, {x, ids}, DType::F32, {2, 2}, cols), DType::F32, {2, 2}, {3, 1, 5, 5});
  expectTensor(run(OpKind::TakeAlong, {x, i64({1, 3}, {1, 0, 1})}, DType::F32, {1, 3}, rows), DType::F32, {1, 3}, {4, 2, 6});
  OpAttrs back = cols;
  back.shape = {2, 3};
  expectTensor(run(OpKind::ScatterAlongAdd, {ids, f32({2, 2}, {1, 2, 3, 4})}, DType::F32, {2, 3}, back), DType::F32, {2, 3},
               {2, 0, 1, 0, 7, 0});
  // the middle axis of [2, 3, 2]: each (outer, inner) line picks on its own
  Tensor y = iota(DType::F32, {2, 3, 2});
  expectTensor(run(OpKind::TakeAlong, {y, i64({2, 1, 2}, {2, 0, 1, 2})}, DType::F32, {2, 1, 2}, cols), DType::F32, {2, 1, 2},
               {5, 2, 9, 12});  // iota counts from 1
  EXPECT_THROW(run(OpKind::TakeAlong, {x, i64({2, 1}, {3, 0})}, DType::F32, {2, 1}, cols), std::invalid_argument);  // id 3 of 3
  EXPECT_THROW(run(OpKind::TakeAlong, {x, i64({3, 1}, {0, 0, 0})}, DType::F32, {3, 1}, cols), std::invalid_argument);  // 3 rows
  EXPECT_THROW(run(OpKind::TakeAlong, {x, f32({2, 1}, {0, 0})}, DType::F32, {2, 1}, cols), std::invalid_argument);
}

TEST(ReduceKernels, Errors) {
  Tensor x = iota(DType::F32, {2, 3});
  EXPECT_THROW(reduce(OpKind::ReduceSum, x, {1, 0}, false, {}), std::invalid_argument);  // not sorted
  EXPECT_THROW(reduce(OpKind::ReduceSum, x, {1, 1}, false, {2}), std::invalid_argument);  // repeated
  EXPECT_THROW(reduce(OpKind::ReduceSum, x, {2}, false, {2}), std::invalid_argument);
  EXPECT_THROW(reduce(OpKind::ReduceSum, x, {-1}, false, {2}), std::invalid_argument);
  EXPECT_THROW(reduce(OpKind::ReduceSum, x, {1}, false, {2, 1}), std::invalid_argument);  // declared shape
  EXPECT_THROW(reduce(OpKind::ReduceSum, boolean({2}, {1, 1}), {0}, false, {}), std::invalid_argument);
}

}  // namespace
}  // namespace tempo
