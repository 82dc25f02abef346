// Returning the heap's free pages at new highs of live bytes; see HeapTrim.h.
#include "executor/HeapTrim.h"

#include <malloc.h>

#include <mutex>

namespace tempo {

void keepLargeBuffersOutOfTheHeap() {
  static std::once_flag once;
  std::call_once(once, [] { mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMappedBufferBytes)); });
}

void HeapTrim::trim(int64_t bytes) {
  malloc_trim(0);
  ++trims_;
  next_ = bytes + step_;
}

}  // namespace tempo
