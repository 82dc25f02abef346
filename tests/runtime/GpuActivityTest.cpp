// GPU activity (runtime/cuda/CuptiCollector) without a GPU: the Chrome trace of
// CUPTI's records keeps Perfetto's rules (a track per device and stream, kernels
// and copies as slices), and a collector started where CUPTI cannot record says
// why instead of failing. On a GPU machine the device check records real activity
// (scripts/gpu-check.sh writes gpu-trace.json).
#include "cuda/CuptiCollector.h"
#include "support/ChromeTraceRules.h"

#include <gtest/gtest.h>

namespace tempo::cuda {
namespace {

TEST(GpuActivity, TheChromeTraceHasATrackPerStreamAndKeepsPerfettosRules) {
  using K = GpuActivity::Kind;
  std::vector<GpuActivity> records{
      {K::Memcpy, "memcpy HtoD", 1'000'000, 1'004'000, 0, 13, 7, 4096, 0, 0},
      {K::Kernel, "k15_y", 1'005'000, 1'005'800, 0, 13, 8, 0, 132, 256},
      {K::Kernel, "k29_\"fused\"", 1'006'000, 1'006'500, 0, 13, 9, 0, 4, 256},
      {K::Memset, "memset", 1'002'000, 1'002'100, 0, 14, 10, 1024, 0, 0},
  };
  const std::string trace = gpuActivityChromeTrace(records, "NVIDIA H200");
  EXPECT_EQ(testing::chromeTraceViolations(trace), std::vector<std::string>{});
  EXPECT_NE(trace.find("\"name\": \"k15_y\", \"cat\": \"kernel\""), std::string::npos) << trace;
  EXPECT_NE(trace.find("\"ts\": 5.000, \"dur\": 0.800"), std::string::npos) << trace;  // microseconds from the first
  EXPECT_NE(trace.find("\"name\": \"stream 14\""), std::string::npos) << trace;
  EXPECT_NE(trace.find("GPU 0 NVIDIA H200"), std::string::npos) << trace;
  EXPECT_NE(trace.find("k29_\\\"fused\\\""), std::string::npos) << trace;  // escaped
}

TEST(GpuActivity, ACollectorWithoutAGpuSaysWhyOrRecordsNothing) {
  CuptiCollector collector;
  std::string why;
  if (collector.start(why)) {
    EXPECT_TRUE(collector.active());
    EXPECT_TRUE(collector.stop().empty());  // nothing ran on a GPU
  } else {
    EXPECT_FALSE(why.empty());
    EXPECT_FALSE(collector.active());
  }
}

}  // namespace
}  // namespace tempo::cuda
