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
// thread, kMaxPerSize of one size), else to the heap. Larger buffers go to
// the heap (glibc reuses those pages well) up to a MiB, and to the
// MappedBufferCache from there. The memory tracker counts
// live tensors, not the pool; the pool adds at most 4 MiB per thread to the
// resident memory. A reused buffer holds old bytes: callers that need zeros
// write them (Tensor's constructor does).
//
// A buffer of kMappedTensorBytes (1 MiB) or more is a mapping of its own
// (ByteAllocator calls mmap and munmap), never a chunk of the heap: glibc maps
// a large malloc only when no free chunk of its heap fits, so in a process
// whose heap earlier work grew (a studio session, a test binary) multi-MiB
// values were carved from the heap and freed into holes the next values did
// not fit, and the resident memory followed the heap's history (decode's peer
// at T = 16: 90 MB resident for 64 MB live inside the test binary, 64.4 alone).
// Mapped, a freed value's pages go back (or to MappedBufferCache, within the
// live high, for the next value of its size); what the heap keeps is the
// small per-step buffers, which it reuses in place from run to run (the
// malloc_trim this replaced, at each MiB of a run's new high, gave those
// pages back and made every run fault them in again: 117,000 faults in 23
// runs of the RNN's BPTT at T = 512, 11,600 without; docs/memory.md).
// keepLargeBuffersOutOfTheHeap fixes glibc's own threshold for the other
// mallocs (a library's scratch, a kernel's vectors) the same way.
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

/// A tensor buffer this large is a mapping of its own (mmap), whatever the heap holds.
inline constexpr size_t kMappedTensorBytes = size_t(1) << 20;

/// Bytes a vector leaves unset when it grows (Tensor::uninitialized writes them itself);
/// kMappedTensorBytes and more are mapped and unmapped directly, never carved from the heap.
struct ByteAllocator : std::allocator<std::byte> {
  template <class U> struct rebind { using other = ByteAllocator; };
  std::byte* allocate(size_t n);
  void deallocate(std::byte* p, size_t n);
  template <class U> void construct(U* p) { ::new (static_cast<void*>(p)) U; }
  template <class U, class... A> void construct(U* p, A&&... a) { ::new (static_cast<void*>(p)) U(std::forward<A>(a)...); }
};
using TensorBuffer = std::vector<std::byte, ByteAllocator>;

inline constexpr size_t kMaxPooledBytes = size_t(256) << 10;
inline constexpr size_t kMaxPoolBytes = size_t(4) << 20;
inline constexpr size_t kMaxPerSize = 16;
inline constexpr size_t kHugePageBufferBytes = size_t(4) << 20;

/// Sets glibc's mmap threshold to kMappedTensorBytes, fixed (no longer raised by frees): a malloc
/// of 1 MiB or more outside the tensors is mapped too while the heap has no free chunk that
/// fits; once per process.
void keepLargeBuffersOutOfTheHeap();

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
