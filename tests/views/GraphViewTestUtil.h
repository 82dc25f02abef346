// GraphViewTestUtil: shared set-up for the graph view's Qt tests: compile an
// example, show a GraphView on it and wait for its (asynchronous) layout.
#pragma once

#include "frontend/Frontend.h"
#include "graph/GraphScene.h"
#include "graph/GraphView.h"

#include <QtTest/QtTest>

#include <filesystem>

namespace tempo::views::test {

inline Graph compileExample(const std::string& relative) {
  auto path = std::filesystem::path(TEMPO_SOURCE_DIR) / "resources" / "examples" / relative;
  FrontendResult r = compileFile(path.string());
  if (!r.ok()) qFatal("%s", r.renderedDiagnostics().c_str());
  return r.graph;
}

inline bool waitForLayout(GraphView& view, int timeoutMs = 20000) {
  return QTest::qWaitFor([&] { return !view.layoutPending() && view.graphScene(); }, timeoutMs);
}

inline NodeId nodeNamed(const Graph& g, const std::string& name) {
  for (const auto& [id, n] : g.nodes())
    if (n.name == name) return id;
  qFatal("no node named %s", name.c_str());
  return -1;
}

}  // namespace tempo::views::test
