// HeapTrim: malloc_trim at new highs of the tracked live bytes, and none once a run's peak is reached;
// buffers of 1 MiB and more mapped, never carved from the heap, even after a larger one was freed.
#include "executor/CompiledEngine.h"
#include "executor/HeapTrim.h"
#include "frontend/Frontend.h"
#include "pass/PassRegistry.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>

namespace tempo {
namespace {

TEST(HeapTrim, TrimsWhenTheLiveBytesPassTheLastMarkByAStep) {
  HeapTrim trim(100);
  trim.live(99);
  EXPECT_EQ(trim.trims(), 0);
  trim.live(100);  // the first mark is one step
  EXPECT_EQ(trim.trims(), 1);
  trim.live(40);
  trim.live(199);  // the next mark: 100 + 100
  EXPECT_EQ(trim.trims(), 1);
  trim.live(350);
  EXPECT_EQ(trim.trims(), 2);
  trim.live(449);
  EXPECT_EQ(trim.trims(), 2);
}

/// A sliding window over 256 KiB steps, compiled for T = 256 as `tempo run --set T=256` does.
CompiledProgram slidingWindow() {
  const std::string source = "dim t < T\nset T = 8\n"
                             "param a : f32[65536] = uniform(seed=5, low=-1.0, high=1.0)\n"
                             "x : f32[65536] over (t)\nx[0] = a\nx[t] = 0.9 * x[t-1] + a\n"
                             "m = max(x[max(0, t-7):t+1], dim=0)\nout y = sum(m, dim=0)\n";
  FrontendResult f = compileSource(source, "window.tpo", ".");
  EXPECT_TRUE(f.ok()) << f.renderedDiagnostics();
  PassContext context;
  context.boundHints = {{"T", 256}};
  return compileProgram(f.graph, defaultPipeline(), context);
}

TEST(HeapTrim, ARunTrimsOnTheWayToItsPeakAndNotAfter) {
  const CompiledProgram p = slidingWindow();
  const CompiledRunResult shortRun = runCompiled(p, SymbolEnv{{"T", 128}}, true);
  const CompiledRunResult longRun = runCompiled(p, SymbolEnv{{"T", 256}}, true);
  ASSERT_GT(longRun.stats.peakBytes, int64_t(2) << 20);
  EXPECT_LT(longRun.stats.peakBytes - shortRun.stats.peakBytes, 4096);  // a window: flat in T (y grows by 4 B a step)
  EXPECT_GE(longRun.stats.heapTrims, 1);
  EXPECT_LE(longRun.stats.heapTrims, longRun.stats.peakBytes / (int64_t(1) << 20));  // one per MiB of new high
  EXPECT_EQ(longRun.stats.heapTrims, shortRun.stats.heapTrims);  // none once the peak is reached
}

/// Exits 0 when a 2 MiB buffer is mapped and a 256 KiB one comes from the heap after an 8 MiB one was freed.
[[noreturn]] void checkTheMappingPolicy() {
  keepLargeBuffersOutOfTheHeap();
  void* volatile large = std::malloc(size_t(8) << 20);  // freed, it would raise glibc's own threshold to 8 MiB
  std::free(large);
  const size_t mapped = mallinfo2().hblks;
  void* volatile mebibytes = std::malloc(size_t(2) << 20);
  if (mallinfo2().hblks != mapped + 1) std::fprintf(stderr, "a 2 MiB buffer came from the heap\n"), std::_Exit(1);
  void* volatile small = std::malloc(size_t(256) << 10);
  if (mallinfo2().hblks != mapped + 1)
    std::fprintf(stderr, "a 256 KiB buffer was mapped: per-step buffers belong in the heap\n"), std::_Exit(1);
  std::free(small);
  std::free(mebibytes);
  std::_Exit(0);
}

TEST(HeapTrim, BuffersOfAMebibyteStayMappedAfterALargerOneIsFreed) {
  // glibc maps a buffer above the threshold only when its heap has no free chunk that fits:
  // in a process whose heap earlier tests grew, a 2 MiB buffer can come from the heap. So the
  // policy is checked in a fresh process (the threadsafe death-test style re-executes the binary).
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(checkTheMappingPolicy(), testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace tempo
