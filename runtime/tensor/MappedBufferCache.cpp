// Freed mapped tensor buffers reused for the same size, within the live high; see MappedBufferCache.h.
#include "tensor/MappedBufferCache.h"

#include <map>
#include <mutex>

namespace tempo {

namespace {

struct Cache {
  std::mutex mutex;
  std::multimap<size_t, TensorBuffer*> free;  ///< by size: a lookup by exact size, eviction from the largest
  size_t live = 0, cached = 0, high = 0;      ///< mapped bytes held by tensors, in `free`, and the bound
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: buffers may be dropped during static destruction
  return *c;
}

/// The deleter of every mapped buffer: into the cache (live + cached stays where it was).
void keep(TensorBuffer* b) {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  c.live -= b->size();
  c.cached += b->size();
  c.free.emplace(b->size(), b);
}

}  // namespace

std::shared_ptr<TensorBuffer> acquireMappedBuffer(size_t bytes) {
  Cache& c = cache();
  std::vector<TensorBuffer*> evicted;
  {
    std::lock_guard lock(c.mutex);
    c.live += bytes;
    auto it = c.free.find(bytes);
    if (it != c.free.end()) {
      TensorBuffer* b = it->second;
      c.free.erase(it);
      c.cached -= bytes;
      return std::shared_ptr<TensorBuffer>(b, keep);
    }
    while (c.live + c.cached > c.high && !c.free.empty()) {
      auto largest = std::prev(c.free.end());
      c.cached -= largest->first;
      evicted.push_back(largest->second);
      c.free.erase(largest);
    }
    c.high = std::max(c.high, c.live);
  }
  for (TensorBuffer* b : evicted) delete b;  // unmapped outside the lock
  try {
    return std::shared_ptr<TensorBuffer>(new TensorBuffer(bytes), keep);  // no byte touched yet (ByteAllocator)
  } catch (...) {
    std::lock_guard lock(c.mutex);
    c.live -= bytes;
    throw;
  }
}

void releaseCachedBuffers() {
  Cache& c = cache();
  std::multimap<size_t, TensorBuffer*> evicted;
  {
    std::lock_guard lock(c.mutex);
    evicted.swap(c.free);
    c.cached = 0;
    c.high = c.live;
  }
  for (auto& [size, b] : evicted) delete b;
}

size_t cachedMappedBytes() {
  std::lock_guard lock(cache().mutex);
  return cache().cached;
}

size_t liveMappedBytes() {
  std::lock_guard lock(cache().mutex);
  return cache().live;
}

}  // namespace tempo
