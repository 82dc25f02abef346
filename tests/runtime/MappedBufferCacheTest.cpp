// MappedBufferCache: a freed mapped buffer is handed out again for its exact size only, from
// any thread; the cached plus live tensor bytes never pass a 16th below the highest live bytes
// since the last release (a new size, or heap tensors growing, unmaps cached buffers first);
// releaseCachedBuffers empties the cache.
#include "tensor/MappedBufferCache.h"
#include "tensor/Tensor.h"

#include <gtest/gtest.h>

#include <thread>

namespace tempo {
namespace {

constexpr size_t kMiB = size_t(1) << 20;

TEST(MappedBufferCache, AFreedBufferIsHandedOutAgainForItsSizeOnly) {
  releaseCachedBuffers();
  const std::byte* first = nullptr;
  {
    auto b = acquireMappedBuffer(2 * kMiB);
    first = b->data();
  }
  EXPECT_EQ(cachedMappedBytes(), 2 * kMiB);
  auto again = acquireMappedBuffer(2 * kMiB);
  EXPECT_EQ(again->data(), first);
  EXPECT_EQ(cachedMappedBytes(), 0u);
  again.reset();
  auto other = acquireMappedBuffer(2 * kMiB + 4096);
  EXPECT_NE(other->data(), first);
}

TEST(MappedBufferCache, CachedAndLiveBytesStayWithinTheLiveHigh) {
  releaseCachedBuffers();
  const size_t base = liveMappedBytes();
  { auto big = acquireMappedBuffer(4 * kMiB); }  // the high: base + 4 MiB
  EXPECT_EQ(cachedMappedBytes(), 4 * kMiB);
  auto a = acquireMappedBuffer(3 * kMiB);  // 3 live + 4 cached > 4: the 4 MiB buffer is unmapped first
  EXPECT_EQ(cachedMappedBytes(), 0u);
  EXPECT_EQ(liveMappedBytes(), base + 3 * kMiB);
  auto b = acquireMappedBuffer(1 * kMiB);  // 4 live: the high again, nothing cached to drop
  a.reset();
  b.reset();
  EXPECT_EQ(cachedMappedBytes(), 4 * kMiB);  // a free keeps live + cached where it was
  EXPECT_LE(liveMappedBytes() + cachedMappedBytes(), base + 4 * kMiB);
  releaseCachedBuffers();
  EXPECT_EQ(cachedMappedBytes(), 0u);
  EXPECT_EQ(liveMappedBytes(), base);
}

TEST(MappedBufferCache, HeapTensorsGrowingPastTheCeilingUnmapCachedBuffers) {
  releaseCachedBuffers();  // the high: what lives now (B: the pools' buffers, a few MiB at most)
  const size_t heap = liveHeapTensorBytes();
  auto half = [] { return Tensor(DType::F32, {128 << 10}); };  // 512 KiB from the heap (above the pool's sizes)
  std::vector<Tensor> small;
  for (int i = 0; i < 6; ++i) small.push_back(half());
  EXPECT_EQ(liveHeapTensorBytes(), heap + 6 * (kMiB / 2));
  { auto big = acquireMappedBuffer(8 * kMiB); }  // the high: B + 11 MiB; the ceiling a 16th below
  small.clear();
  EXPECT_EQ(liveHeapTensorBytes(), heap);
  ASSERT_EQ(cachedMappedBytes(), 8 * kMiB);
  for (int i = 0; i < 2; ++i) small.push_back(half());  // B + 1 live + 8 cached: under the ceiling
  EXPECT_EQ(cachedMappedBytes(), 8 * kMiB);
  for (int i = 0; i < 4; ++i) small.push_back(half());  // B + 3 + 8: the high itself, over the ceiling
  EXPECT_EQ(cachedMappedBytes(), 0u);
}

TEST(MappedBufferCache, APooledBufferStaysCountedUntilItLeavesThePool) {
  const size_t before = liveHeapTensorBytes() - pooledBytes();  // held elsewhere
  {
    auto b = acquireBuffer(8192);  // from this thread's pool or new
    EXPECT_EQ(liveHeapTensorBytes() - pooledBytes(), before + 8192);
  }
  EXPECT_EQ(liveHeapTensorBytes() - pooledBytes(), before);  // pooled and counted, or given back and not
}

TEST(MappedBufferCache, ABufferDroppedOnAnotherThreadIsReusedHere) {
  releaseCachedBuffers();
  auto b = acquireMappedBuffer(kMiB);
  const std::byte* data = b->data();
  std::thread([moved = std::move(b)]() mutable { moved.reset(); }).join();
  EXPECT_EQ(acquireMappedBuffer(kMiB)->data(), data);
}

TEST(MappedBufferCache, AZeroingTensorOnAReusedMappingReadsZeros) {
  releaseCachedBuffers();
  const int64_t n = int64_t(kMappedTensorBytes / 4);
  {
    Tensor dirty = Tensor::uninitialized(DType::F32, {n});
    for (int64_t i = 0; i < n; i += 1024) dirty.set(i, 7.0);
  }
  ASSERT_EQ(cachedMappedBytes(), kMappedTensorBytes);
  Tensor zeros(DType::F32, {n});
  EXPECT_EQ(cachedMappedBytes(), 0u);  // the same mapping
  for (int64_t i = 0; i < n; i += 1024) ASSERT_EQ(zeros.at(i), 0.0) << i;
}

}  // namespace
}  // namespace tempo
