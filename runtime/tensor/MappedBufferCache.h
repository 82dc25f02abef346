// MappedBufferCache: freed tensor buffers of a MiB and more kept for the next value of their size.
//
// A tensor buffer of kMappedTensorBytes or more is a mapping of its own
// (BufferPool.h), and a fresh mapping's pages are faulted in and zeroed by
// the kernel on first touch, every time: the RNN's hoisted `x @ W` (16 MiB at
// T = 512) was 7% of each BPTT run in `clear_page_erms`, made anew by every
// run. The cache keeps a freed mapping and hands it out again for a buffer of
// exactly its size (contents unspecified, as from the heap), so a program run
// again, or a loop that frees and makes a value of one size, touches pages
// that are already there. Bound: the cached bytes plus the live tensor bytes
// (mapped and, through heapBufferMade/Dropped, the heap's, BufferPool's free
// lists included: they are resident too) stay a 16th below the highest live
// tensor bytes seen since the last releaseCachedBuffers() (a free moves bytes
// from live to cached; a new buffer that would pass that ceiling first unmaps
// cached ones, the one cached longest ago first), so the cache adds nothing
// to the resident peak a run reaches and leaves room for the memory tensors
// do not count (a GEMM library's packing, a kernel's vectors): filled to the
// high itself, it put decode's peer 7.4% over its tracked peak (0.6% without
// the cache). A small buffer checks the bound with a few relaxed atomic loads
// and takes the lock only when it must evict.
// What it does keep is that peak's mappings between runs, as PyTorch's and
// JAX's allocators keep theirs; releaseCachedBuffers() gives them back (the
// studio after a run, a test before it measures resident memory). Thread-safe
// (a mutex: buffers this large are made a few times a step at most).
#pragma once

#include "tensor/BufferPool.h"

#include <cstddef>
#include <memory>

namespace tempo {

/// A buffer of `bytes` (kMappedTensorBytes or more): a cached one of exactly that size, else a
/// new mapping; it returns to the cache when its last holder lets go.
std::shared_ptr<TensorBuffer> acquireMappedBuffer(size_t bytes);

/// BufferPool's heap buffers (under kMappedTensorBytes) as they are made and given back to the
/// heap (a pooled one stays counted): bytes the bound counts; a new one may unmap cached buffers
/// to stay under the high.
void heapBufferMade(size_t bytes);
void heapBufferDropped(size_t bytes);

/// Unmaps every cached buffer and lowers the bound to the live tensor bytes.
void releaseCachedBuffers();

/// Bytes the cache holds now, the live mapped bytes and the live heap tensor bytes (for tests).
size_t cachedMappedBytes();
size_t liveMappedBytes();
size_t liveHeapTensorBytes();

}  // namespace tempo
