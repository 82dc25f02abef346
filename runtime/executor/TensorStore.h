// TensorStore: where the executor keeps one node's values, by domain point.
//
// A store is a fixed array of slots; each kind maps a domain point to a slot:
// WholeStore gives every point its own slot (row-major over the domain box),
// PointStore has a single slot (the latest point written), CircularStore keeps
// `window` slots per combination of the other coordinates along one dimension
// (slot = coord mod window), BlockStore holds every point like WholeStore but
// keeps its values in blocks of BS coordinates along one dimension, one buffer a block;
// a CircularStore in one buffer (StoreSpec::oneBuffer) copies each value into two lanes of
// one buffer of 2 * window lanes, so that a window of at most `window` consecutive
// coordinates is read in place (windowRunAsRead).
// Each slot remembers the exact point it holds (as its row-major index over
// the domain box: a slot costs no allocation until written), so
// reading a point that is not held — evicted by a newer write, never written,
// freed, or swapped out — is an ExecError naming the node, the point and the
// reason, never a stale value. A point can also be held as undefined (see
// writeUndefined); reading it is an error too. Stores report the values they
// hold to a MemoryTracker as they come and go (it counts each buffer once).
// A whole-array source's store (readViewsOf) keeps no value per point: its
// points are windows of the node's array in SourceArrays, which counts the
// array; the store only remembers which points were written.
#pragma once

#include "executor/MemoryTracker.h"
#include "executor/SourceArrays.h"
#include "memory/StoragePlan.h"
#include "tensor/Tensor.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

/// What a store needs to know about its node.
struct StoreContext {
  int node = -1;
  std::string label;               ///< `%4 'h' (merge)` for messages
  std::vector<std::string> dims;   ///< the node's domain
  std::vector<int64_t> bounds;     ///< values of the domain's bounds
  MemoryTracker* tracker = nullptr;
};

class TensorStore {
public:
  using Point = std::vector<int64_t>;
  virtual ~TensorStore();
  TensorStore(const TensorStore&) = delete;
  TensorStore& operator=(const TensorStore&) = delete;

  virtual StoreKind kind() const = 0;
  /// `whole`, `point`, `circular(t, 2)`.
  virtual std::string describe() const = 0;

  void write(const Point& p, Tensor value);
  /// For a whole-array source's store (readViewsOf): records `p` as written, its value being the
  /// window of the array there (what write records of a value it is given; no view is made).
  void writeArrayPoint(const Point& p);
  /// writeArrayPoint for every point of the non-empty box [lo, hi) at once, when
  /// `slotsDistinctIn(lo, hi)`: the points then leave the store as one point at a time,
  /// in any order, would (an ExecError otherwise, and for a box leaving the domain).
  void writeArrayBox(const Point& lo, const Point& hi);
  /// Whether the points of the non-empty box [lo, hi) all have slots of their own.
  virtual bool slotsDistinctIn(const Point& lo, const Point& hi) const = 0;
  /// Marks `p` as having no value (its node reads outside a producer's domain
  /// there: a branch the schedule runs where its merge never takes it).
  void writeUndefined(const Point& p);
  /// The value at `p`; ExecError if the store does not hold it or it is undefined.
  Tensor read(const Point& p) const;
  /// The same, nullopt where `p` is held undefined (a reader's point is then undefined too).
  std::optional<Tensor> readIfDefined(const Point& p) const;
  /// Makes this the store of a whole-array source: a write records its point
  /// only and a read is the window of the node's array in `sources` there.
  void readViewsOf(const SourceArrays* sources) { sourceArrays_ = sources; }
  /// True when `p` is held and was written undefined.
  bool undefinedAt(const Point& p) const;
  bool holds(const Point& p) const;

  void allocate();  ///< opens an unallocated or freed store; a fresh store is open unless markUnallocated()
  /// For a store the schedule allocates: reads and writes fail until allocate().
  void markUnallocated();
  void free();      ///< drops every value; reads and writes fail until allocate()
  void swapOut();   ///< values move to the store's host swap area (counted as swapped); reads fail until swapIn()
  void swapIn();
  bool swappedOut() const { return state_ == State::Swapped; }
  bool isOpen() const { return state_ == State::Open; }
  /// Every value the store holds, in memory or in the swap area.
  void heldValues(std::vector<const Tensor*>& out) const;
  /// The bytes writing `value` at `p` would add to the tracker: its buffer
  /// unless held already, or a block store's new block.
  int64_t bytesToWrite(const Point& p, const Tensor& value) const;

  /// The buffer of the block whose lane 0 is position `first` of `dim` (the
  /// other dims at `at`), when a block read of [lo, hi) in lanes of `lanes`
  /// can take it as it is: the store keeps such blocks along `dim`, every
  /// position in [lo, hi) holds a defined value and no other lane was ever
  /// written (its bytes are still the block's zeros). Null otherwise: the
  /// reader stacks a copy.
  const Tensor* blockAsRead(const Point& at, int dim, int64_t first, int64_t lanes, int64_t lo, int64_t hi) const;

  /// For a whole-array source's store (readViewsOf): the window of its array
  /// holding the points of the box [lo, hi) in C order, stacked along a leading
  /// axis, when they are one run of the array and every one is held and
  /// defined; nullopt otherwise (the reader stacks them point by point).
  std::optional<Tensor> arrayRunAsRead(const Point& lo, const Point& hi) const;

  /// For a store in one buffer: the window of it holding the points of the box [lo, hi),
  /// which spans at most `window` coordinates of `dim` and one of every other dim, stacked
  /// along a leading axis, when every one is held and defined; nullopt otherwise (the
  /// reader stacks them). Its lanes are written again `window` coordinates later: only a
  /// reader whose kernel makes a fresh value may take it (the planner's condition).
  std::optional<Tensor> windowRunAsRead(const Point& lo, const Point& hi, int dim) const;
  bool inOneBuffer() const { return ringWindow_ > 0; }

  int64_t bytes() const { return bytes_; }
  size_t slotCount() const { return keys_.size(); }
  const StoreContext& context() const { return ctx_; }

protected:
  TensorStore(StoreContext ctx, size_t slots);
  /// The slot of an in-domain point (the base class checks the domain).
  virtual size_t slotOf(const Point& p) const = 0;
  /// Why `p` is not held when its slot holds `other` (e.g. "evicted by ...").
  virtual std::string evictedReason(const Point& other) const;

  std::string pointString(const Point& p) const;
  int64_t rowMajor(const Point& p, int skipDim) const;  ///< flat index over the dims except skipDim
  Point pointAt(int64_t key) const;  ///< the point whose rowMajor(p, -1) is `key`
  /// Makes the store keep its values in blocks of `lanes` coordinates along
  /// `dim`: a block is one buffer of `lanes` values, made by the first value
  /// written into it, and each value is copied into its lane (see BlockStore).
  void keepInBlocks(int dim, int64_t lanes);
  /// Makes the store keep its values in one buffer of 2 * window lanes per run of
  /// `window` consecutive slots (a circular store's slots along its dim): slot s is
  /// lanes s mod window and s mod window + window of buffer s / window.
  void keepInOneBuffer(int64_t window);

private:
  enum class State { Open, Unallocated, Freed, Swapped };
  void checkInDomain(const Point& p) const;
  /// Tells the tracker every held value (live or in the swap area) is gone.
  void dropAll();
  [[noreturn]] void fail(const Point& p, const std::string& why) const;
  /// The slot holding `p` (defined or not); ExecError when the store is not open, `p` is outside
  /// the domain or not held, naming the reason.
  size_t heldSlot(const Point& p) const;
  /// The value of held slot `i` at `p`: its own, or the window of its source's array.
  Tensor valueIn(const Point& p, size_t i) const;
  /// The slot `p` is written to, once the store is open and `p` in its domain (else an ExecError).
  size_t slotToWrite(const Point& p) const;
  /// Slot `index` holds `p`, defined (its value is set by the caller).
  void markWritten(const Point& p, size_t index);
  /// Whether slot `i` holds point `p` (written, not evicted).
  bool slotHolds(size_t i, const Point& p) const { return keys_[i] == rowMajor(p, -1); }

  StoreContext ctx_;
  /// The slots, as parallel arrays so that an empty one costs 9 bytes (a store over
  /// (t, b) of small values has a slot per point: its bookkeeping is memory the run pays).
  std::vector<int64_t> keys_;       ///< rowMajor(point, -1) of the point held; -1 when empty
  std::vector<uint8_t> undefined_;  ///< 1 where the point held was written undefined
  /// The values, made with the first write (never for a source's store: its points
  /// are windows of the node's array); moved to swappedValues_ while swapped out.
  std::vector<std::optional<Tensor>> values_;
  std::vector<std::optional<Tensor>> swappedValues_;
  /// Slots written since the store was made or freed: a free touches only these (a
  /// circular store freed in every iteration of a loop has many more slots).
  std::vector<size_t> written_;
  /// The value in its lane of its block (made on the first write into it), as a window of the block.
  Tensor intoBlock(const Point& p, const Tensor& value);
  size_t blockOf(const Point& p) const;  ///< the index in blocks_ of p's block

  /// The value copied into its two lanes of its buffer (made by the first write into it),
  /// held as the window of the first.
  Tensor intoRing(const Point& p, size_t slot, const Tensor& value);
  /// `buffer` of `lanes` lanes of `value`'s shape and dtype: made (zeroed or not) when it is
  /// not yet, else checked to fit `value` (an ExecError naming the store's `what` if not).
  Tensor& laneBuffer(const Point& p, Tensor& buffer, int64_t lanes, const Tensor& value, bool zeroed, const char* what);
  /// `value` copied into lane `lane` of `buffer`; the lane's window.
  static Tensor copyIntoLane(const Tensor& buffer, int64_t lane, const Tensor& value);
  /// Whether every point of the box [lo, hi) (none empty) is held and defined.
  bool holdsDefinedBox(const Point& lo, const Point& hi) const;
  int64_t ringWindow_ = 0;      ///< keepInOneBuffer: the window, and the buffers (a default Tensor until made)
  std::vector<Tensor> rings_;
  int blockDim_ = -1;           ///< keepInBlocks: the dim and lanes, and the blocks (a default Tensor until made)
  int64_t blockLanes_ = 0;
  std::vector<Tensor> blocks_;
  const SourceArrays* sourceArrays_ = nullptr;  ///< readViewsOf: the arrays whose windows the points are
  State state_ = State::Open;
  int64_t bytes_ = 0;
};

class WholeStore : public TensorStore {
public:
  explicit WholeStore(StoreContext ctx);
  StoreKind kind() const override { return StoreKind::Whole; }
  std::string describe() const override { return "whole"; }
  bool slotsDistinctIn(const Point&, const Point&) const override { return true; }

protected:
  size_t slotOf(const Point& p) const override { return static_cast<size_t>(rowMajor(p, -1)); }
};

class PointStore : public TensorStore {
public:
  explicit PointStore(StoreContext ctx);
  StoreKind kind() const override { return StoreKind::Point; }
  std::string describe() const override { return "point"; }
  bool slotsDistinctIn(const Point& lo, const Point& hi) const override;

protected:
  size_t slotOf(const Point&) const override { return 0; }
  std::string evictedReason(const Point& other) const override;
};

class CircularStore : public TensorStore {
public:
  /// `oneAtATime`: dims whose coordinate the slots ignore (a loop around pins them);
  /// `oneBuffer`: the values in one buffer (keepInOneBuffer).
  CircularStore(StoreContext ctx, int dim, int64_t window, std::vector<int> oneAtATime = {}, bool oneBuffer = false);
  StoreKind kind() const override { return StoreKind::Circular; }
  std::string describe() const override;
  bool slotsDistinctIn(const Point& lo, const Point& hi) const override;

protected:
  size_t slotOf(const Point& p) const override;
  std::string evictedReason(const Point& other) const override;

private:
  int dim_;
  int64_t window_;
  std::vector<int64_t> strides_;  ///< per dim: its stride in the slot index (0 for dim_ and oneAtATime)
};

/// Every point, like WholeStore, kept a block at a time: block ds along `dim`
/// is one buffer of BS values holding coordinates [BS*ds, BS*ds + BS), made by
/// its first write; each value is written in place into its lane and held as
/// a window of the block, so the bytes grow by whole blocks as the producer runs.
class BlockStore : public TensorStore {
public:
  BlockStore(StoreContext ctx, int dim, int64_t lanes);
  StoreKind kind() const override { return StoreKind::Block; }
  std::string describe() const override;
  bool slotsDistinctIn(const Point&, const Point&) const override { return true; }

protected:
  size_t slotOf(const Point& p) const override { return static_cast<size_t>(rowMajor(p, -1)); }

private:
  int dim_;
  int64_t lanes_;
};

/// Steps `p` to the next point of the box [lo, hi) in C order; false after the last.
bool nextPointInBox(std::vector<int64_t>& p, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi);

/// A store of the kind `spec` says (Whole when spec is null).
std::unique_ptr<TensorStore> makeStore(const StoreSpec* spec, StoreContext ctx, const SymbolEnv& bounds);

}  // namespace tempo
