#include "executor/MemoryTracker.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tempo {

void MemoryTracker::allocate(int node, int64_t bytes) {
  if (bytes < 0) throw std::logic_error("MemoryTracker: negative allocation");
  int64_t& n = nodeLive_[node];
  n += bytes;
  live_ += bytes;
  peak_ = std::max(peak_, live_);
  if (!outputs_.count(node)) nonOutput_ += bytes, peakNonOutput_ = std::max(peakNonOutput_, nonOutput_);
  int64_t& np = nodePeak_[node];
  np = std::max(np, n);
}

void MemoryTracker::release(int node, int64_t bytes) {
  int64_t& n = nodeLive_[node];
  if (bytes < 0 || bytes > n)
    throw std::logic_error("MemoryTracker: node %" + std::to_string(node) + " releases " + std::to_string(bytes) +
                           " bytes but holds " + std::to_string(n));
  n -= bytes;
  live_ -= bytes;
  if (!outputs_.count(node)) nonOutput_ -= bytes;
}

void MemoryTracker::swapOut(int node, int64_t bytes) {
  release(node, bytes);
  swapped_ += bytes;
  peakSwapped_ = std::max(peakSwapped_, swapped_);
}

void MemoryTracker::swapIn(int node, int64_t bytes) {
  swapped_ -= bytes;
  allocate(node, bytes);
}

void MemoryTracker::releaseSwapped(int64_t bytes) {
  if (bytes < 0 || bytes > swapped_) throw std::logic_error("MemoryTracker: releases more swapped bytes than held");
  swapped_ -= bytes;
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
