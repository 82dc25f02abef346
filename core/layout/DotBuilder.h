// DotBuilder: an SDG as a Graphviz graph, ready for `dot`.
//
// Creates one Graphviz node per drawn box (an op, a collapsed group, an
// output sink, a step of an expanded fused node), one Graphviz edge per drawn
// SDG edge (edges inside a collapsed group vanish; an input of an expanded
// fused node enters each step reading it) plus one per step-to-step read, and
// a cluster subgraph per expanded group and per expanded fused node, with
// the attributes of GraphStyle.h so a Graphviz render (SVG/PNG) and the
// studio's view look alike. The result pairs every Graphviz object with the
// GraphLayout element it becomes, whose geometry GraphLayout.cpp fills in
// after the layout has run. DotEdgeLabels says how edge labels go to
// Graphviz: none (a probe layout), or as external labels (`xlabel`) for the
// edges `dot` draws flat (see GraphLayout.cpp).
#pragma once

#include "layout/GraphLayout.h"
#include "layout/GraphvizSession.h"

#include <set>
#include <vector>

namespace tempo {

struct DotGraph {
  GraphLayout layout;                ///< everything but the geometry
  std::vector<Agnode_s*> nodes;      ///< parallel to layout.nodes
  std::vector<Agedge_s*> edges;      ///< parallel to layout.edges
  std::vector<Agraph_s*> clusters;   ///< parallel to layout.clusters
};

/// How edge labels are handed to Graphviz.
struct DotEdgeLabels {
  bool drawn = true;          ///< false: edges carry no labels
  std::set<size_t> external;  ///< edges (indices into layout.edges) labelled with `xlabel`, not `label`
};

/// Fills `root` (an empty directed graph) with `g`.
DotGraph buildDotGraph(const Graph& g, const LayoutOptions& options, Agraph_s* root, const DotEdgeLabels& labels = {});

}  // namespace tempo
