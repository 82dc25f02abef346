// BufferPool: small tensor buffers kept for reuse when their last holder lets go.
//
// The executor makes a fresh output tensor for almost every statement it
// runs, and REINFORCE's step is thousands of small kernels: their 1–256 KiB
// buffers are above glibc's per-thread cache, so every statement paid for
// malloc's bins (splitting, unlinking, consolidating: ~15% of a run in
// `perf record`). `acquireBuffer` hands out a buffer of exactly the asked
// size from a per-thread free list when one is there; a buffer whose last
// shared_ptr goes away returns to the free list of the thread that drops it,
// within bounds (at most kMaxPooledBytes per buffer and kMaxPoolBytes per
// thread, kMaxPerSize of one size), else to the heap. Larger buffers always
// go to the heap (glibc reuses those pages well). The memory tracker counts
// live tensors, not the pool; the pool adds at most 4 MiB per thread to the
// resident memory. A reused buffer holds old bytes: callers that need zeros
// write them (Tensor's constructor does).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace tempo {

/// Bytes a vector leaves unset when it grows (Tensor::uninitialized writes them itself).
struct ByteAllocator : std::allocator<std::byte> {
  template <class U> struct rebind { using other = ByteAllocator; };
  template <class U> void construct(U* p) { ::new (static_cast<void*>(p)) U; }
  template <class U, class... A> void construct(U* p, A&&... a) { ::new (static_cast<void*>(p)) U(std::forward<A>(a)...); }
};
using TensorBuffer = std::vector<std::byte, ByteAllocator>;

inline constexpr size_t kMaxPooledBytes = size_t(256) << 10;
inline constexpr size_t kMaxPoolBytes = size_t(4) << 20;
inline constexpr size_t kMaxPerSize = 16;

/// A buffer of `bytes` bytes (contents unspecified), from this thread's pool when it has one.
std::shared_ptr<TensorBuffer> acquireBuffer(size_t bytes);

/// Bytes this thread's pool holds now (for tests).
size_t pooledBytes();

}  // namespace tempo
