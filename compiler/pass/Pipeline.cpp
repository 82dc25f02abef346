#include "pass/Pipeline.h"

#include "graph/GraphValidator.h"

namespace tempo {

Pipeline& Pipeline::add(std::unique_ptr<Pass> pass) {
  for (const auto& p : passes_)
    if (p->name() == pass->name()) throw std::invalid_argument("pipeline already has a pass '" + pass->name() + "'");
  passes_.push_back(std::move(pass));
  return *this;
}

std::vector<std::string> Pipeline::passNames() const {
  std::vector<std::string> names;
  for (const auto& p : passes_) names.push_back(p->name());
  return names;
}

void Pipeline::requireKnown(const std::string& name) const {
  for (const auto& p : passes_)
    if (p->name() == name) return;
  std::string valid;
  for (const std::string& n : passNames()) valid += (valid.empty() ? "" : ", ") + n;
  throw UnknownPassError("unknown pass '" + name + "' (valid passes: " + valid + ")");
}

const Pass& Pipeline::pass(const std::string& name) const {
  requireKnown(name);
  for (const auto& p : passes_)
    if (p->name() == name) return *p;
  throw UnknownPassError(name);  // unreachable
}

void Pipeline::disable(const std::string& name) {
  requireKnown(name);
  disabled_.insert(name);
}

void Pipeline::stopAfter(const std::string& name) {
  requireKnown(name);
  stopAfter_ = name;
}

namespace {

void runChecked(Pass& pass, Graph& graph, PassContext& context) {
  try {
    pass.run(graph, context);
  } catch (const PassError&) {
    throw;
  } catch (const std::exception& e) {
    throw PassError(pass.name(), std::string("failed: ") + e.what());
  }
  std::vector<std::string> problems = validateGraph(graph);
  if (problems.empty()) return;
  std::string message = "left an invalid graph:";
  for (const std::string& p : problems) message += "\n  - " + p;
  throw PassError(pass.name(), message);
}

}  // namespace

std::vector<PassSnapshot> Pipeline::run(Graph& graph, PassContext& context) const {
  std::vector<PassSnapshot> snapshots;
  for (const auto& pass : passes_) {
    if (!isDisabled(pass->name())) {
      Graph before = graph;
      context.change = GraphChange{};
      auto start = std::chrono::steady_clock::now();
      runChecked(*pass, graph, context);
      PassSnapshot snap;
      snap.duration = std::chrono::steady_clock::now() - start;
      snap.passName = pass->name();
      snap.description = pass->description();
      snap.change = context.change;
      // A node the pass added or removed is not also "rewritten".
      for (NodeId id : snap.change.removed) snap.change.rewritten.erase(id);
      for (NodeId id : snap.change.added) snap.change.rewritten.erase(id);
      snap.diff = diffGraphs(before, graph);
      snap.changed = !snap.diff.empty();
      snap.graph = graph;
      snapshots.push_back(std::move(snap));
    }
    if (stopAfter_ && *stopAfter_ == pass->name()) break;
  }
  return snapshots;
}

std::vector<PassSnapshot> Pipeline::run(Graph& graph) const {
  PassContext context;
  return run(graph, context);
}

}  // namespace tempo
