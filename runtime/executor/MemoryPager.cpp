#include "executor/MemoryPager.h"

#include "memory/BufferSharing.h"
#include "schedule/LoopAst.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace tempo {

namespace {

int findRoot(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

std::string bytesText(int64_t b) {
  if (b >= 10 * 1024 * 1024) return std::to_string(b / (1024 * 1024)) + " MB";
  if (b >= 10 * 1024) return std::to_string(b / 1024) + " KB";
  return std::to_string(b) + " B";
}

}  // namespace

int64_t PagingReport::pageOuts() const {
  int64_t n = 0;
  for (const auto& [id, c] : nodes) n += c.out;
  return n;
}

int64_t PagingReport::bytesOut() const {
  int64_t n = 0;
  for (const auto& [id, c] : nodes) n += c.bytesOut;
  return n;
}

std::string PagingReport::report(const Graph& g) const {
  std::string out = "at run time: " + std::to_string(pageOuts()) + " page-outs of " + std::to_string(nodes.size()) +
                    (nodes.size() == 1 ? " store (" : " stores (") + bytesText(bytesOut()) + " freed)";
  out += overBudget == 0 ? ", every statement fit the budget\n"
                         : ", " + std::to_string(overBudget) + " statements over the budget with their own stores\n";
  std::vector<std::pair<int, Counts>> sorted(nodes.begin(), nodes.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.out > b.second.out; });
  const size_t shown = std::min<size_t>(sorted.size(), 8);
  for (size_t i = 0; i < shown; ++i)
    out += "  page " + statementLabel(g, sorted[i].first) + ": " + std::to_string(sorted[i].second.out) + " out, " +
           std::to_string(sorted[i].second.in) + " in, " + bytesText(sorted[i].second.bytesOut) + " freed\n";
  if (sorted.size() > shown) out += "  page ... and " + std::to_string(sorted.size() - shown) + " more stores\n";
  for (const std::string& s : overFirst) out += "  over budget at run time: " + s + "\n";
  return out;
}

MemoryPager::MemoryPager(const Graph& g, const SymbolEnv& bounds, int64_t budget, std::vector<int64_t> sourceBytes,
                         StoreTable& stores, SourceArrays& sources, MemoryTracker& tracker, Record record)
    : graph_(g), budget_(budget), sourceBytes_(std::move(sourceBytes)), stores_(stores), sources_(sources),
      tracker_(tracker), record_(std::move(record)) {
  report_.budget = budget;
  const int n = static_cast<int>(stores_.size());
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (const SharedBuffer& s : sharedBuffers(g, bounds))
    if (s.holder >= 0 && s.holder < n && s.producer >= 0 && s.producer < n)
      parent[findRoot(parent, s.holder)] = findRoot(parent, s.producer);
  groupOf_.assign(n, -1);
  std::map<int, int> groupOfRoot;
  for (int id = 0; id < n; ++id) {
    if (!stores_[id]) continue;
    auto [it, fresh] = groupOfRoot.try_emplace(findRoot(parent, id), static_cast<int>(members_.size()));
    if (fresh) members_.emplace_back();
    groupOf_[id] = it->second;
    members_[it->second].push_back(id);
  }
  usedBy_.resize(n);
  producers_.resize(n);
  for (int id = 0; id < n; ++id) {
    if (groupOf_[id] < 0) continue;
    std::set<int> groups{groupOf_[id]};
    for (const Edge* e : g.inputs(id))
      if (e->producer >= 0 && e->producer < n && groupOf_[e->producer] >= 0) {
        groups.insert(groupOf_[e->producer]);
        producers_[id].push_back(e->producer);
      }
    usedBy_[id].assign(groups.begin(), groups.end());
  }
  lastUse_.assign(members_.size(), 0);
  shownAs_.assign(members_.size(), -1);
  pagedOut_.assign(members_.size(), false);
  sourceBytes_.resize(n, 0);
}

void MemoryPager::use(int node) {
  ++tick_;
  for (int group : usedBy_[node]) lastUse_[group] = tick_;
}

int64_t MemoryPager::bytesComingBack(int group) const {
  std::vector<const Tensor*> values;
  for (int m : members_[group]) {
    if (stores_[m]->swappedOut()) stores_[m]->heldValues(values);
    if (const Tensor* array = sources_.findSwapped(m)) values.push_back(array);
  }
  return values.empty() ? 0 : tracker_.bytesComingBack(values);
}

void MemoryPager::beforeExec(int node) {
  if (node < 0 || node >= static_cast<int>(usedBy_.size()) || usedBy_[node].empty()) return;
  use(node);
  int64_t incoming = 0;
  for (int group : usedBy_[node]) incoming += bytesComingBack(group);
  if (!sources_.find(node) && !sources_.findSwapped(node)) incoming += sourceBytes_[node];  // built by this exec
  if (tracker_.liveBytes() + incoming > budget_) makeRoom(incoming, usedBy_[node], nodeLabel(graph_.node(node)));
  for (int group : usedBy_[node]) bringIn(group);
  // The plan brings a store it swapped out back before its next use; should an exec need one
  // earlier all the same, it comes back here (uncounted) rather than the read failing.
  auto planned = [&](int id) {
    if (!stores_[id]->swappedOut()) return;
    sources_.swapIn(id);
    stores_[id]->swapIn();
  };
  planned(node);
  for (int p : producers_[node]) planned(p);
}

void MemoryPager::beforeWrite(int node, const std::vector<int64_t>& point, const Tensor& value) {
  if (node < 0 || node >= static_cast<int>(groupOf_.size()) || groupOf_[node] < 0) return;
  const int64_t adds = stores_[node]->bytesToWrite(point, value);
  if (tracker_.liveBytes() + adds > budget_) makeRoom(adds, {groupOf_[node]}, nodeLabel(graph_.node(node)));
}

void MemoryPager::beforeSwapIn(int node) {
  if (node < 0 || node >= static_cast<int>(groupOf_.size()) || groupOf_[node] < 0) return;
  const int64_t incoming = bytesComingBack(groupOf_[node]);
  if (tracker_.liveBytes() + incoming > budget_)
    makeRoom(incoming, {groupOf_[node]}, "swap_in " + nodeLabel(graph_.node(node)));
}

void MemoryPager::bringInOutputs() {
  std::set<int> groups;
  for (const GraphOutput& o : graph_.outputs)
    if (o.node >= 0 && o.node < static_cast<int>(groupOf_.size()) && groupOf_[o.node] >= 0)
      groups.insert(groupOf_[o.node]);
  int64_t incoming = 0;
  for (int group : groups) incoming += bytesComingBack(group);
  if (incoming == 0) return;
  if (tracker_.liveBytes() + incoming > budget_) {
    std::vector<int> keep(groups.begin(), groups.end());
    makeRoom(incoming, keep, "the outputs at the end");
  }
  for (int group : groups) bringIn(group);
}

void MemoryPager::makeRoom(int64_t incoming, const std::vector<int>& keep, const std::string& what) {
  while (tracker_.liveBytes() + incoming > budget_) {
    int best = -1;
    int64_t bestBytes = 0;
    for (int group = 0; group < static_cast<int>(members_.size()); ++group) {
      if (std::find(keep.begin(), keep.end(), group) != keep.end()) continue;
      int64_t bytes = 0;
      bool inMemory = false;
      for (int m : members_[group]) {
        bytes += tracker_.nodeBytes(m);
        inMemory = inMemory || (stores_[m]->isOpen() && stores_[m]->bytes() > 0) || sources_.find(m);
      }
      if (!inMemory || bytes == 0) continue;
      // Least recently used first; of two as stale, the larger.
      if (best < 0 || lastUse_[group] < lastUse_[best] || (lastUse_[group] == lastUse_[best] && bytes > bestBytes))
        best = group, bestBytes = bytes;
    }
    if (best < 0) {
      ++report_.overBudget;
      if (report_.overFirst.size() < 3 &&
          std::none_of(report_.overFirst.begin(), report_.overFirst.end(),
                       [&](const std::string& s) { return s.rfind(what + ":", 0) == 0; }))
        report_.overFirst.push_back(what + ": " + bytesText(tracker_.liveBytes()) + " of its own stores live and " +
                                    bytesText(incoming) + " coming in, over " + bytesText(budget_));
      return;
    }
    pageOut(best);
  }
}

void MemoryPager::pageOut(int group) {
  const int64_t before = tracker_.liveBytes();
  int& shown = shownAs_[group];
  if (shown < 0) {  // the member holding the most bytes
    shown = members_[group].front();
    for (int m : members_[group])
      if (tracker_.nodeBytes(m) > tracker_.nodeBytes(shown)) shown = m;
  }
  for (int m : members_[group]) {
    stores_[m]->swapOut();
    sources_.swapOut(m);
  }
  pagedOut_[group] = true;
  PagingReport::Counts& c = report_.nodes[shown];
  ++c.out;
  c.bytesOut += before - tracker_.liveBytes();
  record_(MemoryEvent::Kind::PageOut, shown);
}

void MemoryPager::bringIn(int group) {
  if (!pagedOut_[group]) return;
  pagedOut_[group] = false;
  for (int m : members_[group]) {
    sources_.swapIn(m);
    stores_[m]->swapIn();
  }
  ++report_.nodes[shownAs_[group]].in;
  record_(MemoryEvent::Kind::PageIn, shownAs_[group]);
}

}  // namespace tempo
