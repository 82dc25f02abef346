// Returning the heap's free pages at new highs of live bytes; see HeapTrim.h.
#include "executor/HeapTrim.h"

#include <malloc.h>

namespace tempo {

void HeapTrim::trim(int64_t bytes) {
  malloc_trim(0);
  ++trims_;
  next_ = bytes + step_;
}

}  // namespace tempo
