// Reshape typing over symbolic shapes: inserting or dropping size-1 axes is
// always valid (vectorisation relies on it for [B, t + 1, 1] -> [B, t + 1]),
// and so is a reshape between shapes with the same symbolic sizes and the same
// product of constant ones ([T, B, 2, 2] -> [T, B, 4], whose count T * B * 4 is
// not affine); any other reshape still needs equal affine element counts.
#include "ops/TypeInference.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

TypeResult reshapeTo(std::vector<IndexExpr> from, std::vector<IndexExpr> to) {
  OpAttrs attrs;
  attrs.shape = std::move(to);
  return inferType(OpKind::Reshape, attrs, {TensorType{DType::F32, std::move(from)}});
}

const IndexExpr B = IndexExpr::bound("B");
const IndexExpr grow = IndexExpr::dim("t") + 1;

TEST(ReshapeType, UnitAxesComeAndGoOverSymbolicSizes) {
  auto dropped = reshapeTo({B, grow, 1}, {B, grow});
  ASSERT_TRUE(std::holds_alternative<TensorType>(dropped)) << std::get<std::string>(dropped);
  EXPECT_EQ(std::get<TensorType>(dropped).str(), "f32[B, t + 1]");
  auto inserted = reshapeTo({B, 8}, {B, 1, 8, 1});
  ASSERT_TRUE(std::holds_alternative<TensorType>(inserted)) << std::get<std::string>(inserted);
  EXPECT_EQ(std::get<TensorType>(inserted).str(), "f32[B, 1, 8, 1]");
}

TEST(ReshapeType, TheSameSymbolicSizesWithEqualConstantProducts) {
  const IndexExpr T = IndexExpr::bound("T");
  auto merged = reshapeTo({T, B, 2, 2}, {T, B, 4});
  ASSERT_TRUE(std::holds_alternative<TensorType>(merged)) << std::get<std::string>(merged);
  EXPECT_EQ(std::get<TensorType>(merged).str(), "f32[T, B, 4]");
  EXPECT_TRUE(std::holds_alternative<TensorType>(reshapeTo({B, 6, T}, {T, 3, B, 2})));
  EXPECT_TRUE(std::holds_alternative<TensorType>(reshapeTo({B, grow}, {grow, B})));
  EXPECT_TRUE(std::holds_alternative<std::string>(reshapeTo({T, B, 2, 2}, {T, B, 2})));
  EXPECT_TRUE(std::holds_alternative<std::string>(reshapeTo({T, B, 4}, {T, T, 4})));
}

TEST(ReshapeType, OtherSymbolicReshapesStillNeedEqualCounts) {
  EXPECT_TRUE(std::holds_alternative<std::string>(reshapeTo({B, grow}, {grow, grow})));
  EXPECT_TRUE(std::holds_alternative<std::string>(reshapeTo({B, 8}, {B, 4})));
  EXPECT_TRUE(std::holds_alternative<TensorType>(reshapeTo({B, 2, 4}, {B, 8})));
}

}  // namespace
}  // namespace tempo
