#include "executor/MemoryPrediction.h"

#include <algorithm>

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
  explicit Walker(const SymbolEnv& bounds) : env_(bounds) {}

  MemoryPrediction run(const LoopBody& top) {
    for (const LoopStmt& s : top) {
      out_.liveBefore.push_back(live_);
      statementPeak_ = live_;
      walk(s);
      out_.peakDuring.push_back(std::max(statementPeak_, live_));
    }
    return std::move(out_);
  }

private:
  SymbolEnv env_;
  MemoryPrediction out_;
  std::map<int, int64_t> held_, swapped_;
  std::map<const ForStmt*, bool> hasMemory_;  ///< whether a loop's body holds a memory statement
  int64_t live_ = 0, swappedTotal_ = 0, statementPeak_ = 0;

  void add(int64_t bytes) {
    live_ += bytes;
    statementPeak_ = std::max(statementPeak_, live_);
    out_.peakBytes = std::max(out_.peakBytes, live_);
  }

  void release(int node) {
    live_ -= held_[node];
    held_.erase(node);
  }

  void walk(const LoopBody& body) {
    for (const LoopStmt& s : body) walk(s);
  }

  void walk(const LoopStmt& s) {
    if (const auto* f = s.as<ForStmt>()) {
      auto [it, fresh] = hasMemory_.try_emplace(f, false);
      if (fresh) it->second = holdsMemoryStatement(f->body);
      if (!it->second) return;
      int64_t lo = f->lower.evaluate(env_), hi = f->upper.evaluate(env_);
      if (f->step > 0) {
        for (int64_t v = lo; v < hi; v += f->step) env_[f->var] = v, walk(f->body);
      } else {
        for (int64_t v = hi - 1; v >= lo; v += f->step) env_[f->var] = v, walk(f->body);
      }
      env_.erase(f->var);
    } else if (const auto* i = s.as<IfStmt>()) {
      walk(i->condition.holds(env_) ? i->thenBody : i->elseBody);
    } else if (const auto* a = s.as<AllocStmt>()) {
      release(a->node);  // an Alloc of a live store replaces it
      int64_t bytes = a->bytes.evaluate(env_);
      held_[a->node] = bytes;
      out_.allocated[a->node] = bytes;
      add(bytes);
    } else if (const auto* fr = s.as<FreeStmt>()) {
      release(fr->node);
      if (auto it = swapped_.find(fr->node); it != swapped_.end()) swappedTotal_ -= it->second, swapped_.erase(it);
    } else if (const auto* so = s.as<SwapOutStmt>()) {
      int64_t bytes = held_[so->node];
      release(so->node);
      swapped_[so->node] = bytes;
      swappedTotal_ += bytes;
      out_.peakSwappedBytes = std::max(out_.peakSwappedBytes, swappedTotal_);
    } else if (const auto* si = s.as<SwapInStmt>()) {
      auto it = swapped_.find(si->node);
      if (it == swapped_.end()) return;
      held_[si->node] = it->second;
      swappedTotal_ -= it->second;
      add(it->second);
      swapped_.erase(it);
    }
  }
};

}  // namespace

MemoryPrediction predictMemory(const LoopProgram& program, const SymbolEnv& bounds) {
  return Walker(bounds).run(program.body);
}

}  // namespace tempo
