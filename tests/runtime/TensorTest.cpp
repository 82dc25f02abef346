#include "tensor/Tensor.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

TEST(Tensor, DefaultIsF32ScalarZero) {
  Tensor t;
  EXPECT_EQ(t.dtype(), DType::F32);
  EXPECT_EQ(t.rank(), 0);
  EXPECT_EQ(t.numel(), 1);
  EXPECT_EQ(t.nbytes(), 4u);
  EXPECT_EQ(t.at(0), 0.0);
}

TEST(Tensor, ShapeConstructorZeroFills) {
  Tensor t(DType::I64, {2, 3});
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.nbytes(), 48u);
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(t.data<int64_t>()[i], 0);
  Tensor empty(DType::F32, {0, 4});
  EXPECT_EQ(empty.numel(), 0);
  EXPECT_EQ(empty.nbytes(), 0u);
  EXPECT_THROW(Tensor(DType::F32, {-1}), std::invalid_argument);
}

TEST(Tensor, ScalarAndFullConvert) {
  EXPECT_EQ(Tensor::scalar(DType::I32, 3.9).at(0), 3.0);
  EXPECT_EQ(Tensor::scalar(DType::I32, -3.9).at(0), -3.0);
  EXPECT_EQ(Tensor::scalar(DType::Bool, 0.5).at(0), 1.0);
  EXPECT_EQ(Tensor::scalar(DType::Bool, 0.0).at(0), 0.0);
  Tensor f = Tensor::full(DType::F64, {2, 2}, 1.5);
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(f.data<double>()[i], 1.5);
}

TEST(Tensor, DataChecksTheElementType) {
  Tensor t(DType::F32, {2});
  EXPECT_NO_THROW(t.data<float>());
  EXPECT_THROW(t.data<double>(), std::logic_error);
  EXPECT_THROW(t.data<int32_t>(), std::logic_error);
  const Tensor& c = t;
  EXPECT_THROW(c.data<bool>(), std::logic_error);
  EXPECT_THROW(Tensor(DType::Bool, {1}).data<int64_t>(), std::logic_error);
}

TEST(Tensor, AtAndSet) {
  Tensor t(DType::F32, {3});
  t.set(1, 0.1);
  EXPECT_EQ(t.at(1), double(0.1f));
  EXPECT_THROW(t.at(3), std::out_of_range);
  EXPECT_THROW(t.set(-1, 0), std::out_of_range);
  Tensor b(DType::Bool, {2});
  b.set(0, -2.0);
  EXPECT_EQ(b.at(0), 1.0);
  EXPECT_EQ(b.at(1), 0.0);
}

TEST(Tensor, CopiesShareAndCloneIsDeep) {
  Tensor a(DType::I32, {2});
  Tensor shared = a;
  Tensor deep = a.clone();
  a.set(0, 7);
  EXPECT_EQ(shared.at(0), 7.0);
  EXPECT_EQ(deep.at(0), 0.0);
}

TEST(Tensor, Reshaped) {
  Tensor t(DType::I32, {2, 3});
  for (int i = 0; i < 6; ++i) t.set(i, i);
  Tensor r = t.reshaped({3, 1, 2});
  EXPECT_EQ(r.shape(), (std::vector<int64_t>{3, 1, 2}));
  EXPECT_EQ(r.at(5), 5.0);
  EXPECT_EQ(t.reshaped({6}).rank(), 1);
  EXPECT_THROW(t.reshaped({4}), std::invalid_argument);
  EXPECT_EQ(Tensor::scalar(DType::F32, 2).reshaped({1, 1}).numel(), 1);
}

TEST(Tensor, IndexCopiesSubTensor) {
  Tensor t(DType::F64, {2, 3, 2});
  for (int i = 0; i < 12; ++i) t.set(i, i);
  Tensor row = t.index({1});
  EXPECT_EQ(row.shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(row.at(0), 6.0);
  Tensor pair = t.index({1, 2});
  EXPECT_EQ(pair.shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(pair.at(0), 10.0);
  EXPECT_EQ(pair.at(1), 11.0);
  Tensor element = t.index({0, 1, 1});
  EXPECT_EQ(element.rank(), 0);
  EXPECT_EQ(element.at(0), 3.0);
  EXPECT_EQ(t.index({}).numel(), 12);
  row.set(0, -1);
  EXPECT_EQ(t.at(6), 6.0);  // a copy
  EXPECT_THROW(t.index({2}), std::out_of_range);
  EXPECT_THROW(t.index({0, -1}), std::out_of_range);
  EXPECT_THROW(t.index({0, 0, 0, 0}), std::out_of_range);
}

TEST(Tensor, Stack) {
  Tensor a = Tensor::full(DType::I32, {2}, 1), b = Tensor::full(DType::I32, {2}, 2);
  Tensor s = Tensor::stack({a, b}, DType::I32, {2});
  EXPECT_EQ(s.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(s.at(0), 1.0);
  EXPECT_EQ(s.at(3), 2.0);
  Tensor empty = Tensor::stack({}, DType::F32, {3, 4});
  EXPECT_EQ(empty.shape(), (std::vector<int64_t>{0, 3, 4}));
  EXPECT_EQ(Tensor::stack({Tensor::scalar(DType::F32, 1)}, DType::F32, {}).shape(), std::vector<int64_t>{1});
  EXPECT_THROW(Tensor::stack({a}, DType::F32, {2}), std::invalid_argument);
  EXPECT_THROW(Tensor::stack({a}, DType::I32, {3}), std::invalid_argument);
}

TEST(Tensor, StackCopiesIntoARecycledBufferLargeEnoughThatNothingElseHolds) {
  Tensor a = Tensor::full(DType::F32, {2}, 1), b = Tensor::full(DType::F32, {2}, 2);
  Tensor scratch = Tensor::stack({a, b}, DType::F32, {2});
  Tensor again = Tensor::stack({b, a}, DType::F32, {2}, &scratch);
  EXPECT_TRUE(again.sharesBufferWith(scratch));  // the same pages, new values
  EXPECT_EQ(again.at(0), 2.0);
  EXPECT_EQ(again.at(3), 1.0);
  scratch = again;
  Tensor held = again;  // a second holder (a store, a view): a fresh buffer
  again = Tensor();
  Tensor fresh = Tensor::stack({a, a}, DType::F32, {2}, &scratch);
  EXPECT_FALSE(fresh.sharesBufferWith(scratch));
  EXPECT_EQ(held.at(0), 2.0);  // what the holder sees is untouched
  held = Tensor();
  Tensor three = Tensor::stack({a, a, a}, DType::F32, {2}, &scratch);  // 24 bytes, not 16: a fresh buffer
  EXPECT_FALSE(three.sharesBufferWith(scratch));
  Tensor small = Tensor::stack({Tensor::full(DType::F32, {1}, 5), Tensor::full(DType::F32, {1}, 6)}, DType::F32, {1},
                               &scratch);  // 8 of its 16 bytes
  EXPECT_TRUE(small.sharesBufferWith(scratch));
  EXPECT_EQ(small.shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(small.at(1), 6.0);
  small = Tensor();
  Tensor i32 = Tensor::stack({Tensor::full(DType::I32, {2}, 7), Tensor::full(DType::I32, {2}, 8)}, DType::I32, {2},
                             &scratch);  // the same bytes in another dtype
  EXPECT_TRUE(i32.sharesBufferWith(scratch));
  EXPECT_EQ(i32.dtype(), DType::I32);
  EXPECT_EQ(i32.at(3), 8.0);
}

TEST(Tensor, Converted) {
  Tensor f(DType::F32, {5});
  double values[] = {1.7, -1.7, 0.0, 3e10, -0.2};
  for (int i = 0; i < 5; ++i) f.set(i, values[i]);
  Tensor i32 = f.converted(DType::I32);
  EXPECT_EQ(i32.at(0), 1);
  EXPECT_EQ(i32.at(1), -1);
  EXPECT_EQ(i32.at(3), 2147483647);  // saturates
  EXPECT_EQ(i32.at(4), 0);
  Tensor b = f.converted(DType::Bool);
  EXPECT_EQ(b.at(0), 1);
  EXPECT_EQ(b.at(2), 0);
  EXPECT_EQ(b.at(4), 1);
  Tensor back = b.converted(DType::F64);
  EXPECT_EQ(back.at(1), 1.0);
  Tensor big = Tensor::scalar(DType::I64, 4294967297.0);  // 2^32 + 1 wraps to 1 in i32
  EXPECT_EQ(big.converted(DType::I32).at(0), 1.0);
  EXPECT_EQ(f.converted(DType::F32).shape(), f.shape());
}

TEST(Tensor, Summary) {
  Tensor t(DType::F32, {2, 3});
  for (int i = 0; i < 6; ++i) t.set(i, 0.1 * (i + 1));
  EXPECT_EQ(t.summary(), "f32[2, 3] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]");
  EXPECT_EQ(t.summary(4), "f32[2, 3] = [0.1, 0.2, ..., 0.5, 0.6]");
  EXPECT_EQ(t.summary(3), "f32[2, 3] = [0.1, 0.2, ..., 0.6]");
  EXPECT_EQ(Tensor::scalar(DType::F64, 0.5).summary(), "f64[] = 0.5");
  EXPECT_EQ(Tensor::full(DType::Bool, {2}, 1).summary(), "bool[2] = [true, true]");
  EXPECT_EQ(Tensor::full(DType::I64, {1}, 123456789012.0).summary(), "i64[1] = [123456789012]");
  EXPECT_EQ(Tensor(DType::I32, {0}).summary(), "i32[0] = []");
  EXPECT_EQ(Tensor::scalar(DType::F32, 1.0 / 3).summary(), "f32[] = 0.333333");
}

}  // namespace
}  // namespace tempo
