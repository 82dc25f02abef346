// GraphView: the studio's dependence graph view.
//
// Shows an SDG laid out by Graphviz (core/layout, run off the UI thread by
// runInBackground; the old picture stays until the new one is ready) in a
// zoomable, pannable canvas: boxes shaped and coloured by op class, labelled
// with op, name, spatial type and domain; edges labelled with their index
// atoms and conditions, temporal reads dashed, conditional ones coloured.
// A search box dims what does not match and, on Enter, zooms to and picks
// the matches; a match inside a collapsed group or fused node opens it.
// Groups (GraphGrouping): the chains fusion fuses (framed by default), source
// lines, or none; fused nodes open into their program's steps. "Collapse
// groups" turns every group and fused node into one box, "Expand all" opens
// them all; double-click a box to open it and a frame to close it. The bytes overlay colours boxes by predicted bytes
// with a legend. Clicking a box emits nodeActivated with its source range
// (the editor selects it); highlightSourceLine marks the boxes a source line
// made (the editor's cursor) and centres them. setNodeMarks outlines nodes
// the pass stepper calls "added", "removed" or "rewritten".
#pragma once

#include "graph/Graph.h"
#include "graph/GraphGrouping.h"
#include "layout/GraphLayout.h"

#include <QString>
#include <QWidget>

#include <map>
#include <memory>
#include <set>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QGraphicsItem;

namespace tempo::views {

class BytesLegend;
class GraphCanvas;
class GraphNodeItem;
class GraphScene;

class GraphView : public QWidget {
  Q_OBJECT

public:
  explicit GraphView(QWidget* parent = nullptr);
  ~GraphView() override;

  /// Shows `g` (null: an empty graph); the view shares it, never copies it.
  void setGraph(std::shared_ptr<const tempo::Graph> g);
  void setGraph(const tempo::Graph& g);
  /// Node id -> "added" | "removed" | "rewritten" (other words: a neutral mark).
  void setNodeMarks(const std::map<int, QString>& marks);
  /// Node id -> predicted bytes; a non-empty map turns the overlay on.
  void setBytesOverlay(const std::map<int, double>& bytes);
  /// Groups from the caller, drawn collapsed; they replace the fusion groups.
  void setGroups(const tempo::NodeGroups& groups);
  /// Chooses the grouping (the "Groups" box); its groups start in their default state.
  void setGroupMode(GroupMode mode);
  GroupMode groupMode() const { return grouping_.mode; }
  /// "Collapse groups": every group and fused node becomes one box.
  void collapseAll();
  /// "Expand all": every group becomes a frame, every fused node its steps.
  void expandAll();

  /// True while a layout runs; the scene shown is the previous one.
  bool layoutPending() const { return pending_ > 0; }
  GraphCanvas* canvas() const { return canvas_; }
  GraphScene* graphScene() const { return scene_; }
  /// The outline colour of a mark word.
  static QColor markColor(const QString& mark);
  /// Types `text` into the search box and picks its matches, as Enter does.
  void searchFor(const QString& text);
  /// The names of the graph's nodes picked by a click or a search.
  std::vector<std::string> pickedNames() const;

Q_SIGNALS:
  void nodeActivated(int nodeId, int line, int col, int endLine, int endCol);
  /// A new layout is on screen.
  void layoutReady();

public Q_SLOTS:
  void highlightSourceLine(int line);

private:
  struct LayoutResult;
  void relayout(bool fit);
  void install(std::shared_ptr<const tempo::Graph> graph, GraphLayout layout, bool fit);
  void applyState();
  void applyMarks();
  void applyOverlay();
  void applyHighlight(bool centre);
  void applySearch();
  void pickSearchMatches();
  void onItemClicked(QGraphicsItem* item);
  void onItemDoubleClicked(QGraphicsItem* item);
  void activate(const GraphNodeItem* item);
  /// Adds the box `n` to the pick.
  void pick(const LayoutNode& n);
  QString toolTipFor(const LayoutNode& n) const;
  QString edgeToolTip(const tempo::Edge& e) const;
  bool matchesSearch(const LayoutNode& n) const;
  /// True when `n` is matched by its own name, op or title.
  bool matchesOwn(const LayoutNode& n) const;
  /// True when `n` is a closed box (group, fused node) with a matching member or step inside.
  bool matchesInside(const LayoutNode& n) const;
  bool nodeMatches(const tempo::Node& node) const;
  std::shared_ptr<const tempo::Graph> graph_ = std::make_shared<const tempo::Graph>();  ///< the latest graph (being laid out); never null
  std::shared_ptr<const tempo::Graph> shown_ = graph_;  ///< the graph the scene on screen was laid out from; never null
  GraphGrouping grouping_;
  bool pickAfterLayout_ = false;  ///< a search opened boxes: pick its matches once laid out
  std::map<int, QString> marks_;
  std::map<int, double> bytes_;
  int highlightLine_ = 0;
  std::set<NodeId> picked_;  ///< SDG nodes picked by a click or a search
  std::set<std::pair<NodeId, int>> pickedSteps_;  ///< (fused node, step) boxes picked
  int generation_ = 0;
  int pending_ = 0;

  GraphCanvas* canvas_;
  GraphScene* scene_ = nullptr;
  QLineEdit* search_;
  QLabel* matches_;
  QLabel* status_;
  QComboBox* groupMode_;
  QCheckBox* overlay_;
  BytesLegend* legend_;
};

}  // namespace tempo::views
