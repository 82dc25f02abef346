// Freed mapped tensor buffers reused for the same size, within the live high; see MappedBufferCache.h.
#include "tensor/MappedBufferCache.h"

#include <algorithm>
#include <atomic>
#include <list>
#include <map>
#include <mutex>
#include <vector>

namespace tempo {

namespace {

struct Cache {
  std::mutex mutex;
  std::list<TensorBuffer*> order;  ///< the cached buffers, the one cached longest ago first (evicted first)
  std::multimap<size_t, std::list<TensorBuffer*>::iterator> free;  ///< the same by size, for the lookup
  std::atomic<size_t> mapped{0};              ///< live mapped bytes (written under the mutex)
  std::atomic<size_t> heap{0};                ///< live heap tensor bytes (heapBufferMade / Dropped)
  std::atomic<size_t> cached{0};              ///< bytes in `free` (written under the mutex)
  std::atomic<size_t> high{0};                ///< the bound: the highest live bytes (written under the mutex)
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: buffers may be dropped during static destruction
  return *c;
}

/// What live + cached bytes may reach: the high less a 16th, room for the memory the tensors
/// do not count (a GEMM library's packing, a kernel's vectors), which the cache would otherwise
/// stack on top of a full high (decode: +7.4% resident over the tracked peak with the whole high).
size_t ceiling(const Cache& c) {
  const size_t high = c.high.load(std::memory_order_relaxed);
  return high - high / 16;
}

/// Under the mutex: unmaps cached buffers, the one cached longest ago first, until live + cached fits under the
/// ceiling (or nothing is cached), then raises the high to the live bytes. Returns what to delete.
std::vector<TensorBuffer*> fitUnderTheCeiling(Cache& c) {
  std::vector<TensorBuffer*> evicted;
  const size_t live = c.mapped + c.heap.load(std::memory_order_relaxed);
  while (live + c.cached.load(std::memory_order_relaxed) > ceiling(c) && !c.order.empty()) {
    TensorBuffer* oldest = c.order.front();
    auto [first, last] = c.free.equal_range(oldest->size());
    while (first->second != c.order.begin()) ++first;
    c.free.erase(first);
    c.order.pop_front();
    c.cached.fetch_sub(oldest->size(), std::memory_order_relaxed);
    evicted.push_back(oldest);
  }
  if (live > c.high.load(std::memory_order_relaxed)) c.high.store(live, std::memory_order_relaxed);
  return evicted;
}

void unmap(const std::vector<TensorBuffer*>& buffers) {
  for (TensorBuffer* b : buffers) delete b;  // outside the mutex
}

/// The deleter of every mapped buffer: into the cache (live + cached stays where it was).
void keep(TensorBuffer* b) {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  c.mapped -= b->size();
  c.cached.fetch_add(b->size(), std::memory_order_relaxed);
  c.free.emplace(b->size(), c.order.insert(c.order.end(), b));
}

}  // namespace

std::shared_ptr<TensorBuffer> acquireMappedBuffer(size_t bytes) {
  Cache& c = cache();
  std::vector<TensorBuffer*> evicted;
  {
    std::lock_guard lock(c.mutex);
    c.mapped += bytes;
    auto it = c.free.find(bytes);
    if (it != c.free.end()) {
      TensorBuffer* b = *it->second;
      c.order.erase(it->second);
      c.free.erase(it);
      c.cached.fetch_sub(bytes, std::memory_order_relaxed);
      return std::shared_ptr<TensorBuffer>(b, keep);
    }
    evicted = fitUnderTheCeiling(c);
  }
  unmap(evicted);
  try {
    return std::shared_ptr<TensorBuffer>(new TensorBuffer(bytes), keep);  // no byte touched yet (ByteAllocator)
  } catch (...) {
    std::lock_guard lock(c.mutex);
    c.mapped -= bytes;
    throw;
  }
}

void heapBufferMade(size_t bytes) {
  Cache& c = cache();
  const size_t heap = c.heap.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  const size_t cached = c.cached.load(std::memory_order_relaxed);
  if (cached == 0 || c.mapped.load(std::memory_order_relaxed) + heap + cached <= ceiling(c)) return;  // no lock
  std::vector<TensorBuffer*> evicted;
  {
    std::lock_guard lock(c.mutex);
    evicted = fitUnderTheCeiling(c);
  }
  unmap(evicted);
}

void heapBufferDropped(size_t bytes) { cache().heap.fetch_sub(bytes, std::memory_order_relaxed); }

void releaseCachedBuffers() {
  Cache& c = cache();
  std::list<TensorBuffer*> evicted;
  {
    std::lock_guard lock(c.mutex);
    evicted.swap(c.order);
    c.free.clear();
    c.cached.store(0, std::memory_order_relaxed);
    c.high.store(c.mapped + c.heap.load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
  for (TensorBuffer* b : evicted) delete b;
}

size_t cachedMappedBytes() { return cache().cached.load(std::memory_order_relaxed); }

size_t liveMappedBytes() {
  std::lock_guard lock(cache().mutex);
  return cache().mapped;
}

size_t liveHeapTensorBytes() { return cache().heap.load(std::memory_order_relaxed); }

}  // namespace tempo
