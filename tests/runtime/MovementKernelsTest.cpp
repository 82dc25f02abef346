#include "KernelTestUtil.h"

namespace tempo {
namespace {

using namespace tempo::testing;

Tensor iota(std::vector<int64_t> shape) {
  Tensor t(DType::I64, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, i);
  return t;
}

TEST(MovementKernels, ReshapeAndIdentity) {
  Tensor x = iota({2, 3});
  expectTensor(run(OpKind::Reshape, {x}, DType::I64, {3, 2}), DType::I64, {3, 2}, {0, 1, 2, 3, 4, 5});
  expectTensor(run(OpKind::Reshape, {x}, DType::I64, {6}), DType::I64, {6}, {0, 1, 2, 3, 4, 5});
  EXPECT_THROW(run(OpKind::Reshape, {x}, DType::I64, {4}), std::invalid_argument);
  expectTensor(run(OpKind::Identity, {x}, DType::I64, {2, 3}), DType::I64, {2, 3}, {0, 1, 2, 3, 4, 5});
  EXPECT_THROW(run(OpKind::Identity, {x}, DType::I64, {6}), std::invalid_argument);
}

TEST(MovementKernels, Permute) {
  OpAttrs attrs;
  attrs.perm = {1, 0};
  expectTensor(run(OpKind::Permute, {iota({2, 3})}, DType::I64, {3, 2}, attrs), DType::I64, {3, 2},
               {0, 3, 1, 4, 2, 5});
  attrs.perm = {2, 0, 1};  // out[k, i, j] = in[i, j, k]
  Tensor p = run(OpKind::Permute, {iota({2, 3, 4})}, DType::I64, {4, 2, 3}, attrs);
  for (int64_t k = 0; k < 4; ++k)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(p.at((k * 2 + i) * 3 + j), double(i * 12 + j * 4 + k));
  attrs.perm = {0, 0};
  EXPECT_THROW(run(OpKind::Permute, {iota({2, 2})}, DType::I64, {2, 2}, attrs), std::invalid_argument);
  attrs.perm = {0};
  EXPECT_THROW(run(OpKind::Permute, {iota({2, 2})}, DType::I64, {2, 2}, attrs), std::invalid_argument);
}

TEST(MovementKernels, Expand) {
  expectTensor(run(OpKind::Expand, {iota({3})}, DType::I64, {2, 3}), DType::I64, {2, 3}, {0, 1, 2, 0, 1, 2});
  expectTensor(run(OpKind::Expand, {iota({2, 1})}, DType::I64, {2, 3}), DType::I64, {2, 3}, {0, 0, 0, 1, 1, 1});
  expectTensor(run(OpKind::Expand, {i64({}, {7})}, DType::I64, {2}), DType::I64, {2}, {7, 7});
  EXPECT_THROW(run(OpKind::Expand, {iota({2})}, DType::I64, {3}), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Expand, {iota({2, 2})}, DType::I64, {2}), std::invalid_argument);
}

TEST(MovementKernels, Slice) {
  OpAttrs attrs;
  attrs.axis = 1;
  attrs.start = 1;
  attrs.stop = 3;
  expectTensor(run(OpKind::Slice, {iota({2, 4})}, DType::I64, {2, 2}, attrs), DType::I64, {2, 2}, {1, 2, 5, 6});
  attrs.axis = 0;
  attrs.start = 0;
  attrs.stop = 1;
  expectTensor(run(OpKind::Slice, {iota({2, 2})}, DType::I64, {1, 2}, attrs), DType::I64, {1, 2}, {0, 1});
  attrs.start = 1;
  expectTensor(run(OpKind::Slice, {iota({2, 2})}, DType::I64, {0, 2}, attrs), DType::I64, {0, 2}, {});
  attrs.stop = 3;
  EXPECT_THROW(run(OpKind::Slice, {iota({2, 2})}, DType::I64, {2, 2}, attrs), std::invalid_argument);
  attrs.start = 2;
  attrs.stop = 1;
  EXPECT_THROW(run(OpKind::Slice, {iota({2, 2})}, DType::I64, {0, 2}, attrs), std::invalid_argument);
  attrs.axis = 2;
  attrs.start = 0;
  EXPECT_THROW(run(OpKind::Slice, {iota({2, 2})}, DType::I64, {2, 2}, attrs), std::invalid_argument);
}

TEST(MovementKernels, SliceNeedsConstantBounds) {
  OpAttrs attrs;
  attrs.start = IndexExpr::dim("t");
  attrs.stop = 2;
  EXPECT_THROW(run(OpKind::Slice, {iota({4})}, DType::I64, {1}, attrs), std::invalid_argument);
}

TEST(MovementKernels, Cat) {
  OpAttrs attrs;
  attrs.axis = 0;
  expectTensor(run(OpKind::Cat, {iota({1, 2}), i64({2, 2}, {7, 8, 9, 10})}, DType::I64, {3, 2}, attrs), DType::I64,
               {3, 2}, {0, 1, 7, 8, 9, 10});
  attrs.axis = 1;
  expectTensor(run(OpKind::Cat, {iota({2, 1}), i64({2, 2}, {7, 8, 9, 10}), i64({2, 0}, {})}, DType::I64, {2, 3}, attrs),
               DType::I64, {2, 3}, {0, 7, 8, 1, 9, 10});
  expectTensor(run(OpKind::Cat, {f32({1}, {1.5})}, DType::F32, {1}, OpAttrs{}), DType::F32, {1}, {1.5});
  EXPECT_THROW(run(OpKind::Cat, {iota({2, 1}), iota({3, 1})}, DType::I64, {2, 2}, attrs), std::invalid_argument);
  EXPECT_THROW(run(OpKind::Cat, {iota({2, 1}), f32({2, 1}, {1, 2})}, DType::I64, {2, 2}, attrs), std::invalid_argument);
  attrs.axis = 2;
  EXPECT_THROW(run(OpKind::Cat, {iota({2, 1})}, DType::I64, {2, 1}, attrs), std::invalid_argument);
}

}  // namespace
}  // namespace tempo
