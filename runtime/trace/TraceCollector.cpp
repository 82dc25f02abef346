#include "trace/TraceCollector.h"

#include <algorithm>

namespace tempo {

void TraceCollector::begin() {
  byStatement_.clear();
  spans_.clear();
  steps_.clear();
  stepStatements_.clear();
  open_.clear();
  openSlot_.clear();
  stepOpen_ = false;
  stride_ = 1;
  dropped_ = runNs_ = instances_ = 0;
  kernelEnteredNs_ = pendingKernelNs_ = pendingKernelStartNs_ = kernelNs_ = 0;
  origin_ = std::chrono::steady_clock::now();
}

void TraceCollector::beginStep(int32_t loop, int64_t value) {
  const int64_t t = now();
  if (stepOpen_ && steps_.back().loop == loop && steps_.back().iterations < stride_) {
    ++steps_.back().iterations;  // this step still covers fewer iterations than the stride
    return;
  }
  if (stepOpen_) closeStep(t);  // the next step starts where this one ends
  if (steps_.size() >= maxSteps_) halveSteps();
  steps_.push_back({loop, value, 1, t, t, 0});
  stepOpen_ = true;
}

void TraceCollector::endSteps() {
  if (stepOpen_) closeStep(now());
}

void TraceCollector::closeStep(int64_t endNs) {
  StepProfile& s = steps_.back();
  s.endNs = endNs;
  const int32_t index = static_cast<int32_t>(steps_.size() - 1);
  std::sort(open_.begin(), open_.end(), [](const StepStatement& a, const StepStatement& b) { return a.statement < b.statement; });
  for (StepStatement& st : open_) {
    st.step = index;
    s.instances += st.calls;
    stepStatements_.push_back(st);
    openSlot_[static_cast<size_t>(st.statement)] = -1;
  }
  open_.clear();
  stepOpen_ = false;
}

void TraceCollector::halveSteps() {
  // Pairs of neighbouring steps of one loop merge (a step whose neighbour belongs to another loop stays).
  std::vector<StepProfile> merged;
  std::vector<int32_t> into(steps_.size());
  for (size_t i = 0; i < steps_.size(); ++i) {
    const StepProfile& s = steps_[i];
    if (i % 2 == 1 && merged.back().loop == s.loop) {
      StepProfile& m = merged.back();
      m.iterations += s.iterations, m.endNs = s.endNs, m.instances += s.instances;
    } else {
      merged.push_back(s);
    }
    into[i] = static_cast<int32_t>(merged.size() - 1);
  }
  std::vector<StepStatement> statements;  // ordered by step, so a merged step's statements are contiguous
  size_t firstOfStep = 0;
  for (const StepStatement& st : stepStatements_) {
    const int32_t step = into[static_cast<size_t>(st.step)];
    if (statements.empty() || statements.back().step != step) firstOfStep = statements.size();
    auto it = std::find_if(statements.begin() + static_cast<std::ptrdiff_t>(firstOfStep), statements.end(),
                           [&](const StepStatement& o) { return o.statement == st.statement; });
    if (it != statements.end()) it->calls += st.calls, it->totalNs += st.totalNs;
    else statements.push_back({step, st.statement, st.node, st.calls, st.totalNs});
  }
  steps_ = std::move(merged);
  stepStatements_ = std::move(statements);
  stride_ *= 2;
}

void TraceCollector::record(int32_t statement, NodeId node, int64_t startNs, int64_t endNs,
                            const std::vector<int64_t>& point, bool generated, int64_t bytes) {
  const int64_t inKernel = pendingKernelNs_, kernelStart = pendingKernelStartNs_;
  pendingKernelNs_ = 0;
  if (statement < 0) return;
  ++instances_;
  kernelNs_ += inKernel;
  if (static_cast<size_t>(statement) >= byStatement_.size()) byStatement_.resize(statement + 1);
  StatementProfile& s = byStatement_[statement];
  const int64_t d = endNs - startNs;
  if (s.calls == 0) s.statement = statement, s.node = node, s.minNs = s.maxNs = d;
  ++s.calls;
  s.totalNs += d;
  s.minNs = std::min(s.minNs, d);
  s.maxNs = std::max(s.maxNs, d);
  s.generatedCalls += generated;
  s.bytes += bytes;
  s.kernelNs += inKernel;
  if (stepOpen_) {  // the statement's entry in the open step, found by its number (O(1) per instance)
    if (static_cast<size_t>(statement) >= openSlot_.size()) openSlot_.resize(static_cast<size_t>(statement) + 1, -1);
    int32_t& slot = openSlot_[static_cast<size_t>(statement)];
    if (slot < 0) {
      slot = static_cast<int32_t>(open_.size());
      open_.push_back({-1, statement, node, 1, d});
    } else {
      StepStatement& o = open_[static_cast<size_t>(slot)];
      ++o.calls, o.totalNs += d;
    }
  }
  if (spans_.size() >= maxSpans_) {
    ++dropped_;
    return;
  }
  TraceSpan span{startNs, d, statement, node, {}, generated, inKernel, inKernel > 0 ? kernelStart : 0};
  for (size_t i = 0; i < span.coords.size() && i < point.size(); ++i) span.coords[i] = static_cast<int32_t>(point[i]);
  spans_.push_back(span);
}

std::vector<StatementProfile> TraceCollector::statements() const {
  std::vector<StatementProfile> out;
  for (const StatementProfile& s : byStatement_)
    if (s.calls > 0) out.push_back(s);
  return out;
}

}  // namespace tempo
