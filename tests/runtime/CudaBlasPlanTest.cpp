// numpy.matmul's rank rules as one strided-batched GEMM (runtime/cuda/CudaBlas):
// promoted 1-D operands, batches shared or spanned, and the shapes that need more
// than one GEMM refused with the reason. The GEMM itself runs in the device check.
#include "cuda/CudaBlas.h"

#include <gtest/gtest.h>

namespace tempo::cuda {
namespace {

MatmulPlan plan(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::string why;
  std::optional<MatmulPlan> p = planMatmul(a, b, why);
  EXPECT_TRUE(p) << why;
  return p.value_or(MatmulPlan{});
}

TEST(MatmulPlan, MatricesVectorsAndBatches) {
  MatmulPlan mm = plan({3, 4}, {4, 5});
  EXPECT_EQ(std::vector<int64_t>({mm.m, mm.n, mm.k, mm.batch, mm.strideA, mm.strideB}), std::vector<int64_t>({3, 5, 4, 1, 0, 0}));
  EXPECT_EQ(std::vector<int64_t>({mm.lda, mm.ldb}), std::vector<int64_t>({4, 5}));
  EXPECT_FALSE(mm.transA || mm.transB);
  EXPECT_EQ(mm.outShape, std::vector<int64_t>({3, 5}));
  MatmulPlan row = plan({4}, {4, 5});  // decode's x @ W
  EXPECT_EQ(std::vector<int64_t>({row.m, row.n, row.k}), std::vector<int64_t>({1, 5, 4}));
  EXPECT_EQ(row.outShape, std::vector<int64_t>({5}));
  MatmulPlan column = plan({3, 4}, {4});
  EXPECT_EQ(column.outShape, std::vector<int64_t>({3}));
  EXPECT_EQ(plan({4}, {4}).outShape, std::vector<int64_t>{});
  MatmulPlan shared = plan({2, 3, 4}, {4, 5});  // one weight for every batch
  EXPECT_EQ(std::vector<int64_t>({shared.batch, shared.strideA, shared.strideB}), std::vector<int64_t>({2, 12, 0}));
  EXPECT_EQ(shared.outShape, std::vector<int64_t>({2, 3, 5}));
  MatmulPlan both = plan({2, 3, 4}, {2, 4, 5});
  EXPECT_EQ(std::vector<int64_t>({both.batch, both.strideA, both.strideB}), std::vector<int64_t>({2, 12, 20}));
  MatmulPlan left = plan({1, 3, 4}, {6, 4, 5});
  EXPECT_EQ(std::vector<int64_t>({left.batch, left.strideA, left.strideB}), std::vector<int64_t>({6, 0, 20}));
  EXPECT_EQ(left.outShape, std::vector<int64_t>({6, 3, 5}));
  MatmulPlan ranks = plan({3, 4}, {1, 2, 4, 5});  // numpy: the longer batch wins
  EXPECT_EQ(ranks.outShape, std::vector<int64_t>({1, 2, 3, 5}));
}

TEST(MatmulPlan, PermutedOperandsKeepTheirLayout) {
  std::string why;
  // Decode's attention: K stored [BS, H, D] = [8, 2, 8], read as [H, D, BS] (perm (1, 2, 0)).
  std::optional<MatmulPlan> p = planStridedMatmul({2, 1, 8}, {8, 8, 1}, {2, 8, 8}, {8, 1, 16}, why);
  ASSERT_TRUE(p) << why;
  EXPECT_EQ(std::vector<int64_t>({p->m, p->n, p->k, p->batch}), std::vector<int64_t>({1, 8, 8, 2}));
  EXPECT_TRUE(p->transB);  // its D axis has unit stride: stored by columns
  EXPECT_EQ(p->ldb, 16);
  EXPECT_EQ(p->strideB, 8);
  EXPECT_FALSE(p->transA);
  EXPECT_EQ(p->strideA, 8);
  // A transposed matrix, and batch axes that fold ([2, 3] of strides [3*20, 20]).
  p = planStridedMatmul({2, 3, 4, 5}, {60, 20, 1, 4}, {5, 6}, {6, 1}, why);
  ASSERT_TRUE(p) << why;
  EXPECT_TRUE(p->transA);
  EXPECT_EQ(p->lda, 4);
  EXPECT_EQ(std::vector<int64_t>({p->batch, p->strideA, p->strideB}), std::vector<int64_t>({6, 20, 0}));
  EXPECT_FALSE(planStridedMatmul({2, 3, 4, 5}, {20, 40, 5, 1}, {5, 6}, {6, 1}, why));  // batch axes swapped
  EXPECT_NE(why.find("fold"), std::string::npos) << why;
  EXPECT_FALSE(planStridedMatmul({4, 5}, {10, 2}, {5, 6}, {6, 1}, why));  // no unit stride
  EXPECT_NE(why.find("unit-stride"), std::string::npos) << why;
}

TEST(MatmulPlan, ShapesThatNeedMoreThanOneGemmAreRefusedWithTheReason) {
  std::string why;
  EXPECT_FALSE(planMatmul({3, 4}, {5, 6}, why));
  EXPECT_EQ(why, "inner sizes differ");
  EXPECT_FALSE(planMatmul({2, 1, 3, 4}, {1, 5, 4, 6}, why));
  EXPECT_NE(why.find("partly"), std::string::npos) << why;
  EXPECT_FALSE(planMatmul({2, 3, 4}, {3, 4, 5}, why));
  EXPECT_NE(why.find("do not broadcast"), std::string::npos) << why;
  EXPECT_FALSE(planMatmul({}, {4}, why));
}

}  // namespace
}  // namespace tempo::cuda
