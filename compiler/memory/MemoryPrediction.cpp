#include "memory/MemoryPrediction.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace tempo {

namespace {

bool holdsMemoryStatement(const LoopBody& body) {
  return std::any_of(body.begin(), body.end(), [](const LoopStmt& s) {
    if (const auto* f = s.as<ForStmt>()) return holdsMemoryStatement(f->body);
    if (const auto* i = s.as<IfStmt>()) return holdsMemoryStatement(i->thenBody) || holdsMemoryStatement(i->elseBody);
    return s.as<ExecStmt>() == nullptr;
  });
}

class Walker {
public:
  Walker(const SymbolEnv& bounds, const std::vector<SharedBuffer>& shared, MemoryTimeline* timeline,
         const LoopBody* focus)
      : env_(bounds), shared_(shared), overlap_(shared.size(), 0), timeline_(timeline), focus_(focus) {
    for (size_t i = 0; i < shared.size(); ++i) {
      touching_[shared[i].holder].push_back(i);
      if (shared[i].producer != shared[i].holder) touching_[shared[i].producer].push_back(i);
    }
  }

  MemoryPrediction run(const LoopBody& top, const std::vector<LoopStop>& stops) {
    auto stop = stops.begin();
    for (size_t k = 0; k < top.size(); ++k) {
      nextStop_ = stop == stops.end() ? nullptr : &*stop;
      out_.liveBefore.push_back(live_);
      statementPeak_ = live_;
      const bool stopsHere = stop != stops.end() && stop->topStatement == k;
      if (stopsHere) lastValue_ = stop->lastValue;
      walk(top[k]);
      if (stopsHere) env_ = (stop++)->boundsAfter, lastValue_.reset();
      out_.peakDuring.push_back(std::max(statementPeak_, live_));
    }
    return std::move(out_);
  }

private:
  SymbolEnv env_;
  const std::vector<SharedBuffer>& shared_;
  std::vector<int64_t> overlap_;                 ///< per shared read: the bytes both stores hold, counted once
  std::map<int, std::vector<size_t>> touching_;  ///< node -> the shared reads it is in
  MemoryTimeline* timeline_;
  const LoopBody* focus_;
  MemoryPrediction out_;
  std::map<int, int64_t> held_, swapped_;
  std::map<const ForStmt*, bool> hasMemory_;  ///< whether a loop's body holds a memory statement
  int64_t live_ = 0, swappedTotal_ = 0, statementPeak_ = 0, elementPeak_ = 0;
  std::optional<int64_t> lastValue_;  ///< a stopping top-level loop's last value (LoopStop)
  const LoopStop* nextStop_ = nullptr;  ///< the next top-level loop that stops, at or after this statement

  /// The bytes counted twice through a shared read: of the holder's share of
  /// points that read the producer, the repeats of one producer value, and of
  /// the distinct values, at most what the producer's store holds but its
  /// fresh value (see SharedBuffer::freshBytes).
  int64_t overlap(const SharedBuffer& s) const {
    int64_t producer = heldBy(s.producer), holder = heldBy(s.holder);
    if (holder == 0) return 0;
    double reading = static_cast<double>(holder) * s.share, distinct = reading / s.repeats;
    const int64_t shared = std::min(producer, static_cast<int64_t>(distinct));
    return static_cast<int64_t>(reading - distinct) + std::max<int64_t>(0, shared - s.freshBytes);
  }

  /// Node `node` now holds `bytes` (0: nothing); bytes two stores share count once.
  void setHeld(int node, int64_t bytes) {
    auto edges = touching_.find(node);
    if (edges != touching_.end())
      for (size_t i : edges->second) live_ += overlap_[i];
    live_ += bytes - heldBy(node);
    if (bytes == 0) held_.erase(node);
    else held_[node] = bytes;
    if (edges != touching_.end())
      for (size_t i : edges->second) overlap_[i] = overlap(shared_[i]), live_ -= overlap_[i];
    statementPeak_ = std::max(statementPeak_, live_);
    elementPeak_ = std::max(elementPeak_, live_);
    out_.peakBytes = std::max(out_.peakBytes, live_);
  }

  int64_t heldBy(int node) const {
    auto it = held_.find(node);
    return it == held_.end() ? 0 : it->second;
  }

  void record(MemoryEvent::Kind kind, int node) {
    if (timeline_) timeline_->add(kind, node, live_, live_);
  }

  void walk(const LoopBody& body) {
    if (&body != focus_) {
      for (const LoopStmt& s : body) walk(s);
      return;
    }
    std::vector<int64_t>& peaks = out_.focusPeakDuring;
    peaks.resize(body.size(), 0);
    for (size_t i = 0; i < body.size(); ++i) {
      elementPeak_ = live_;
      walk(body[i]);
      peaks[i] = std::max({peaks[i], elementPeak_, live_});
    }
  }

  void walk(const LoopStmt& s) {
    if (const auto* f = s.as<ForStmt>()) {
      auto [it, fresh] = hasMemory_.try_emplace(f, false);
      if (fresh) it->second = holdsMemoryStatement(f->body);
      if (!it->second) return;
      int64_t lo = f->lower.evaluate(env_), hi = f->upper.evaluate(env_);
      if (f->step > 0) {
        const std::optional<int64_t> last = std::exchange(lastValue_, std::nullopt);  // the top loop's alone
        for (int64_t v = lo; v < hi && !(last && v > *last); v += f->step) env_[f->var] = v, walk(f->body);
      } else {
        for (int64_t v = hi - 1; v >= lo; v += f->step) env_[f->var] = v, walk(f->body);
      }
      env_.erase(f->var);
    } else if (const auto* i = s.as<IfStmt>()) {
      walk(i->condition.holds(env_) ? i->thenBody : i->elseBody);
    } else if (const auto* a = s.as<AllocStmt>()) {
      int64_t bytes = a->bytes.evaluate(env_);  // an Alloc of a live store replaces it
      if (nextStop_ && nextStop_->partlyWritten.count(a->node)) {  // it will hold the steps run only
        SymbolEnv asRun = env_;
        for (const auto& [name, value] : nextStop_->boundsAfter) asRun[name] = value;
        bytes = std::min(bytes, a->bytes.evaluate(asRun));
      }
      out_.allocated[a->node] = bytes;
      setHeld(a->node, bytes);
      record(a->recompute ? MemoryEvent::Kind::Recompute : MemoryEvent::Kind::Alloc, a->node);
    } else if (const auto* fr = s.as<FreeStmt>()) {
      setHeld(fr->node, 0);
      if (auto it = swapped_.find(fr->node); it != swapped_.end()) swappedTotal_ -= it->second, swapped_.erase(it);
      record(MemoryEvent::Kind::Free, fr->node);
    } else if (const auto* so = s.as<SwapOutStmt>()) {
      int64_t bytes = heldBy(so->node);
      setHeld(so->node, 0);
      swapped_[so->node] = bytes;
      swappedTotal_ += bytes;
      out_.peakSwappedBytes = std::max(out_.peakSwappedBytes, swappedTotal_);
      record(MemoryEvent::Kind::SwapOut, so->node);
    } else if (const auto* si = s.as<SwapInStmt>()) {
      auto it = swapped_.find(si->node);
      if (it != swapped_.end()) {
        swappedTotal_ -= it->second;
        setHeld(si->node, it->second);
        swapped_.erase(it);
      }
      record(MemoryEvent::Kind::SwapIn, si->node);
    }
  }
};

}  // namespace

MemoryPrediction predictMemory(const LoopProgram& program, const SymbolEnv& bounds,
                               const std::vector<SharedBuffer>& shared, MemoryTimeline* timeline,
                               const LoopBody* focus, const std::vector<LoopStop>& stops) {
  return Walker(bounds, shared, timeline, focus).run(program.body, stops);
}

}  // namespace tempo
