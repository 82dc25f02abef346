// BufferPool: a dropped small buffer is handed out again for the same size,
// a large one never is, the pool stays within its bounds, and a zeroing
// Tensor made from a reused (dirty) buffer still reads zeros. A large buffer's
// mapping carries the page advice its hint asks for (smaps' VmFlags: hg / nh).
// A buffer of a MiB or more is a mapping of its own even when the heap has a
// free chunk that fits, where a plain malloc of the same size is carved from it;
// with keepLargeBuffersOutOfTheHeap, glibc maps such mallocs after a larger one
// was freed (checked in a fresh process).
#include "tensor/BufferPool.h"
#include "tensor/Tensor.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

/// [lo, hi) of the process's brk heap ("[heap]" in /proc/self/maps), or {0, 0}.
std::pair<uintptr_t, uintptr_t> brkHeap() {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    if (line.find("[heap]") == std::string::npos) continue;
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream(line) >> std::hex >> lo >> dash >> hi;
    return {lo, hi};
  }
  return {0, 0};
}

bool inBrkHeap(const void* p) {
  const auto [lo, hi] = brkHeap();
  const auto a = reinterpret_cast<uintptr_t>(p);
  return lo <= a && a < hi;
}

TEST(BufferPool, AMebibyteBufferIsAMappingOfItsOwnWhenTheHeapHasRoom) {
  // 6 MiB of 64 KiB chunks freed below a live one: one free chunk inside the heap
  // (the live chunk keeps it from being the heap's top, which glibc would give back).
  std::vector<void*> chunks;
  for (int i = 0; i < 96; ++i) chunks.push_back(std::malloc(size_t(64) << 10));
  void* volatile fence = std::malloc(64);
  if (!inBrkHeap(chunks.front()) || !inBrkHeap(fence)) {
    for (void* c : chunks) std::free(c);
    std::free(fence);
    GTEST_SKIP() << "this thread's mallocs are not in the brk heap";
  }
  for (void* c : chunks) std::free(c);
  const size_t bytes = size_t(2) << 20;
  void* volatile carved = std::malloc(bytes);
  EXPECT_TRUE(inBrkHeap(carved)) << "the set-up: glibc carves a 2 MiB malloc from the free chunk";
  std::free(carved);
  auto buffer = acquireBuffer(bytes);
  EXPECT_FALSE(inBrkHeap(buffer->data())) << "a tensor buffer of 2 MiB came from the heap";
  auto mebibyte = acquireBuffer(kMappedTensorBytes);
  EXPECT_FALSE(inBrkHeap(mebibyte->data()));
  auto below = acquireBuffer(kMappedTensorBytes - 4096);
  EXPECT_TRUE(inBrkHeap(below->data())) << "a buffer under a MiB belongs in the heap";
  std::free(fence);
}

/// Exits 0 when a 2 MiB malloc is mapped and a 256 KiB one comes from the heap after an 8 MiB one was freed.
[[noreturn]] void checkTheMappingThreshold() {
  keepLargeBuffersOutOfTheHeap();
  void* volatile large = std::malloc(size_t(8) << 20);  // freed, it would raise glibc's own threshold to 8 MiB
  std::free(large);
  const size_t mapped = mallinfo2().hblks;
  void* volatile mebibytes = std::malloc(size_t(2) << 20);
  if (mallinfo2().hblks != mapped + 1) std::fprintf(stderr, "a 2 MiB malloc came from the heap\n"), std::_Exit(1);
  void* volatile small = std::malloc(size_t(256) << 10);
  if (mallinfo2().hblks != mapped + 1)
    std::fprintf(stderr, "a 256 KiB malloc was mapped: per-step buffers belong in the heap\n"), std::_Exit(1);
  std::free(small);
  std::free(mebibytes);
  std::_Exit(0);
}

TEST(BufferPool, MallocsOfAMebibyteStayMappedAfterALargerOneIsFreed) {
  // glibc maps a malloc above the threshold only when its heap has no free chunk that fits:
  // in a process whose heap earlier tests grew, a 2 MiB malloc can come from the heap. So the
  // threshold is checked in a fresh process (the threadsafe death-test style re-executes the binary).
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(checkTheMappingThreshold(), testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace tempo
