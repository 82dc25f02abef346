#include "executor/MemoryTracker.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tempo {

void MemoryTracker::allocate(int node, int64_t bytes) {
  int64_t& n = nodeLive_[node];
  n += bytes;
  live_ += bytes;
  peak_ = std::max(peak_, live_);
  window_ = std::max(window_, live_);
  if (!outputs_.count(node)) nonOutput_ += bytes, peakNonOutput_ = std::max(peakNonOutput_, nonOutput_);
  int64_t& np = nodePeak_[node];
  np = std::max(np, n);
}

void MemoryTracker::release(int node, int64_t bytes) {
  int64_t& n = nodeLive_[node];
  if (bytes > n)
    throw std::logic_error("MemoryTracker: node %" + std::to_string(node) + " releases " + std::to_string(bytes) +
                           " bytes but holds " + std::to_string(n));
  n -= bytes;
  live_ -= bytes;
  if (!outputs_.count(node)) nonOutput_ -= bytes;
}

void MemoryTracker::update(const void* id, Buffer& b, bool wasLive, bool wasSwapped) {
  const bool isLive = !b.holders.empty(), isSwapped = !isLive && b.swapped > 0;
  int charged = -1;
  if (isLive) {
    charged = b.holders.begin()->first;
    for (const auto& [h, count] : b.holders)
      if (outputs_.count(h)) {
        charged = h;
        break;
      }
  }
  if (wasLive && (!isLive || charged != b.node)) release(b.node, b.bytes);
  if (isLive && (!wasLive || charged != b.node)) allocate(charged, b.bytes);
  b.node = charged;
  if (wasSwapped && !isSwapped) swapped_ -= b.bytes;
  if (!wasSwapped && isSwapped) swapped_ += b.bytes, peakSwapped_ = std::max(peakSwapped_, swapped_);
  if (!isLive && b.swapped == 0) buffers_.erase(id);
}

MemoryTracker::Buffer& MemoryTracker::find(const Tensor& value, const char* what) {
  auto it = buffers_.find(value.bufferId());
  if (it == buffers_.end()) throw std::logic_error(std::string("MemoryTracker: ") + what + " a value nobody holds");
  return it->second;
}

void MemoryTracker::hold(int node, const Tensor& value) {
  if (value.bufferBytes() == 0) return;
  auto [it, fresh] = buffers_.try_emplace(value.bufferId());
  Buffer& b = it->second;
  if (fresh) b.bytes = static_cast<int64_t>(value.bufferBytes());
  const bool wasLive = !b.holders.empty(), wasSwapped = !wasLive && b.swapped > 0;
  ++b.holders[node];
  update(it->first, b, wasLive, wasSwapped);
}

void MemoryTracker::drop(int node, const Tensor& value) {
  if (value.bufferBytes() == 0) return;
  Buffer& b = find(value, "drops");
  auto h = b.holders.find(node);
  if (h == b.holders.end())
    throw std::logic_error("MemoryTracker: node %" + std::to_string(node) + " drops a value it does not hold");
  if (--h->second == 0) b.holders.erase(h);
  update(value.bufferId(), b, true, false);
}

void MemoryTracker::swapOut(int node, const Tensor& value) {
  if (value.bufferBytes() == 0) return;
  Buffer& b = find(value, "swaps out");
  ++b.swapped;
  drop(node, value);
}

void MemoryTracker::swapIn(int node, const Tensor& value) {
  if (value.bufferBytes() == 0) return;
  auto it = buffers_.find(value.bufferId());
  if (it != buffers_.end() && it->second.swapped > 0) {
    Buffer& b = it->second;
    const bool wasLive = !b.holders.empty();
    --b.swapped;
    ++b.holders[node];
    update(it->first, b, wasLive, !wasLive);
    return;
  }
  hold(node, value);
}

void MemoryTracker::dropSwapped(const Tensor& value) {
  if (value.bufferBytes() == 0) return;
  Buffer& b = find(value, "drops a swapped value:");
  if (b.swapped == 0) throw std::logic_error("MemoryTracker: drops a swapped value nobody swapped out");
  const bool wasLive = !b.holders.empty();
  --b.swapped;
  update(value.bufferId(), b, wasLive, !wasLive);
}

bool MemoryTracker::holdsLive(const Tensor& value) const {
  auto it = buffers_.find(value.bufferId());
  return it != buffers_.end() && !it->second.holders.empty();
}

int64_t MemoryTracker::bytesComingBack(const std::vector<const Tensor*>& values) const {
  std::set<const void*> counted;
  int64_t bytes = 0;
  for (const Tensor* v : values) {
    if (v->bufferBytes() == 0 || holdsLive(*v) || !counted.insert(v->bufferId()).second) continue;
    bytes += static_cast<int64_t>(v->bufferBytes());
  }
  return bytes;
}

int64_t MemoryTracker::takeWindowPeak() {
  int64_t p = window_;
  window_ = live_;
  return p;
}

int64_t MemoryTracker::nodeBytes(int node) const {
  auto it = nodeLive_.find(node);
  return it == nodeLive_.end() ? 0 : it->second;
}

int64_t MemoryTracker::nodePeakBytes(int node) const {
  auto it = nodePeak_.find(node);
  return it == nodePeak_.end() ? 0 : it->second;
}

}  // namespace tempo
