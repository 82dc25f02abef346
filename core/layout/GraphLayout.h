// GraphLayout: positions for drawing an SDG, computed by Graphviz `dot`.
//
// layoutGraph turns a Graph into a plain value the studio's graph view and
// the CLI renderers draw from: for every drawn node its label lines, centre,
// size, shape and fill (see GraphStyle.h); for every edge its cubic B-spline
// control points, arrow tip, label text and position, and whether it is
// temporal or conditional; clusters for expanded groups; the bounding box.
// Coordinates are points with y pointing down and (0, 0) at the top-left of
// the bounding box. Options collapse groups of nodes into one box each
// (NodeGroups, e.g. groupBySourceLine or fusionGroups), expand fused nodes
// into their program's steps (a frame around one box per step, the way
// Model Explorer opens a fusion op to show its fused computation) and add
// program outputs as sink nodes. renderGraph draws the same picture as SVG or PNG through
// libgvc's render plugins. Graphviz is not thread-safe, so every call here
// holds one process-wide lock. Failures throw GraphLayoutError.
#pragma once

#include "graph/Graph.h"
#include "graph/GraphStyle.h"
#include "layout/NodeGroups.h"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tempo {

struct GraphLayoutError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct LayoutPoint {
  double x = 0, y = 0;
};

struct LayoutRect {
  double x = 0, y = 0, width = 0, height = 0;  ///< top-left corner and size
};

struct LayoutOptions {
  /// Each group is drawn as one box unless it is in `expandedGroups`, in
  /// which case its members are drawn inside a frame titled with its label.
  NodeGroups groups;
  std::set<int> expandedGroups;
  /// Fused nodes (op `fused`) drawn as their program: one box per step
  /// (`s1 = sqrt(s0)`, shaped by the step's op) inside a frame titled with
  /// the node; its inputs' edges enter the steps that read them (labelled
  /// `in0`, ...) and its readers read the last step. Others stay one box.
  std::set<NodeId> expandedFused;
  bool outputs = true;  ///< draw each program output as a sink node
  /// Label reads of the producer's own point (`[l, t]`) too; by default
  /// only reads worth a look (shifts, slices, constants) carry an index.
  bool identityReadLabels = false;
};

enum class LayoutNodeKind { Op, Group, Output, FusedStep };

struct LayoutNode {
  LayoutNodeKind kind = LayoutNodeKind::Op;
  int id = -1;                   ///< NodeId (Op, FusedStep: the fused node), group id (Group), index into Graph::outputs (Output)
  std::vector<NodeId> members;   ///< the SDG nodes it stands for (Output: the output's node; FusedStep: the fused node)
  int step = -1;                 ///< FusedStep: the index of its step in the fused node's program
  std::vector<std::string> label;
  LayoutPoint center;
  double width = 0, height = 0;
  NodeShape shape = NodeShape::Ellipse;
  std::string fill;              ///< `#rrggbb` ("" for none)
  LayoutRect rect() const { return {center.x - width / 2, center.y - height / 2, width, height}; }
};

struct LayoutEdge {
  EdgeId id = -1;                ///< the SDG edge (-1 for an output's edge)
  int from = -1, to = -1;        ///< indices into GraphLayout::nodes (producer, consumer)
  std::vector<LayoutPoint> spline;  ///< cubic B-spline: 1 + 3k control points
  bool hasArrow = false;
  LayoutPoint arrowTip;          ///< the arrowhead runs from spline.back() to here
  std::vector<std::string> label;
  LayoutPoint labelCenter;
  bool temporal = false;
  bool conditional = false;
};

/// The frame of an expanded group or of an expanded fused node.
struct LayoutCluster {
  int group = -1;                ///< the group (-1 for a fused node's frame)
  NodeId fused = -1;             ///< the fused node whose steps it frames (-1 for a group)
  std::string label;
  LayoutRect rect;
};

struct GraphLayout {
  std::vector<LayoutNode> nodes;
  std::vector<LayoutEdge> edges;
  std::vector<LayoutCluster> clusters;
  double width = 0, height = 0;  ///< the bounding box

  /// Index into `nodes` of the box drawing SDG node `id` (its group's box
  /// when collapsed, the last step of an expanded fused node); -1 if none.
  int indexOfNode(NodeId id) const;
};

GraphLayout layoutGraph(const Graph& g, const LayoutOptions& options = {});

/// The graph drawn by Graphviz as "svg" or "png" (binary); throws
/// GraphLayoutError for another format or when Graphviz fails.
std::string renderGraph(const Graph& g, const std::string& format, const LayoutOptions& options = {});

}  // namespace tempo
