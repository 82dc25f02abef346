#include "layout/GraphvizSession.h"

#include "layout/GraphLayout.h"

#include <graphviz/gvc.h>

namespace tempo {

namespace {

std::mutex& graphvizMutex() {
  static std::mutex m;
  return m;
}

/// Messages Graphviz reported during the current session (guarded by the lock).
std::string& collectedErrors() {
  static std::string errors;
  return errors;
}

int collectError(char* message) {
  if (message) collectedErrors() += message;
  return 0;
}

/// One Graphviz context for the process (guarded by the lock), never freed: the pango text
/// plugin keeps a pointer to the last font name, which lives in its context, and compares
/// the next label's font with it (valgrind: a read of freed memory after gvFreeContext).
GVC_t* sharedContext() {
  static GVC_t* context = gvContext();
  return context;
}

}  // namespace

GraphvizSession::GraphvizSession() : lock_(graphvizMutex()) {
  collectedErrors().clear();
  agseterr(AGERR);  // warnings are dropped, errors collected
  agseterrf(&collectError);
  try {
    gvc_ = sharedContext();
    if (!gvc_) fail("cannot create a Graphviz context");
    graph_ = agopen(const_cast<char*>("sdg"), Agdirected, nullptr);
    if (!graph_) fail("cannot create a Graphviz graph");
  } catch (...) {
    release();
    throw;
  }
}

GraphvizSession::~GraphvizSession() { release(); }

void GraphvizSession::release() {
  if (graph_ && laidOut_) gvFreeLayout(gvc_, graph_);
  if (graph_) agclose(graph_);
  graph_ = nullptr;
  gvc_ = nullptr;
  agseterrf(nullptr);
  agseterr(AGWARN);
}

void GraphvizSession::fail(const std::string& what) const {
  std::string msg = "graphviz: " + what;
  std::string details = collectedErrors();
  while (!details.empty() && (details.back() == '\n' || details.back() == ' ')) details.pop_back();
  if (!details.empty()) msg += ": " + details;
  throw GraphLayoutError(msg);
}

void GraphvizSession::layout() {
  if (gvLayout(gvc_, graph_, "dot") != 0) fail("dot layout failed");
  laidOut_ = true;
}

std::string GraphvizSession::render(const std::string& format) {
  char* data = nullptr;
  unsigned int length = 0;
  int rc = gvRenderData(gvc_, graph_, format.c_str(), &data, &length);
  std::unique_ptr<char, void (*)(char*)> owned(data, [](char* p) { if (p) gvFreeRenderData(p); });
  if (rc != 0 || !data) fail("cannot render format '" + format + "' (no render plugin?)");
  return std::string(data, length);
}

}  // namespace tempo
