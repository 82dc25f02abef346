// Parallel: the one place the CPU kernels split work across cores.
//
// `parallelFor(n, cost, f)` calls `f(begin, end)` on contiguous chunks of
// [0, n): one chunk per OpenMP thread when the estimated work `n * cost`
// (cost = rough cycles per item, 1 for an add) reaches kParallelThreshold,
// else a single call on the calling thread, so small tensors never pay the
// fork/join (a few microseconds; 1 << 15 simple element operations, about
// 5 us of adds). Regions run with OpenMP's dynamic adjustment on: libgomp
// then uses fewer threads when the load average says the other core is
// busy — measured with bench/kernels on a loaded 2-core machine, a forced
// second thread turned a 30 us tanh into 9 ms (the barrier waits for a
// descheduled thread). `f` must not throw: an exception cannot leave an
// OpenMP region. Without OpenMP everything runs on one thread.
#pragma once

#include <cstdint>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tempo::cpu {

/// Work (items x cost) below which a loop runs on one thread.
inline constexpr int64_t kParallelThreshold = int64_t(1) << 15;

template <class F>
void parallelFor(int64_t n, int64_t cost, F&& f) {
  if (n <= 0) return;
#ifdef _OPENMP
  if (n * cost >= kParallelThreshold && n > 1 && omp_get_max_threads() > 1) {
    omp_set_dynamic(1);
#pragma omp parallel
    {
      int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
      int64_t begin = n * t / nt, end = n * (t + 1) / nt;
      if (begin < end) f(begin, end);
    }
    return;
  }
#endif
  f(int64_t(0), n);
}

}  // namespace tempo::cpu
