#include "KernelTestUtil.h"

#include <limits>

namespace tempo {
namespace {

using namespace tempo::testing;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor unary(OpKind op, const Tensor& x) { return run(op, {x}, x.dtype(), x.shape()); }

TEST(ElementwiseKernels, FloatUnary) {
  Tensor x = f32({4}, {-2, -0.5, 0, 1.5});
  expectTensor(unary(OpKind::Neg, x), DType::F32, {4}, {2, 0.5, -0.0, -1.5});
  expectTensor(unary(OpKind::Abs, x), DType::F32, {4}, {2, 0.5, 0, 1.5});
  expectTensor(unary(OpKind::Relu, x), DType::F32, {4}, {0, 0, 0, 1.5});
  Tensor e = unary(OpKind::Exp, x);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(e.data<float>()[i], float(std::exp(double(x.data<float>()[i]))));
  Tensor s = unary(OpKind::Sigmoid, x);
  EXPECT_EQ(s.data<float>()[2], 0.5f);
  EXPECT_EQ(s.data<float>()[0], float(1.0 / (1.0 + std::exp(2.0))));
  Tensor t = unary(OpKind::Tanh, x);
  EXPECT_EQ(t.data<float>()[3], float(std::tanh(1.5)));
  Tensor p = f32({3}, {4, 2, 1});
  expectTensor(unary(OpKind::Sqrt, p), DType::F32, {3}, {2, double(float(std::sqrt(2.0))), 1});
  expectTensor(unary(OpKind::Log, p), DType::F32, {3}, {double(float(std::log(4.0))), double(float(std::log(2.0))), 0});
  expectTensor(unary(OpKind::Relu, f32({1}, {kNaN})), DType::F32, {1}, {kNaN});
  Tensor d = make(DType::F64, {1}, {0.1});
  EXPECT_EQ(unary(OpKind::Exp, d).at(0), std::exp(0.1));
}

TEST(ElementwiseKernels, IntegerAndBoolUnary) {
  Tensor x = make(DType::I32, {4}, {-3, 0, 5, -2147483648.0});
  expectTensor(unary(OpKind::Neg, x), DType::I32, {4}, {3, 0, -5, -2147483648.0});  // wraps
  expectTensor(unary(OpKind::Abs, x), DType::I32, {4}, {3, 0, 5, -2147483648.0});
  expectTensor(unary(OpKind::Relu, x), DType::I32, {4}, {0, 0, 5, 0});
  expectTensor(unary(OpKind::Not, boolean({2}, {1, 0})), DType::Bool, {2}, {0, 1});
  EXPECT_THROW(unary(OpKind::Exp, x), std::invalid_argument);
  EXPECT_THROW(unary(OpKind::Not, x), std::invalid_argument);
  EXPECT_THROW(unary(OpKind::Neg, boolean({1}, {1})), std::invalid_argument);
}

TEST(ElementwiseKernels, BroadcastingAdd) {
  Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  expectTensor(run(OpKind::Add, {a, f32({3}, {10, 20, 30})}, DType::F32, {2, 3}), DType::F32, {2, 3},
               {11, 22, 33, 14, 25, 36});
  expectTensor(run(OpKind::Add, {f32({2, 1}, {1, 2}), f32({1, 3}, {10, 20, 30})}, DType::F32, {2, 3}), DType::F32,
               {2, 3}, {11, 21, 31, 12, 22, 32});
  expectTensor(run(OpKind::Add, {f32({}, {0.5}), f32({2}, {1, 2})}, DType::F32, {2}), DType::F32, {2}, {1.5, 2.5});
  expectTensor(run(OpKind::Add, {f32({3, 1, 1}, {1, 2, 3}), f32({2}, {0, 10})}, DType::F32, {3, 1, 2}), DType::F32,
               {3, 1, 2}, {1, 11, 2, 12, 3, 13});
  expectTensor(run(OpKind::Add, {f32({0, 3}, {}), f32({3}, {1, 2, 3})}, DType::F32, {0, 3}), DType::F32, {0, 3}, {});
  EXPECT_THROW(run(OpKind::Add, {a, f32({2}, {1, 2})}, DType::F32, {2, 3}), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Add, {a, a}, DType::F32, {3, 2}), std::invalid_argument);  // declared shape wrong
  EXPECT_THROW(run(OpKind::Add, {a, a}, DType::F64, {2, 3}), std::invalid_argument);  // declared dtype wrong
  EXPECT_THROW(run(OpKind::Add, {a, i64({1}, {1})}, DType::F32, {2, 3}), std::invalid_argument);
}

TEST(ElementwiseKernels, FloatArithmeticRoundsToFloatEachOp) {
  Tensor a = f32({1}, {16777216}), b = f32({1}, {1});  // 2^24 + 1 is not a float
  EXPECT_EQ(run(OpKind::Add, {a, b}, DType::F32, {1}).at(0), 16777216.0);
  expectTensor(run(OpKind::Sub, {f32({2}, {5, 1}), f32({2}, {2, 3})}, DType::F32, {2}), DType::F32, {2}, {3, -2});
  expectTensor(run(OpKind::Mul, {f32({2}, {5, 1}), f32({2}, {2, -3})}, DType::F32, {2}), DType::F32, {2}, {10, -3});
  Tensor q = run(OpKind::Div, {f32({3}, {1, 1, -1}), f32({3}, {3, 0, 0})}, DType::F32, {3});
  EXPECT_EQ(q.data<float>()[0], 1.0f / 3.0f);
  EXPECT_EQ(q.at(1), std::numeric_limits<double>::infinity());
  EXPECT_EQ(q.at(2), -std::numeric_limits<double>::infinity());
  expectTensor(run(OpKind::Pow, {f32({3}, {2, 9, 2}), f32({3}, {10, 0.5, -1})}, DType::F32, {3}), DType::F32, {3},
               {1024, 3, 0.5});
}

TEST(ElementwiseKernels, IntegerDivisionIsFloorDivision) {
  Tensor a = i64({6}, {7, -7, 7, -7, 0, 6}), b = i64({6}, {2, 2, -2, -2, 5, 3});
  expectTensor(run(OpKind::Div, {a, b}, DType::I64, {6}), DType::I64, {6}, {3, -4, -4, 3, 0, 2});
  EXPECT_THROW(run(OpKind::Div, {a, i64({}, {0})}, DType::I64, {6}), std::domain_error);
  Tensor m = make(DType::I32, {1}, {-2147483648.0});
  EXPECT_EQ(run(OpKind::Div, {m, make(DType::I32, {1}, {-1})}, DType::I32, {1}).at(0), -2147483648.0);  // wraps
}

TEST(ElementwiseKernels, IntegerArithmetic) {
  Tensor a = make(DType::I32, {3}, {2147483647, -5, 3}), b = make(DType::I32, {3}, {1, 7, 4});
  expectTensor(run(OpKind::Add, {a, b}, DType::I32, {3}), DType::I32, {3}, {-2147483648.0, 2, 7});
  expectTensor(run(OpKind::Sub, {a, b}, DType::I32, {3}), DType::I32, {3}, {2147483646, -12, -1});
  expectTensor(run(OpKind::Mul, {a, b}, DType::I32, {3}), DType::I32, {3}, {2147483647, -35, 12});
  expectTensor(run(OpKind::Pow, {i64({3}, {2, -3, 5}), i64({3}, {10, 3, 0})}, DType::I64, {3}), DType::I64, {3},
               {1024, -27, 1});
  EXPECT_THROW(run(OpKind::Pow, {i64({1}, {2}), i64({1}, {-1})}, DType::I64, {1}), std::domain_error);
  expectTensor(run(OpKind::Maximum, {a, b}, DType::I32, {3}), DType::I32, {3}, {2147483647, 7, 4});
  expectTensor(run(OpKind::Minimum, {a, b}, DType::I32, {3}), DType::I32, {3}, {1, -5, 3});
  EXPECT_THROW(run(OpKind::And, {a, b}, DType::I32, {3}), std::invalid_argument);
}

TEST(ElementwiseKernels, MaximumMinimumPropagateNaN) {
  Tensor a = f32({3}, {1, kNaN, 5}), b = f32({3}, {2, 0, kNaN});
  expectTensor(run(OpKind::Maximum, {a, b}, DType::F32, {3}), DType::F32, {3}, {2, kNaN, kNaN});
  expectTensor(run(OpKind::Minimum, {a, b}, DType::F32, {3}), DType::F32, {3}, {1, kNaN, kNaN});
}

TEST(ElementwiseKernels, ComparisonsYieldBool) {
  Tensor a = f32({2, 2}, {1, 2, 3, 4}), b = f32({2}, {2, 2});
  expectTensor(run(OpKind::Lt, {a, b}, DType::Bool, {2, 2}), DType::Bool, {2, 2}, {1, 0, 0, 0});
  expectTensor(run(OpKind::Le, {a, b}, DType::Bool, {2, 2}), DType::Bool, {2, 2}, {1, 1, 0, 0});
  expectTensor(run(OpKind::Gt, {a, b}, DType::Bool, {2, 2}), DType::Bool, {2, 2}, {0, 0, 1, 1});
  expectTensor(run(OpKind::Ge, {a, b}, DType::Bool, {2, 2}), DType::Bool, {2, 2}, {0, 1, 1, 1});
  expectTensor(run(OpKind::Eq, {a, b}, DType::Bool, {2, 2}), DType::Bool, {2, 2}, {0, 1, 0, 0});
  expectTensor(run(OpKind::Ne, {a, b}, DType::Bool, {2, 2}), DType::Bool, {2, 2}, {1, 0, 1, 1});
  expectTensor(run(OpKind::Eq, {f32({1}, {kNaN}), f32({1}, {kNaN})}, DType::Bool, {1}), DType::Bool, {1}, {0});
  expectTensor(run(OpKind::Lt, {i64({2}, {-1, 3}), i64({}, {0})}, DType::Bool, {2}), DType::Bool, {2}, {1, 0});
  expectTensor(run(OpKind::Eq, {boolean({2}, {1, 0}), boolean({}, {1})}, DType::Bool, {2}), DType::Bool, {2}, {1, 0});
  EXPECT_THROW(run(OpKind::Lt, {a, b}, DType::F32, {2, 2}), std::invalid_argument);
}

TEST(ElementwiseKernels, LogicalOps) {
  Tensor a = boolean({4}, {0, 0, 1, 1}), b = boolean({4}, {0, 1, 0, 1});
  expectTensor(run(OpKind::And, {a, b}, DType::Bool, {4}), DType::Bool, {4}, {0, 0, 0, 1});
  expectTensor(run(OpKind::Or, {a, b}, DType::Bool, {4}), DType::Bool, {4}, {0, 1, 1, 1});
  expectTensor(run(OpKind::Or, {a, boolean({}, {1})}, DType::Bool, {4}), DType::Bool, {4}, {1, 1, 1, 1});
  expectTensor(run(OpKind::Maximum, {a, b}, DType::Bool, {4}), DType::Bool, {4}, {0, 1, 1, 1});
  EXPECT_THROW(run(OpKind::Add, {a, b}, DType::Bool, {4}), std::invalid_argument);
  EXPECT_THROW(run(OpKind::And, {f32({1}, {1}), f32({1}, {1})}, DType::F32, {1}), std::invalid_argument);
}

TEST(ElementwiseKernels, WhereBroadcasts) {
  Tensor c = boolean({2, 1}, {1, 0}), a = f32({3}, {1, 2, 3}), b = f32({}, {-1});
  expectTensor(run(OpKind::Where, {c, a, b}, DType::F32, {2, 3}), DType::F32, {2, 3}, {1, 2, 3, -1, -1, -1});
  expectTensor(run(OpKind::Where, {boolean({3}, {0, 1, 0}), i64({3}, {1, 2, 3}), i64({3}, {7, 8, 9})}, DType::I64, {3}),
               DType::I64, {3}, {7, 2, 9});
  EXPECT_THROW(run(OpKind::Where, {a, a, a}, DType::F32, {3}), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Where, {c, a, i64({}, {1})}, DType::F32, {2, 3}), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Where, {boolean({2}, {1, 1}), a, b}, DType::F32, {3}), std::invalid_argument);
}

TEST(ElementwiseKernels, Cast) {
  Tensor x = f32({4}, {1.9, -1.9, 0, 2});
  expectTensor(run(OpKind::Cast, {x}, DType::I32, {4}), DType::I32, {4}, {1, -1, 0, 2});
  expectTensor(run(OpKind::Cast, {x}, DType::Bool, {4}), DType::Bool, {4}, {1, 1, 0, 1});
  expectTensor(run(OpKind::Cast, {boolean({2}, {1, 0})}, DType::F64, {2}), DType::F64, {2}, {1, 0});
  expectTensor(run(OpKind::Cast, {i64({1}, {3})}, DType::F32, {1}), DType::F32, {1}, {3});
}

TEST(ElementwiseKernels, ArityAndSourceErrors) {
  Tensor a = f32({1}, {1});
  EXPECT_THROW(run(OpKind::Add, {a}, DType::F32, {1}), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Neg, {a, a}, DType::F32, {1}), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Constant, {}, DType::F32, {}), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Merge, {a}, DType::F32, {1}), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Cat, {}, DType::F32, {0}), std::invalid_argument);
}

}  // namespace
}  // namespace tempo
