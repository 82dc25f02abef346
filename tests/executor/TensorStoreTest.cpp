// Tensor stores and the memory tracker: slots, eviction errors, byte accounting.
#include "executor/ExecError.h"
#include "memory/MemoryTimeline.h"
#include "executor/MemoryTracker.h"
#include "executor/TensorStore.h"
#include "executor/SourceArrays.h"

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

TEST(TensorStore, CircularInOneBufferReadsWindowsInPlace) {
  MemoryTracker m;
  CircularStore s(context(&m, {2, 7}), 1, 3, {}, true);  // along t, window 3: 6 lanes per b
  EXPECT_EQ(s.describe(), "circular(t, 3) in one buffer");
  EXPECT_TRUE(s.inOneBuffer());
  EXPECT_EQ(s.bytesToWrite({0, 0}, value(0)), 6 * 16);  // the buffer of b = 0, made by this write
  for (int64_t t = 0; t < 5; ++t)
    for (int64_t b = 0; b < 2; ++b) s.write({b, t}, value(10 * b + t));
  EXPECT_EQ(m.liveBytes(), 2 * 6 * 16);  // one buffer of 2 * 3 lanes per b, counted once
  EXPECT_EQ(s.bytesToWrite({1, 5}, value(0)), 0);
  EXPECT_EQ(s.read({1, 4}).at(0), 14);
  EXPECT_NE(errorOf(s, {1, 1}).find("evicted"), std::string::npos);
  // t = 2..4 of b = 1 lie in lanes 2, 0, 1: read from lanes 2..4, the second copies of 0 and 1.
  for (auto [lo, hi] : {std::pair<int64_t, int64_t>{2, 5}, {3, 5}, {4, 5}, {2, 3}}) {
    std::optional<Tensor> run = s.windowRunAsRead({1, lo}, {2, hi}, 1);
    ASSERT_TRUE(run) << lo << ".." << hi;
    EXPECT_EQ(run->shape(), (std::vector<int64_t>{hi - lo, 4}));
    for (int64_t t = lo; t < hi; ++t) EXPECT_EQ(run->at((t - lo) * 4 + 3), 10 + t) << "t = " << t;
    EXPECT_TRUE(run->sharesBufferWith(s.read({1, 4})));
  }
  EXPECT_FALSE(s.windowRunAsRead({1, 1}, {2, 4}, 1));  // t = 1 is evicted
  EXPECT_FALSE(s.windowRunAsRead({0, 2}, {2, 5}, 1));  // two coordinates of b
  EXPECT_FALSE(s.windowRunAsRead({1, 3}, {2, 6}, 1));  // t = 5 not written
  s.writeUndefined({0, 5});
  EXPECT_FALSE(s.windowRunAsRead({0, 4}, {1, 6}, 1));  // t = 5 undefined
  EXPECT_THROW(s.write({0, 6}, value(1, 8)), ExecError);  // another shape does not fit the buffer
  s.free();
  EXPECT_EQ(m.liveBytes(), 0);
  EXPECT_FALSE(s.windowRunAsRead({1, 4}, {2, 5}, 1));
  CircularStore plain(context(&m), 1, 3);
  plain.write({0, 0}, value(1));
  EXPECT_FALSE(plain.windowRunAsRead({0, 0}, {1, 1}, 1));  // values apart: the reader stacks them
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

TEST(TensorStore, ASourceStoreHoldsItsPointsAsWindowsOfTheArrayAndNoValueOfItsOwn) {
  MemoryTracker m;
  Node n;
  n.id = 3;
  n.op = OpKind::HashInit;
  n.domain = {"b", "t"};
  n.type.shape = {IndexExpr(4)};
  Tensor array(DType::F32, {2, 5, 4});
  for (int64_t i = 0; i < array.numel(); ++i) array.set(i, static_cast<double>(i));
  const std::map<NodeId, Tensor> given{{3, array}};
  SourceArrays sources(&m, &given);
  const Tensor& whole = sources.get(n, {2, 5}, {}, "%3");
  WholeStore s(context(&m));
  s.readViewsOf(&sources);
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t t = 0; t < 5; ++t)
      if (b == 1) s.writeArrayPoint({b, t});  // what the executor does: no window made
      else if (t < 2) s.write({b, t}, whole.viewAt({b, t}));
  EXPECT_EQ(m.liveBytes(), 2 * 5 * 16);  // the array, once
  EXPECT_EQ(s.read({1, 3}).at(0), 32);
  EXPECT_TRUE(s.read({1, 3}).sharesBufferWith(array));
  EXPECT_NE(errorOf(s, {0, 3}).find("never written"), std::string::npos);
  std::optional<Tensor> row = s.arrayRunAsRead({1, 0}, {2, 5});  // b = 1, every t: one run of the array
  ASSERT_TRUE(row);
  EXPECT_EQ(row->shape(), (std::vector<int64_t>{5, 4}));
  EXPECT_EQ(row->at(0), 20);
  EXPECT_TRUE(row->sharesBufferWith(array));
  EXPECT_FALSE(s.arrayRunAsRead({0, 0}, {2, 2}));  // t in [0, 2) of both rows: two runs
  EXPECT_FALSE(s.arrayRunAsRead({0, 0}, {1, 5}));  // b = 0 past t = 1 was never written
  s.free();
  sources.release(3);
  EXPECT_EQ(m.liveBytes(), 0);
  EXPECT_THROW(s.writeArrayPoint({0, 0}), ExecError);  // after free, as a write
}

TEST(TensorStore, OnlyASourceStoreTakesAPointWithoutItsValue) {
  MemoryTracker m;
  WholeStore s(context(&m));
  try {
    s.writeArrayPoint({0, 0});
    FAIL() << "a computed node's store took a point without a value";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("does not read a source's array"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(s.holds({0, 0}));
}

TEST(MemoryTracker, PeakAndPerNode) {
  MemoryTracker m;
  Tensor a = value(1, 25), b = value(2, 12), c = value(3, 5);  // 100, 48 and 20 bytes
  m.hold(1, a);
  m.hold(2, b);
  m.drop(1, a);
  m.hold(2, c);
  EXPECT_EQ(m.liveBytes(), 68);
  EXPECT_EQ(m.peakBytes(), 148);
  EXPECT_EQ(m.nodeBytes(2), 68);
  EXPECT_EQ(m.nodePeakBytes(1), 100);
  EXPECT_EQ(m.nodeBytes(7), 0);
  EXPECT_THROW(m.drop(1, a), std::logic_error);
}

// A buffer counts once however many stores hold it (a merge holding its
// branch's value, a reshape, windows of one array), from the first hold to
// the last drop, charged to the node that held it first.
TEST(MemoryTracker, ASharedBufferCountsOnce) {
  MemoryTracker m;
  Tensor x = value(1, 8);  // 32 bytes
  Tensor view = x.reshaped({2, 4}), window = x.window(4, {4});
  m.hold(1, x);
  m.hold(2, view);
  m.hold(3, window);
  EXPECT_EQ(m.liveBytes(), 32);
  EXPECT_EQ(m.nodeBytes(1), 32);
  EXPECT_EQ(m.nodeBytes(2), 0);
  m.drop(1, x);
  EXPECT_EQ(m.nodeBytes(2), 32);  // the charge moves to a holder still holding it
  m.drop(2, view);
  EXPECT_EQ(m.liveBytes(), 32);  // the window keeps the whole buffer
  EXPECT_EQ(m.nodeBytes(3), 32);
  m.drop(3, window);
  EXPECT_EQ(m.liveBytes(), 0);
  Tensor copy = x.clone();
  m.hold(1, x);
  m.hold(2, copy);
  EXPECT_EQ(m.liveBytes(), 64);
}

TEST(MemoryTracker, SwappingOutOneOfTwoHoldersFreesNothing) {
  MemoryTracker m;
  Tensor x = value(1, 8);
  m.hold(1, x);
  m.hold(2, x);
  m.swapOut(1, x);
  EXPECT_EQ(m.liveBytes(), 32);
  EXPECT_EQ(m.swappedBytes(), 0);
  m.drop(2, x);
  EXPECT_EQ(m.liveBytes(), 0);
  EXPECT_EQ(m.swappedBytes(), 32);  // only the swap area holds it now
  m.swapIn(1, x);
  EXPECT_EQ(m.liveBytes(), 32);
  EXPECT_EQ(m.swappedBytes(), 0);
}

TEST(TensorStore, TwoStoresHoldingOneValueCountItOnce) {
  MemoryTracker m;
  PointStore branch(context(&m));
  WholeStore merge({4, "%4 'x' (merge)", {"b", "t"}, {2, 5}, &m});
  Tensor v = value(1);
  branch.write({0, 0}, v);
  merge.write({0, 0}, v);
  EXPECT_EQ(m.liveBytes(), 16);
  branch.write({0, 1}, value(2));
  EXPECT_EQ(m.liveBytes(), 32);
  branch.free();
  EXPECT_EQ(m.liveBytes(), 16);
}

// A block store keeps BS values in one buffer, made by the first write into
// the block, each value copied into its lane: bytes grow by whole blocks.
TEST(TensorStore, BlockStoreWritesValuesInPlaceInWholeBlocks) {
  MemoryTracker m;
  BlockStore s(context(&m, {1, 5}), 1, 2);  // blocks of t: [0, 2), [2, 4), [4, 6)
  s.write({0, 0}, value(1));
  EXPECT_EQ(m.liveBytes(), 32);  // one block of two 16-byte values
  s.write({0, 1}, value(2));
  EXPECT_EQ(m.liveBytes(), 32);
  EXPECT_TRUE(s.read({0, 0}).sharesBufferWith(s.read({0, 1})));
  s.write({0, 2}, value(3));
  EXPECT_EQ(m.liveBytes(), 64);
  EXPECT_EQ(s.read({0, 0}).at(0), 1);
  EXPECT_EQ(s.read({0, 1}).at(3), 2);
  EXPECT_EQ(s.read({0, 2}).at(0), 3);
  EXPECT_THROW(s.write({0, 3}, value(1, 8)), ExecError);  // does not fit the block's lanes
  s.free();
  EXPECT_EQ(m.liveBytes(), 0);
}

TEST(TensorStore, BlockReadTakesTheBlockOnlyWhenItsOtherLanesAreUnwritten) {
  BlockStore s(context(nullptr, {1, 7}), 1, 4);  // blocks of t: [0, 4), [4, 8)
  s.write({0, 4}, value(1));
  s.write({0, 5}, value(2));
  const Tensor* block = s.blockAsRead({0, 4}, 1, 4, 4, 4, 6);  // lanes 0, 1 read; 2, 3 never written
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(block->shape(), (std::vector<int64_t>{4, 4}));
  EXPECT_TRUE(block->sharesBufferWith(s.read({0, 5})));
  EXPECT_EQ(block->at(4), 2);
  EXPECT_EQ(block->at(8), 0);
  EXPECT_EQ(s.blockAsRead({0, 5}, 1, 4, 4, 5, 6), nullptr);  // lane 0 holds a value the read leaves out
  EXPECT_EQ(s.blockAsRead({0, 4}, 1, 4, 4, 4, 5), nullptr);  // so does lane 1
  EXPECT_EQ(s.blockAsRead({0, 4}, 1, 4, 4, 4, 7), nullptr);  // position 6 is not written yet
  EXPECT_EQ(s.blockAsRead({0, 4}, 1, 4, 2, 4, 6), nullptr);  // other lanes than the store's
  EXPECT_EQ(s.blockAsRead({0, 0}, 1, 0, 4, 0, 2), nullptr);  // block 0 was never made
  s.write({0, 6}, value(3));
  EXPECT_NE(s.blockAsRead({0, 4}, 1, 4, 4, 4, 7), nullptr);  // the last block ends at the bound
  s.free();
  EXPECT_EQ(s.blockAsRead({0, 4}, 1, 4, 4, 4, 6), nullptr);
}

TEST(MemoryTimeline, KeepsEveryPeakWhenItHalves) {
  MemoryTimeline t(4);
  for (int i = 0; i < 10; ++i) t.add(MemoryEvent::Kind::Alloc, i, 10 * i, i == 3 ? 1000 : 10 * i);
  EXPECT_EQ(t.statements(), 10);
  EXPECT_LE(t.events().size(), 4u);
  EXPECT_EQ(t.peakBytes(), 1000);
  int64_t covered = 0, peak = 0;
  for (const MemoryEvent& e : t.events()) covered += e.count, peak = std::max(peak, e.peakBytes);
  EXPECT_EQ(covered, 10);
  EXPECT_EQ(peak, 1000);
  EXPECT_EQ(t.events().back().statement, 9);
  EXPECT_EQ(t.events().back().liveBytes, 90);
  EXPECT_EQ(t.events().back().node, 9);
}

}  // namespace
}  // namespace tempo
