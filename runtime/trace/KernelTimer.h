// KernelTimer: the time a traced run spends inside generated code, from the kernels' own hook.
//
// Every generated kernel calls the hook of its module at its entry and its exit
// (LlvmKernels.h) when one is set. While a KernelTimer lives, the module's hook
// is set and routes the calls made on the constructing thread — the executor's
// (a kernel split over the cores runs its first range there; the helper
// threads have no listener, so no range is timed twice) — to its TraceCollector, which
// charges the time to the statement running the kernel (TraceSpan::kernelNs):
// `tempo profile` then tells the kernel's time from the executor's around it.
// Other threads, and runs without a timer, pay a load and a branch per call.
#pragma once

#include "codegen/NativeModule.h"
#include "trace/TraceCollector.h"

namespace tempo {

class KernelTimer {
public:
  KernelTimer(const NativeModule& module, TraceCollector& trace);
  ~KernelTimer();
  KernelTimer(const KernelTimer&) = delete;
  KernelTimer& operator=(const KernelTimer&) = delete;

private:
  const NativeModule& module_;
  TraceCollector* previous_;
};

}  // namespace tempo
