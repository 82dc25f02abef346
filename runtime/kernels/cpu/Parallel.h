// Parallel: the one place the CPU kernels split work across cores.
//
// `parallelFor(n, cost, f)` calls `f(begin, end)` on contiguous chunks of
// [0, n): one chunk per OpenMP thread when the estimated work `n * cost`
// (cost = rough cycles per item, 1 for an add) reaches kParallelThreshold,
// else a single call on the calling thread, so small tensors never pay the
// fork/join (a few microseconds; 1 << 15 simple element operations, about
// 5 us of adds). Regions run on OpenMP's full thread count, dynamic adjustment
// off, as the GEMMs do (Matmul.cpp): libgomp's adjustment reads the load average,
// which counts this process's own spinning OpenMP threads, so during a run it gave
// every region one thread (2026-12-04, interleaved A/B with it on: RNN T=512
// 70-78 -> 70-71 us per step, decode S=256 4.6-5.3 -> 4.1-4.4 ms per token,
// REINFORCE unchanged or faster; docs/performance.md). The price is the GEMMs'
// too: on a machine loaded by other processes a region waits for a descheduled
// thread (once measured: a 30 us tanh took 9 ms). `f` must not throw: an exception cannot leave an
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
    omp_set_dynamic(0);  // see above: the load average counts our own threads
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
