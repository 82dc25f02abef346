#include "executor/MemoryTracker.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tempo {

void MemoryTracker::HolderCounts::add(int node) {
  int i = 0;
  while (i < size_ && at(i).first < node) ++i;
  if (i < size_ && at(i).first == node) {
    ++at(i).second;
    return;
  }
  if (size_ >= 2) rest_.emplace_back();
  ++size_;
  for (int k = size_ - 1; k > i; --k) at(k) = at(k - 1);
  at(i) = {node, 1};
}

bool MemoryTracker::HolderCounts::remove(int node) {
  int i = 0;
  while (i < size_ && at(i).first != node) ++i;
  if (i == size_) return false;
  if (--at(i).second > 0) return true;
  for (int k = i; k + 1 < size_; ++k) at(k) = at(k + 1);
  --size_;
  if (size_ >= 2) rest_.pop_back();
  return true;
}

MemoryTracker::NodeBytes& MemoryTracker::perNode(int node) {
  if (node < 0) throw std::logic_error("MemoryTracker: node " + std::to_string(node));
  if (node >= static_cast<int>(nodes_.size())) nodes_.resize(static_cast<size_t>(node) + 1);
  return nodes_[node];
}

void MemoryTracker::allocate(int node, int64_t bytes) {
  NodeBytes& n = perNode(node);
  n.live += bytes;
  n.charged = true;
  live_ += bytes;
  peak_ = std::max(peak_, live_);
  window_ = std::max(window_, live_);
  if (!n.output) nonOutput_ += bytes, peakNonOutput_ = std::max(peakNonOutput_, nonOutput_);
  n.peak = std::max(n.peak, n.live);
}

void MemoryTracker::release(int node, int64_t bytes) {
  NodeBytes& n = perNode(node);
  if (bytes > n.live)
    throw std::logic_error("MemoryTracker: node %" + std::to_string(node) + " releases " + std::to_string(bytes) +
                           " bytes but holds " + std::to_string(n.live));
  n.live -= bytes;
  live_ -= bytes;
  if (!n.output) nonOutput_ -= bytes;
}

void MemoryTracker::update(const void* id, Buffer& b, bool wasLive, bool wasSwapped) {
  const bool isLive = !b.holders.empty(), isSwapped = !isLive && b.swapped > 0;
  int charged = -1;
  if (isLive) {
    charged = b.holders.first();
    bool output = false;
    b.holders.forEach([&](const std::pair<int, int>& h) {
      if (!output && isOutput(h.first)) charged = h.first, output = true;
    });
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
  b.holders.add(node);
  update(it->first, b, wasLive, wasSwapped);
}

void MemoryTracker::drop(int node, const Tensor& value) {
  if (value.bufferBytes() == 0) return;
  Buffer& b = find(value, "drops");
  if (!b.holders.remove(node))
    throw std::logic_error("MemoryTracker: node %" + std::to_string(node) + " drops a value it does not hold");
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
    b.holders.add(node);
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
  return node >= 0 && node < static_cast<int>(nodes_.size()) ? nodes_[node].live : 0;
}

int64_t MemoryTracker::nodePeakBytes(int node) const {
  return node >= 0 && node < static_cast<int>(nodes_.size()) ? nodes_[node].peak : 0;
}

std::map<int, int64_t> MemoryTracker::nodePeaks() const {
  std::map<int, int64_t> out;
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].charged) out.emplace(static_cast<int>(i), nodes_[i].peak);
  return out;
}

}  // namespace tempo
