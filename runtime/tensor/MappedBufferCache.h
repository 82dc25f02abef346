// MappedBufferCache: freed tensor buffers of a MiB and more kept for the next value of their size.
//
// A tensor buffer of kMappedTensorBytes or more is a mapping of its own
// (BufferPool.h), and a fresh mapping's pages are faulted in and zeroed by
// the kernel on first touch, every time: the RNN's hoisted `x @ W` (16 MiB at
// T = 512) was 7% of each BPTT run in `clear_page_erms`, made anew by every
// run. The cache keeps a freed mapping and hands it out again for a buffer of
// exactly its size (contents unspecified, as from the heap), so a program run
// again, or a loop that frees and makes a value of one size, touches pages
// that are already there. Bound: the cached bytes plus the live mapped bytes
// never exceed the highest live mapped bytes seen since the last
// releaseCachedBuffers() (a free moves bytes from live to cached; a new
// mapping first unmaps cached buffers, largest first, until it fits under
// that high), so the cache adds nothing to the resident peak a run reaches.
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

/// Unmaps every cached buffer and lowers the bound to the live mapped bytes.
void releaseCachedBuffers();

/// Bytes the cache holds now, and the live mapped bytes (for tests).
size_t cachedMappedBytes();
size_t liveMappedBytes();

}  // namespace tempo
