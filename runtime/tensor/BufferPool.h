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
//
// A buffer of kHugePageBufferBytes or more asks the kernel for transparent huge
// pages over its 2 MiB-aligned interior (madvise MADV_HUGEPAGE, the system's
// default THP mode "madvise"): its first touch then faults 2 MiB at a time
// instead of 4 KiB (the RNN's hoisted `x @ W`, 16 MiB at T = 512, took 4,096
// faults per run, ~20% of the run's CPU in `perf record`). A caller that
// touches only the front of a larger buffer (a scratch with room to grow) asks
// for PageHint::Small (MADV_NOHUGEPAGE, which holds under THP mode "always"
// too), so that no page it never writes becomes resident.
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
inline constexpr size_t kHugePageBufferBytes = size_t(4) << 20;

/// Whether a large buffer may be backed by huge pages (Small: its untouched pages stay unmapped).
enum class PageHint { Huge, Small };

/// A buffer of `bytes` bytes (contents unspecified), from this thread's pool when it has one.
std::shared_ptr<TensorBuffer> acquireBuffer(size_t bytes, PageHint pages = PageHint::Huge);

/// Advises the kernel over the 2 MiB-aligned part of [data, data + bytes): huge pages
/// (PageHint::Huge) or never huge pages (Small); false when no such part exists or the
/// kernel refuses (no THP support: the buffer keeps small pages, nothing else changes).
bool advisePages(void* data, size_t bytes, PageHint pages);

/// Bytes this thread's pool holds now (for tests).
size_t pooledBytes();

}  // namespace tempo
