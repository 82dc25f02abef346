// BufferPool: a dropped small buffer is handed out again for the same size,
// a large one never is, the pool stays within its bounds, and a zeroing
// Tensor made from a reused (dirty) buffer still reads zeros. A large buffer's
// mapping carries the page advice its hint asks for (smaps' VmFlags: hg / nh).
#include "tensor/BufferPool.h"
#include "tensor/Tensor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
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

/// The VmFlags line of the mapping in /proc/self/smaps holding `address` ("" when not found).
std::string vmFlagsAt(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto a = reinterpret_cast<uintptr_t>(address);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream header(line);
    if (header >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(':') > line.find(' ')) {
      inside = lo <= a && a < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(BufferPool, ALargeBufferCarriesItsPageAdvice) {
  const size_t bytes = 3 * kHugePageBufferBytes;  // holds a 2 MiB-aligned run wherever it lands
  auto huge = acquireBuffer(bytes, PageHint::Huge);
  auto small = acquireBuffer(bytes, PageHint::Small);
  auto middle = [&](const std::shared_ptr<TensorBuffer>& b) { return b->data() + bytes / 2; };
  const std::string hugeFlags = vmFlagsAt(middle(huge)), smallFlags = vmFlagsAt(middle(small));
  if (hugeFlags.empty()) GTEST_SKIP() << "no /proc/self/smaps here";
  EXPECT_NE(hugeFlags.find(" hg"), std::string::npos) << hugeFlags;
  EXPECT_NE(smallFlags.find(" nh"), std::string::npos) << smallFlags;
  EXPECT_FALSE(advisePages(huge->data(), size_t(1) << 20, PageHint::Huge));  // no aligned 2 MiB inside 1 MiB
  // The contents are the caller's, as for any buffer.
  Tensor t = Tensor::uninitialized(DType::F32, {int64_t(bytes / 4)});
  t.set(t.numel() - 1, 3.0);
  EXPECT_EQ(t.at(t.numel() - 1), 3.0);
}

}  // namespace
}  // namespace tempo
