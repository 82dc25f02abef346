// Tensor stores and the memory tracker: slots, eviction errors, byte accounting.
#include "executor/ExecError.h"
#include "executor/MemoryTracker.h"
#include "executor/TensorStore.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

StoreContext context(MemoryTracker* tracker, std::vector<int64_t> bounds = {2, 5}) {
  return {3, "%3 'h' (merge)", {"b", "t"}, std::move(bounds), tracker};
}

Tensor value(double v, int64_t n = 4) { return Tensor::full(DType::F32, {n}, v); }

std::string errorOf(const TensorStore& s, const std::vector<int64_t>& p) {
  try {
    s.read(p);
  } catch (const ExecError& e) {
    EXPECT_EQ(e.node, 3);
    EXPECT_EQ(e.point, p);
    return e.what();
  }
  return "";
}

TEST(TensorStore, WholeKeepsEveryPoint) {
  MemoryTracker m;
  WholeStore s(context(&m));
  EXPECT_EQ(s.slotCount(), 10u);
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t t = 0; t < 5; ++t) s.write({b, t}, value(10 * b + t));
  EXPECT_EQ(s.read({1, 3}).at(0), 13);
  EXPECT_EQ(s.bytes(), 10 * 16);
  EXPECT_EQ(m.liveBytes(), 10 * 16);
  s.write({1, 3}, value(0, 8));  // overwrite with a bigger value
  EXPECT_EQ(m.liveBytes(), 9 * 16 + 32);
  EXPECT_NE(errorOf(s, {0, 5}).find("outside the domain"), std::string::npos);
}

TEST(TensorStore, NeverWrittenIsAnError) {
  MemoryTracker m;
  WholeStore s(context(&m));
  std::string e = errorOf(s, {0, 1});
  EXPECT_NE(e.find("never written"), std::string::npos) << e;
  EXPECT_NE(e.find("%3 'h'"), std::string::npos) << e;
  EXPECT_NE(e.find("t=1"), std::string::npos) << e;
}

TEST(TensorStore, PointHoldsOnlyTheLatest) {
  MemoryTracker m;
  PointStore s(context(&m));
  s.write({0, 0}, value(1));
  s.write({0, 1}, value(2));
  EXPECT_EQ(s.read({0, 1}).at(0), 2);
  EXPECT_TRUE(s.holds({0, 1}));
  EXPECT_FALSE(s.holds({0, 0}));
  std::string e = errorOf(s, {0, 0});
  EXPECT_NE(e.find("only the latest point"), std::string::npos) << e;
  EXPECT_EQ(m.liveBytes(), 16);
  EXPECT_EQ(m.peakBytes(), 16);
}

TEST(TensorStore, CircularEvictsOutsideTheWindow) {
  MemoryTracker m;
  CircularStore s(context(&m), 1, 2);
  EXPECT_EQ(s.describe(), "circular(t, 2)");
  EXPECT_EQ(s.slotCount(), 4u);
  for (int64_t t = 0; t < 4; ++t)
    for (int64_t b = 0; b < 2; ++b) s.write({b, t}, value(10 * b + t));
  EXPECT_EQ(s.read({1, 3}).at(0), 13);
  EXPECT_EQ(s.read({0, 2}).at(0), 2);
  std::string e = errorOf(s, {1, 1});
  EXPECT_NE(e.find("evicted"), std::string::npos) << e;
  EXPECT_NE(e.find("t=3"), std::string::npos) << e;
  EXPECT_EQ(m.liveBytes(), 4 * 16);
  EXPECT_EQ(m.peakBytes(), 4 * 16);
  EXPECT_THROW(CircularStore(context(&m), 2, 2), ExecError);
}

TEST(TensorStore, FreeAndSwap) {
  MemoryTracker m;
  WholeStore s(context(&m));
  s.write({0, 0}, value(1));
  s.swapOut();
  EXPECT_EQ(m.liveBytes(), 0);
  EXPECT_EQ(m.swappedBytes(), 16);
  EXPECT_NE(errorOf(s, {0, 0}).find("swapped out"), std::string::npos);
  s.swapIn();
  EXPECT_EQ(s.read({0, 0}).at(0), 1);
  s.free();
  EXPECT_EQ(m.liveBytes(), 0);
  EXPECT_NE(errorOf(s, {0, 0}).find("freed"), std::string::npos);
  EXPECT_THROW(s.write({0, 0}, value(1)), ExecError);
  s.allocate();
  s.write({0, 0}, value(1));
  EXPECT_EQ(m.liveBytes(), 16);
}

TEST(TensorStore, DestroyingReleasesBytes) {
  MemoryTracker m;
  {
    PointStore s(context(&m));
    s.write({0, 0}, value(1));
    EXPECT_EQ(m.liveBytes(), 16);
  }
  EXPECT_EQ(m.liveBytes(), 0);
  EXPECT_EQ(m.peakBytes(), 16);
}

TEST(MemoryTracker, PeakAndPerNode) {
  MemoryTracker m;
  m.allocate(1, 100);
  m.allocate(2, 50);
  m.release(1, 100);
  m.allocate(2, 20);
  EXPECT_EQ(m.liveBytes(), 70);
  EXPECT_EQ(m.peakBytes(), 150);
  EXPECT_EQ(m.nodeBytes(2), 70);
  EXPECT_EQ(m.nodePeakBytes(1), 100);
  EXPECT_EQ(m.nodeBytes(7), 0);
  EXPECT_THROW(m.release(2, 71), std::logic_error);
}

}  // namespace
}  // namespace tempo
