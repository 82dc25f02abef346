#include "trace/KernelTimer.h"

namespace tempo {

namespace {

thread_local TraceCollector* listening = nullptr;

void kernelHook(int32_t /*function*/, int32_t phase, int64_t /*begin*/) {
  TraceCollector* trace = listening;
  if (!trace) return;  // a thread no timer listens on: a helper thread's range, or an untraced run
  if (phase == 0)
    trace->kernelEnter();
  else
    trace->kernelExit();
}

}  // namespace

KernelTimer::KernelTimer(const NativeModule& module, TraceCollector& trace) : module_(module), previous_(listening) {
  listening = &trace;
  module_.holdHook(&kernelHook);
}

KernelTimer::~KernelTimer() {
  module_.releaseHook();
  listening = previous_;
}

}  // namespace tempo
