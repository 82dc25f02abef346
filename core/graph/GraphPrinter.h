// GraphPrinter: the stable textual form of the SDG.
//
// One line per node in id order: `%id name = op(inputs) {attrs} : type over
// (domain)  # line:col`, where each input is an edge printed as
// `%producer[index atoms] if condition`. A header gives the dimensions and
// bound defaults; a footer lists the outputs. Golden tests compare this text,
// so a change in the graph reads as a diff.
#pragma once

#include "graph/Graph.h"

#include <string>

namespace tempo {

struct PrintOptions {
  bool locations = true;  ///< append `# line:col` to each node
};

std::string printGraph(const Graph& g, const PrintOptions& options = {});
/// A single node's line (without a trailing newline).
std::string printNode(const Graph& g, const Node& n, const PrintOptions& options = {});

}  // namespace tempo
