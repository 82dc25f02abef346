// BufferPool: a per-thread free list of buffers by exact size.
#include "tensor/BufferPool.h"

#include "tensor/MappedBufferCache.h"

#include <malloc.h>
#include <sys/mman.h>

#include <cstdint>
#include <mutex>
#include <new>
#include <unordered_map>

namespace tempo {

std::byte* ByteAllocator::allocate(size_t n) {
  if (n < kMappedTensorBytes) return std::allocator<std::byte>::allocate(n);
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<std::byte*>(p);
}

void ByteAllocator::deallocate(std::byte* p, size_t n) {
  if (n < kMappedTensorBytes) return std::allocator<std::byte>::deallocate(p, n);
  munmap(p, n);
}

void keepLargeBuffersOutOfTheHeap() {
  static std::once_flag once;
  std::call_once(once, [] { mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMappedTensorBytes)); });
}

namespace {

struct Pool {
  std::unordered_map<size_t, std::vector<TensorBuffer*>> free;
  size_t bytes = 0;
  ~Pool();
};

thread_local bool poolAlive = false;  // trivially destructible: readable while the pool is torn down
thread_local Pool pool;

Pool::~Pool() {
  poolAlive = false;
  for (auto& [size, list] : free)
    for (TensorBuffer* b : list) {
      heapBufferDropped(size);
      delete b;
    }
}

Pool& thisThreadsPool() {
  poolAlive = true;  // touching `pool` constructs it (and registers its destructor)
  return pool;
}

/// The deleter of every pooled-size buffer: back to the dropping thread's pool, within bounds.
void release(TensorBuffer* b) {
  const size_t size = b->size();
  if (poolAlive) {
    Pool& p = pool;
    if (p.bytes + size <= kMaxPoolBytes) {
      std::vector<TensorBuffer*>& list = p.free[size];
      if (list.size() < kMaxPerSize) {
        list.push_back(b);
        p.bytes += size;
        return;
      }
    }
  }
  heapBufferDropped(size);
  delete b;
}

}  // namespace

bool advisePages(void* data, size_t bytes, PageHint pages) {
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end <= begin) return false;
  const int advice = pages == PageHint::Huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE;
  return madvise(reinterpret_cast<void*>(begin), end - begin, advice) == 0;
}

std::shared_ptr<TensorBuffer> acquireBuffer(size_t bytes, PageHint pages) {
  if (bytes >= kMappedTensorBytes) {
    auto buffer = acquireMappedBuffer(bytes);
    if (bytes >= kHugePageBufferBytes) advisePages(buffer->data(), bytes, pages);
    return buffer;
  }
  if (bytes == 0) return std::make_shared<TensorBuffer>(bytes);
  if (bytes > kMaxPooledBytes) {
    heapBufferMade(bytes);
    return std::shared_ptr<TensorBuffer>(new TensorBuffer(bytes), [](TensorBuffer* b) {
      heapBufferDropped(b->size());
      delete b;
    });
  }
  Pool& p = thisThreadsPool();
  auto it = p.free.find(bytes);
  if (it != p.free.end() && !it->second.empty()) {
    TensorBuffer* b = it->second.back();
    it->second.pop_back();
    p.bytes -= bytes;
    return std::shared_ptr<TensorBuffer>(b, release);
  }
  heapBufferMade(bytes);  // counted until it leaves the pool for the heap: a pooled buffer is resident
  return std::shared_ptr<TensorBuffer>(new TensorBuffer(bytes), release);
}

size_t pooledBytes() { return poolAlive ? pool.bytes : 0; }

}  // namespace tempo
