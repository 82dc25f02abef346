// BufferPool: a dropped small buffer is handed out again for the same size,
// a large one never is, the pool stays within its bounds, and a zeroing
// Tensor made from a reused (dirty) buffer still reads zeros.
#include "tensor/BufferPool.h"
#include "tensor/Tensor.h"

#include <gtest/gtest.h>

#include <thread>

namespace tempo {
namespace {

TEST(BufferPool, ADroppedSmallBufferIsReusedForTheSameSizeOnly) {
  const TensorBuffer* first = nullptr;
  {
    auto b = acquireBuffer(4096);
    first = b.get();
  }
  EXPECT_GE(pooledBytes(), 4096u);
  auto other = acquireBuffer(4100);
  EXPECT_NE(other.get(), first);
  auto again = acquireBuffer(4096);
  EXPECT_EQ(again.get(), first);
  EXPECT_EQ(again->size(), 4096u);
}

TEST(BufferPool, LargeBuffersGoBackToTheHeapAndThePoolStaysBounded) {
  const size_t before = pooledBytes();
  { auto big = acquireBuffer(kMaxPooledBytes + 1); }
  EXPECT_EQ(pooledBytes(), before);
  {
    std::vector<std::shared_ptr<TensorBuffer>> many;
    for (int i = 0; i < 64; ++i) many.push_back(acquireBuffer(kMaxPooledBytes));
  }
  EXPECT_LE(pooledBytes(), kMaxPoolBytes);
  {
    std::vector<std::shared_ptr<TensorBuffer>> same;
    for (size_t i = 0; i < 2 * kMaxPerSize; ++i) same.push_back(acquireBuffer(64));
  }
  EXPECT_LE(pooledBytes(), kMaxPoolBytes);
}

TEST(BufferPool, AZeroingTensorOnAReusedBufferReadsZeros) {
  {
    Tensor dirty = Tensor::uninitialized(DType::F32, {32, 32});
    for (int64_t i = 0; i < dirty.numel(); ++i) dirty.set(i, 7.0);
  }
  Tensor zeros(DType::F32, {32, 32});
  for (int64_t i = 0; i < zeros.numel(); ++i) ASSERT_EQ(zeros.at(i), 0.0) << i;
}

TEST(BufferPool, ABufferDroppedOnAnotherThreadIsFreedThere) {
  auto b = acquireBuffer(2048);
  std::thread([moved = std::move(b)]() mutable { moved.reset(); }).join();  // pooled then freed at that thread's exit
  auto c = acquireBuffer(2048);
  EXPECT_EQ(c->size(), 2048u);
}

}  // namespace
}  // namespace tempo
