#include "layout/GraphLayout.h"

#include "layout/DotBuilder.h"
#include "layout/GraphvizSession.h"

#include <graphviz/gvc.h>

#include <algorithm>

namespace tempo {

namespace {

/// Graphviz points (y up, origin at the bounding box's lower-left) to ours.
class Flip {
public:
  explicit Flip(boxf bb) : bb_(bb) {}
  LayoutPoint operator()(pointf p) const { return {p.x - bb_.LL.x, bb_.UR.y - p.y}; }
  LayoutRect rect(boxf b) const {
    LayoutPoint tl = (*this)(pointf{b.LL.x, b.UR.y});
    return {tl.x, tl.y, b.UR.x - b.LL.x, b.UR.y - b.LL.y};
  }

private:
  boxf bb_;
};

void readGeometry(DotGraph& dg, Agraph_t* root) {
  GraphLayout& out = dg.layout;
  boxf bb = GD_bb(root);
  Flip flip(bb);
  out.width = bb.UR.x - bb.LL.x;
  out.height = bb.UR.y - bb.LL.y;
  for (size_t i = 0; i < out.nodes.size(); ++i) {
    Agnode_t* n = dg.nodes[i];
    out.nodes[i].center = flip(ND_coord(n));
    out.nodes[i].width = ND_width(n) * 72.0;
    out.nodes[i].height = ND_height(n) * 72.0;
  }
  for (size_t i = 0; i < out.edges.size(); ++i) {
    Agedge_t* e = dg.edges[i];
    LayoutEdge& le = out.edges[i];
    if (splines* spl = ED_spl(e); spl && spl->size > 0) {
      const bezier& bz = spl->list[0];
      for (int k = 0; k < bz.size; ++k) le.spline.push_back(flip(bz.list[k]));
      if (bz.eflag) {
        le.hasArrow = true;
        le.arrowTip = flip(bz.ep);
      }
    }
    if (textlabel_t* lab = ED_label(e); lab && lab->set) le.labelCenter = flip(lab->pos);
    if (textlabel_t* lab = ED_xlabel(e); lab && lab->set) le.labelCenter = flip(lab->pos);
  }
  for (size_t i = 0; i < out.clusters.size(); ++i) out.clusters[i].rect = flip.rect(GD_bb(dg.clusters[i]));
}

/// How to hand `g`'s edge labels to Graphviz so that `dot` can lay it out.
/// Graphviz 2.42 (Debian 12) corrupts its heap when, in a graph with
/// clusters, an edge drawn flat (both ends on one rank: dot makes some edges
/// across a cluster's border flat) carries a label: flat_edges() reallocates
/// the rank array the clusters still point into, and gvFreeLayout frees the
/// stale pointer (the REINFORCE graphs crashed the studio). So a graph with
/// clusters is first laid out without edge labels to find its flat edges,
/// which then carry their labels as `xlabel`s, placed after the layout.
DotEdgeLabels safeEdgeLabels(const Graph& g, const LayoutOptions& options) {
  GraphvizSession probe;
  DotGraph dg = buildDotGraph(g, options, probe.graph(), DotEdgeLabels{false, {}});
  if (dg.clusters.empty()) return {};
  probe.layout();
  DotEdgeLabels labels;
  for (size_t i = 0; i < dg.edges.size(); ++i)
    if (ND_rank(agtail(dg.edges[i])) == ND_rank(aghead(dg.edges[i]))) labels.external.insert(i);
  return labels;
}

}  // namespace

int GraphLayout::indexOfNode(NodeId id) const {
  int found = -1;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const LayoutNode& n = nodes[i];
    if (n.kind == LayoutNodeKind::Output) continue;
    if (std::find(n.members.begin(), n.members.end(), id) == n.members.end()) continue;
    if (n.kind != LayoutNodeKind::FusedStep) return static_cast<int>(i);
    if (found < 0 || nodes[found].step < n.step) found = static_cast<int>(i);  // the result: the last step
  }
  return found;
}

GraphLayout layoutGraph(const Graph& g, const LayoutOptions& options) {
  DotEdgeLabels labels = safeEdgeLabels(g, options);
  GraphvizSession session;
  DotGraph dg = buildDotGraph(g, options, session.graph(), labels);
  session.layout();
  readGeometry(dg, session.graph());
  return std::move(dg.layout);
}

std::string renderGraph(const Graph& g, const std::string& format, const LayoutOptions& options) {
  if (format != "svg" && format != "png") throw GraphLayoutError("cannot render format '" + format + "' (svg or png)");
  DotEdgeLabels labels = safeEdgeLabels(g, options);
  GraphvizSession session;
  buildDotGraph(g, options, session.graph(), labels);
  session.layout();
  return session.render(format);
}

}  // namespace tempo
