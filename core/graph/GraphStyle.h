// GraphStyle: how the SDG looks, decided once for every picture of it.
//
// The DOT export, the Graphviz layout used by `tempo graph --format svg|png`
// and the studio's graph view all draw the same graph, so the visual
// decisions live here: each op class's node shape and fill colour, the
// colour of conditional edges, the font, and the text of node labels (op,
// name, spatial type, domain) and edge labels (index atoms, `if` condition).
// Temporal edges (see isTemporalEdge in GraphExport.h) are drawn dashed.
#pragma once

#include "graph/Graph.h"

#include <string>
#include <vector>

namespace tempo {

/// Node outlines; each has a Graphviz name (dotShapeName).
enum class NodeShape { Box, Ellipse, Box3d, InvTrapezium, Cds, Diamond, Plain };

struct NodeStyle {
  NodeShape shape = NodeShape::Ellipse;
  const char* fill = "#ffffff";  ///< `#rrggbb`
};

NodeStyle nodeStyleOf(OpKind op);
const char* dotShapeName(NodeShape shape);

inline constexpr const char* kConditionalEdgeColor = "#b91c1c";
inline constexpr const char* kGroupFillColor = "#e2e8f0";
inline constexpr const char* kGraphFontName = "DejaVu Sans";
inline constexpr int kNodeFontSize = 10;  ///< points
inline constexpr int kEdgeFontSize = 9;   ///< points

/// `(l, t)`.
std::string domainString(const std::vector<std::string>& domain);
/// `[l, 0:t + 1]` ("" for a read without atoms).
std::string atomsString(const Edge& e);
/// {"matmul n1", "f32[16] over (l, t)"}; constants and index evaluations
/// show their value (`constant 16`, `eval_index t`).
std::vector<std::string> nodeLabelLines(const Node& n);
/// {"[l, t - 1]", "if l == 0"}; empty when there is nothing to say. Without
/// `withIndex` only the condition (pictures leave identity reads unlabelled).
std::vector<std::string> edgeLabelLines(const Edge& e, bool withIndex = true);
/// Lines joined with '\n'.
std::string joinLines(const std::vector<std::string>& lines);

}  // namespace tempo
