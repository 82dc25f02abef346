#include "executor/TensorStore.h"

#include "executor/ExecError.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tempo {

namespace {

size_t slotCountOf(const std::vector<int64_t>& bounds, int skipDim, int64_t times) {
  int64_t n = times;
  for (size_t i = 0; i < bounds.size(); ++i)
    if (static_cast<int>(i) != skipDim) n *= bounds[i];
  return static_cast<size_t>(n);
}

}  // namespace

TensorStore::TensorStore(StoreContext ctx, size_t slots) : ctx_(std::move(ctx)) {
  try {
    std::vector<int64_t> box = ctx_.bounds;  // a slot names its point by the point's index in this box
    for (int64_t& b : box) b = std::max<int64_t>(b, 0);
    shapeNumel(box);
  } catch (const std::invalid_argument& e) {
    throw ExecError("store of " + ctx_.label + ": its domain box has no index for every point: " + e.what(), ctx_.node);
  }
  keys_.assign(slots, -1);
  undefined_.assign(slots, 0);
}

TensorStore::~TensorStore() { dropAll(); }

void TensorStore::dropAll() {
  if (!ctx_.tracker) return;
  const bool swapped = state_ == State::Swapped;
  const std::vector<std::optional<Tensor>>& held = swapped ? swappedValues_ : values_;
  if (held.empty()) return;
  for (size_t i : written_)
    if (held[i]) swapped ? ctx_.tracker->dropSwapped(*held[i]) : ctx_.tracker->drop(ctx_.node, *held[i]);
}

std::string TensorStore::pointString(const Point& p) const {
  std::string s = "(";
  for (size_t i = 0; i < p.size(); ++i)
    s += (i ? ", " : "") + (i < ctx_.dims.size() ? ctx_.dims[i] : "?") + "=" + std::to_string(p[i]);
  return s + ")";
}

int64_t TensorStore::rowMajor(const Point& p, int skipDim) const {
  int64_t flat = 0;
  for (size_t i = 0; i < p.size(); ++i)
    if (static_cast<int>(i) != skipDim) flat = flat * ctx_.bounds[i] + p[i];
  return flat;
}

TensorStore::Point TensorStore::pointAt(int64_t key) const {
  Point p(ctx_.bounds.size());
  for (size_t i = p.size(); i-- > 0;) {
    p[i] = key % ctx_.bounds[i];
    key /= ctx_.bounds[i];
  }
  return p;
}

void TensorStore::checkInDomain(const Point& p) const {
  if (p.size() != ctx_.bounds.size())
    fail(p, "a point of " + std::to_string(p.size()) + " coordinates for a domain of " +
                std::to_string(ctx_.bounds.size()) + " dims");
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] < 0 || p[i] >= ctx_.bounds[i])
      fail(p, "outside the domain: " + ctx_.dims[i] + " not in [0, " + std::to_string(ctx_.bounds[i]) + ")");
}

void TensorStore::fail(const Point& p, const std::string& why) const {
  throw ExecError(describe() + " store of " + ctx_.label + ", point " + pointString(p) + ": " + why, ctx_.node, p);
}

std::string TensorStore::evictedReason(const Point& other) const {
  return "its slot holds " + pointString(other);
}

size_t TensorStore::slotToWrite(const Point& p) const {
  if (state_ != State::Open)
    fail(p, state_ == State::Freed         ? "write after free"
            : state_ == State::Unallocated ? "write before the store was allocated"
                                           : "write while swapped out");
  checkInDomain(p);
  return slotOf(p);
}

void TensorStore::markWritten(const Point& p, size_t index) {
  if (keys_[index] < 0) written_.push_back(index);
  keys_[index] = rowMajor(p, -1);
  undefined_[index] = 0;
}

void TensorStore::write(const Point& p, Tensor value) {
  const size_t index = slotToWrite(p);
  if (blockLanes_ > 0 && value.nbytes() > 0) value = intoBlock(p, value);
  if (ringWindow_ > 0 && value.nbytes() > 0) value = intoRing(p, index, value);
  markWritten(p, index);
  if (sourceArrays_) return;  // a window of the node's array, which SourceArrays counts
  if (values_.empty()) values_.resize(keys_.size());
  std::optional<Tensor>& held = values_[index];
  if (held) {
    bytes_ -= static_cast<int64_t>(held->nbytes());
    if (ctx_.tracker) ctx_.tracker->drop(ctx_.node, *held);
  }
  held = std::move(value);
  bytes_ += static_cast<int64_t>(held->nbytes());
  if (ctx_.tracker) ctx_.tracker->hold(ctx_.node, *held);
}

void TensorStore::writeArrayPoint(const Point& p) {
  if (!sourceArrays_) fail(p, "a point written without its value to a store that does not read a source's array");
  markWritten(p, slotToWrite(p));
}

void TensorStore::writeArrayBox(const Point& lo, const Point& hi) {
  if (!sourceArrays_) fail(lo, "a box written without its values to a store that does not read a source's array");
  if (lo.size() != hi.size()) fail(lo, "a box whose corners differ in rank");
  Point last(hi.size());
  for (size_t i = 0; i < hi.size(); ++i) {
    if (hi[i] <= lo[i]) fail(lo, "an empty box written");
    last[i] = hi[i] - 1;
  }
  slotToWrite(lo);  // open, and both corners in the domain
  slotToWrite(last);
  if (!slotsDistinctIn(lo, hi)) fail(lo, "a box written at once whose points share slots");
  Point p = lo;
  do markWritten(p, slotOf(p));
  while (nextPointInBox(p, lo, hi));
}

size_t TensorStore::blockOf(const Point& p) const {
  const size_t d = static_cast<size_t>(blockDim_);
  int64_t flat = 0;
  for (size_t i = 0; i < p.size(); ++i)
    flat = i == d ? flat * ((ctx_.bounds[i] + blockLanes_ - 1) / blockLanes_) + p[i] / blockLanes_
                  : flat * ctx_.bounds[i] + p[i];
  return static_cast<size_t>(flat);
}

Tensor& TensorStore::laneBuffer(const Point& p, Tensor& buffer, int64_t lanes, const Tensor& value, bool zeroed,
                                 const char* what) {
  std::vector<int64_t> shape{lanes};
  shape.insert(shape.end(), value.shape().begin(), value.shape().end());
  if (buffer.rank() == 0) {  // not made yet (a buffer of lanes has a lane axis)
    buffer = zeroed ? Tensor(value.dtype(), shape) : Tensor::uninitialized(value.dtype(), shape);
  } else if (buffer.shape() != shape || buffer.dtype() != value.dtype()) {
    fail(p, "a value of " + std::string(dtypeName(value.dtype())) + shapeString(value.shape()) + " does not fit the store's " +
                what + " of " + std::string(dtypeName(buffer.dtype())) + shapeString(buffer.shape()));
  }
  return buffer;
}

Tensor TensorStore::copyIntoLane(const Tensor& buffer, int64_t lane, const Tensor& value) {
  Tensor slot = buffer.window(lane * value.numel(), value.shape());
  std::memcpy(slot.raw(), value.isContiguous() ? value.raw() : value.contiguous().raw(), value.nbytes());
  return slot;
}

Tensor TensorStore::intoBlock(const Point& p, const Tensor& value) {
  // zeroed: a block read takes the whole block, with zeros in the lanes never written
  const Tensor& block = laneBuffer(p, blocks_[blockOf(p)], blockLanes_, value, true, "blocks");
  return copyIntoLane(block, p[static_cast<size_t>(blockDim_)] % blockLanes_, value);
}

Tensor TensorStore::intoRing(const Point& p, size_t slot, const Tensor& value) {
  // uninitialized: a lane is read only once written
  const Tensor& ring = laneBuffer(p, rings_[slot / static_cast<size_t>(ringWindow_)], 2 * ringWindow_, value, false, "buffer");
  const int64_t lane = static_cast<int64_t>(slot) % ringWindow_;
  copyIntoLane(ring, lane + ringWindow_, value);
  return copyIntoLane(ring, lane, value);
}

std::optional<Tensor> TensorStore::windowRunAsRead(const Point& lo, const Point& hi, int dim) const {
  if (ringWindow_ == 0 || state_ != State::Open || lo.size() != ctx_.bounds.size() || hi.size() != lo.size())
    return std::nullopt;
  const size_t d = static_cast<size_t>(dim);
  for (size_t i = 0; i < lo.size(); ++i)
    if (i != d && hi[i] != lo[i] + 1) return std::nullopt;
  const int64_t n = hi[d] - lo[d];
  if (n < 1 || n > ringWindow_ || lo[d] < 0 || hi[d] > ctx_.bounds[d]) return std::nullopt;
  if (!holdsDefinedBox(lo, hi)) return std::nullopt;
  const size_t first = slotOf(lo);
  const Tensor& ring = rings_[first / static_cast<size_t>(ringWindow_)];
  if (ring.rank() == 0) return std::nullopt;  // values without bytes (never copied in)
  std::vector<int64_t> shape{n};
  shape.insert(shape.end(), ring.shape().begin() + 1, ring.shape().end());
  const int64_t laneNumel = ring.numel() / (2 * ringWindow_);
  return ring.window(static_cast<int64_t>(first % static_cast<size_t>(ringWindow_)) * laneNumel, shape);
}

const Tensor* TensorStore::blockAsRead(const Point& at, int dim, int64_t first, int64_t lanes, int64_t lo,
                                       int64_t hi) const {
  if (state_ != State::Open || dim != blockDim_ || lanes != blockLanes_ || first % lanes != 0) return nullptr;
  if (lo >= hi || lo < first || hi > first + lanes) return nullptr;
  const size_t d = static_cast<size_t>(dim);
  Point q = at;
  q[d] = first;
  const Tensor& block = blocks_[blockOf(q)];
  if (block.rank() == 0) return nullptr;
  for (int64_t c = first; c < std::min(first + lanes, ctx_.bounds[d]); ++c) {
    q[d] = c;
    const size_t i = slotOf(q);
    const bool read = lo <= c && c < hi;
    if (read ? !slotHolds(i, q) || undefined_[i] : keys_[i] >= 0) return nullptr;
  }
  return &block;
}

bool TensorStore::holdsDefinedBox(const Point& lo, const Point& hi) const {
  Point p = lo;
  do {
    const size_t i = slotOf(p);
    if (!slotHolds(i, p) || undefined_[i]) return false;
  } while (nextPointInBox(p, lo, hi));
  return true;
}

std::optional<Tensor> TensorStore::arrayRunAsRead(const Point& lo, const Point& hi) const {
  if (!sourceArrays_ || state_ != State::Open || lo.size() != ctx_.bounds.size() || hi.size() != lo.size())
    return std::nullopt;
  const Tensor* array = sourceArrays_->find(ctx_.node);
  if (!array) return std::nullopt;
  bool spanning = false;  // one run: after the first dim that spans coordinates, every dim is whole
  int64_t points = 1;
  for (size_t i = 0; i < lo.size(); ++i) {
    if (lo[i] < 0 || hi[i] > ctx_.bounds[i] || lo[i] >= hi[i]) return std::nullopt;
    if (spanning && (lo[i] != 0 || hi[i] != ctx_.bounds[i])) return std::nullopt;
    spanning = spanning || hi[i] - lo[i] > 1;
    points *= hi[i] - lo[i];
  }
  if (!holdsDefinedBox(lo, hi)) return std::nullopt;
  std::vector<int64_t> shape{points};
  shape.insert(shape.end(), array->shape().begin() + static_cast<std::ptrdiff_t>(lo.size()), array->shape().end());
  const int64_t perPoint = array->numel() / std::max<int64_t>(shapeNumel(ctx_.bounds), 1);
  return array->window(rowMajor(lo, -1) * perPoint, std::move(shape));
}

void TensorStore::writeUndefined(const Point& p) {
  write(p, Tensor(DType::F32, {0}));
  undefined_[slotOf(p)] = 1;
}

bool TensorStore::undefinedAt(const Point& p) const { return holds(p) && undefined_[slotOf(p)]; }

size_t TensorStore::heldSlot(const Point& p) const {
  if (state_ == State::Freed) fail(p, "read after the store was freed");
  if (state_ == State::Unallocated) fail(p, "read before the store was allocated");
  if (state_ == State::Swapped) fail(p, "read while the store is swapped out");
  checkInDomain(p);
  const size_t i = slotOf(p);
  if (keys_[i] < 0) fail(p, "not held: never written");
  if (!slotHolds(i, p)) fail(p, "not held: evicted (" + evictedReason(pointAt(keys_[i])) + ")");
  return i;
}

Tensor TensorStore::valueIn(const Point& p, size_t i) const {
  if (!values_.empty() && values_[i]) return *values_[i];
  const Tensor* array = sourceArrays_ ? sourceArrays_->find(ctx_.node) : nullptr;
  if (!array) fail(p, "its source array is not built");
  return array->viewAt(p);
}

Tensor TensorStore::read(const Point& p) const {
  const size_t i = heldSlot(p);
  if (undefined_[i]) fail(p, "undefined: the node reads outside a producer's domain at this point");
  return valueIn(p, i);
}

std::optional<Tensor> TensorStore::readIfDefined(const Point& p) const {
  const size_t i = heldSlot(p);
  if (undefined_[i]) return std::nullopt;
  return valueIn(p, i);
}

bool TensorStore::holds(const Point& p) const {
  if (state_ != State::Open || p.size() != ctx_.bounds.size()) return false;
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] < 0 || p[i] >= ctx_.bounds[i]) return false;
  return slotHolds(slotOf(p), p);
}

void TensorStore::allocate() {
  if (state_ == State::Freed || state_ == State::Unallocated) state_ = State::Open;
}

void TensorStore::markUnallocated() {
  if (bytes_ == 0 && state_ == State::Open) state_ = State::Unallocated;
}

void TensorStore::free() {
  dropAll();
  if (state_ == State::Swapped) values_.swap(swappedValues_);
  swappedValues_.clear();
  for (size_t i : written_) {
    keys_[i] = -1;
    undefined_[i] = 0;
    if (!values_.empty()) values_[i].reset();
  }
  written_.clear();
  // A default Tensor is a buffer of its own: made only for a store that has blocks or rings.
  if (!blocks_.empty()) std::fill(blocks_.begin(), blocks_.end(), Tensor());
  if (!rings_.empty()) std::fill(rings_.begin(), rings_.end(), Tensor());
  bytes_ = 0;
  state_ = State::Freed;
}

void TensorStore::heldValues(std::vector<const Tensor*>& out) const {
  const std::vector<std::optional<Tensor>>& held = state_ == State::Swapped ? swappedValues_ : values_;
  if (held.empty()) return;
  for (size_t i : written_)
    if (held[i]) out.push_back(&*held[i]);
}

int64_t TensorStore::bytesToWrite(const Point& p, const Tensor& value) const {
  if (value.nbytes() == 0 || !ctx_.tracker) return 0;
  if (blockLanes_ > 0) {
    const Tensor& block = blocks_[blockOf(p)];
    if (block.rank() == 0) return blockLanes_ * static_cast<int64_t>(value.nbytes());
    return ctx_.tracker->holdsLive(block) ? 0 : static_cast<int64_t>(block.bufferBytes());
  }
  if (ringWindow_ > 0) {
    const Tensor& ring = rings_[slotOf(p) / static_cast<size_t>(ringWindow_)];
    if (ring.rank() == 0) return 2 * ringWindow_ * static_cast<int64_t>(value.nbytes());
    return ctx_.tracker->holdsLive(ring) ? 0 : static_cast<int64_t>(ring.bufferBytes());
  }
  return ctx_.tracker->holdsLive(value) ? 0 : static_cast<int64_t>(value.bufferBytes());
}

void TensorStore::swapOut() {
  if (state_ != State::Open) return;
  if (ctx_.tracker && !values_.empty())
    for (size_t i : written_)
      if (values_[i]) ctx_.tracker->swapOut(ctx_.node, *values_[i]);
  swappedValues_.swap(values_);  // the values move to the swap area; values_ is empty until swapIn
  state_ = State::Swapped;
}

void TensorStore::swapIn() {
  if (state_ != State::Swapped) return;
  if (ctx_.tracker && !swappedValues_.empty())
    for (size_t i : written_)
      if (swappedValues_[i]) ctx_.tracker->swapIn(ctx_.node, *swappedValues_[i]);
  values_.swap(swappedValues_);
  state_ = State::Open;
}

WholeStore::WholeStore(StoreContext ctx) : TensorStore(ctx, slotCountOf(ctx.bounds, -1, 1)) {}

PointStore::PointStore(StoreContext ctx) : TensorStore(std::move(ctx), 1) {}

bool PointStore::slotsDistinctIn(const Point& lo, const Point& hi) const {
  for (size_t i = 0; i < lo.size(); ++i)
    if (hi[i] - lo[i] > 1) return false;
  return true;
}

std::string PointStore::evictedReason(const Point& other) const {
  return "a point store holds only the latest point, " + pointString(other);
}

namespace {

bool keptApart(int i, int dim, const std::vector<int>& oneAtATime) {
  return i != dim && std::find(oneAtATime.begin(), oneAtATime.end(), i) == oneAtATime.end();
}

/// Slots of a circular store: `window` times the extents of the dims it keeps apart.
size_t circularSlots(const std::vector<int64_t>& bounds, int dim, int64_t window, const std::vector<int>& oneAtATime) {
  int64_t n = window;
  for (size_t i = 0; i < bounds.size(); ++i)
    if (keptApart(static_cast<int>(i), dim, oneAtATime)) n *= bounds[i];
  return static_cast<size_t>(std::max<int64_t>(n, 0));
}

}  // namespace

CircularStore::CircularStore(StoreContext ctx, int dim, int64_t window, std::vector<int> oneAtATime, bool oneBuffer)
    : TensorStore(ctx, circularSlots(ctx.bounds, dim, window, oneAtATime)), dim_(dim), window_(window) {
  if (dim < 0 || dim >= static_cast<int>(ctx.bounds.size()) || window < 1)
    throw ExecError("circular store of " + ctx.label + ": needs a domain dim and a window >= 1 (got dim " +
                        std::to_string(dim) + ", window " + std::to_string(window) + ")",
                    ctx.node);
  if (oneBuffer) keepInOneBuffer(window);  // slots come in runs of `window` along dim (slotOf)
  strides_.assign(ctx.bounds.size(), 0);
  int64_t stride = window;
  for (size_t i = ctx.bounds.size(); i-- > 0;)
    if (keptApart(static_cast<int>(i), dim, oneAtATime)) strides_[i] = stride, stride *= ctx.bounds[i];
}

std::string CircularStore::describe() const {
  return "circular(" + context().dims[dim_] + ", " + std::to_string(window_) + ")" +
         (inOneBuffer() ? " in one buffer" : "");
}

size_t CircularStore::slotOf(const Point& p) const {
  int64_t slot = p[dim_] % window_;
  for (size_t i = 0; i < p.size(); ++i) slot += p[i] * strides_[i];
  return static_cast<size_t>(slot);
}

bool CircularStore::slotsDistinctIn(const Point& lo, const Point& hi) const {
  // Two points share a slot when they differ only along dims the slot ignores, or along
  // dim_ by a multiple of the window.
  for (size_t i = 0; i < lo.size(); ++i) {
    const int64_t extent = hi[i] - lo[i];
    if (static_cast<int>(i) == dim_ ? extent > window_ : strides_[i] == 0 && extent > 1) return false;
  }
  return true;
}

std::string CircularStore::evictedReason(const Point& other) const {
  return "the window of " + std::to_string(window_) + " along " + context().dims[dim_] + " now holds " +
         pointString(other);
}

void TensorStore::keepInBlocks(int dim, int64_t lanes) {
  if (dim < 0 || dim >= static_cast<int>(ctx_.bounds.size()) || lanes < 1)
    throw ExecError("block store of " + ctx_.label + ": needs a domain dim and a block size >= 1 (got dim " +
                        std::to_string(dim) + ", block size " + std::to_string(lanes) + ")",
                    ctx_.node);
  blockDim_ = dim;
  blockLanes_ = lanes;
  int64_t blocks = 1;
  for (size_t i = 0; i < ctx_.bounds.size(); ++i)
    blocks *= static_cast<int>(i) == dim ? (ctx_.bounds[i] + lanes - 1) / lanes : ctx_.bounds[i];
  blocks_.assign(static_cast<size_t>(std::max<int64_t>(blocks, 0)), Tensor());
}

void TensorStore::keepInOneBuffer(int64_t window) {
  ringWindow_ = window;
  rings_.assign(keys_.size() / static_cast<size_t>(window), Tensor());
}

BlockStore::BlockStore(StoreContext ctx, int dim, int64_t lanes)
    : TensorStore(ctx, slotCountOf(ctx.bounds, -1, 1)), dim_(dim), lanes_(lanes) {
  keepInBlocks(dim, lanes);
}

std::string BlockStore::describe() const {
  return "block(" + context().dims[dim_] + ", " + std::to_string(lanes_) + ")";
}

bool nextPointInBox(std::vector<int64_t>& p, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi) {
  for (size_t i = p.size(); i-- > 0;) {
    if (++p[i] < hi[i]) return true;
    p[i] = lo[i];
  }
  return false;
}

std::unique_ptr<TensorStore> makeStore(const StoreSpec* spec, StoreContext ctx, const SymbolEnv& bounds) {
  if (!spec || spec->kind == StoreKind::Whole) return std::make_unique<WholeStore>(std::move(ctx));
  if (spec->kind == StoreKind::Point) return std::make_unique<PointStore>(std::move(ctx));
  if (spec->kind == StoreKind::Block) return std::make_unique<BlockStore>(std::move(ctx), spec->dim, spec->blockSize());
  bool hasDim = spec->dim >= 0 && spec->dim < static_cast<int>(ctx.bounds.size());
  int64_t window = hasDim ? spec->windowAt(bounds, ctx.bounds[static_cast<size_t>(spec->dim)]) : 0;
  return std::make_unique<CircularStore>(std::move(ctx), spec->dim, window, spec->oneAtATime, spec->oneBuffer);
}

}  // namespace tempo
