// GraphvizSession: safe, scoped use of libgvc for one graph.
//
// Graphviz keeps global state (the error handler, the cgraph allocator), so a
// session holds a process-wide lock for its whole life; it uses the process's
// one GVC context (never freed: the text plugin keeps pointers into it), owns
// one root graph and frees the layout and the graph in its destructor. Graphviz errors are collected instead of printed, and
// layout() / render() throw GraphLayoutError carrying them. The graphviz
// types are only forward-declared: their headers stay private to core.
#pragma once

#include <memory>
#include <mutex>
#include <string>

struct GVC_s;
struct Agraph_s;
struct Agnode_s;
struct Agedge_s;

namespace tempo {

class GraphvizSession {
public:
  GraphvizSession();
  ~GraphvizSession();
  GraphvizSession(const GraphvizSession&) = delete;
  GraphvizSession& operator=(const GraphvizSession&) = delete;

  Agraph_s* graph() const { return graph_; }
  /// Runs `dot` on graph(); throws GraphLayoutError on failure.
  void layout();
  /// Renders the laid-out graph in `format` ("svg", "png", ...).
  std::string render(const std::string& format);

private:
  void release();
  [[noreturn]] void fail(const std::string& what) const;

  std::unique_lock<std::mutex> lock_;
  GVC_s* gvc_ = nullptr;
  Agraph_s* graph_ = nullptr;
  bool laidOut_ = false;
};

}  // namespace tempo
