// GraphView: the studio's dependence graph view.
//
// Shows an SDG laid out by Graphviz (core/layout, run off the UI thread with
// QtConcurrent; the old picture stays until the new one is ready) in a
// zoomable, pannable canvas: boxes shaped and coloured by op class, labelled
// with op, name, spatial type and domain; edges labelled with their index
// atoms and conditions, temporal reads dashed, conditional ones coloured.
// A search box dims what does not match and, on Enter, zooms to and picks
// the matches. "Group by line" (or caller groups, e.g. fused groups)
// collapses each group into one box; double-click a box to expand it and its
// frame to collapse it. The bytes overlay colours boxes by predicted bytes
// with a legend. Clicking a box emits nodeActivated with its source range
// (the editor selects it); highlightSourceLine marks the boxes a source line
// made (the editor's cursor) and centres them. setNodeMarks outlines nodes
// the pass stepper calls "added", "removed" or "rewritten".
#pragma once

#include "graph/Graph.h"
#include "layout/GraphLayout.h"

#include <QString>
#include <QWidget>

#include <map>
#include <set>

class QCheckBox;
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

  void setGraph(const tempo::Graph& g);
  /// Node id -> "added" | "removed" | "rewritten" (other words: a neutral mark).
  void setNodeMarks(const std::map<int, QString>& marks);
  /// Node id -> predicted bytes; a non-empty map turns the overlay on.
  void setBytesOverlay(const std::map<int, double>& bytes);
  /// Groups from the caller (e.g. fused groups); replaces "group by line".
  void setGroups(const tempo::NodeGroups& groups);

  /// True while a layout runs; the scene shown is the previous one.
  bool layoutPending() const { return pending_ > 0; }
  GraphCanvas* canvas() const { return canvas_; }
  GraphScene* graphScene() const { return scene_; }
  /// The outline colour of a mark word.
  static QColor markColor(const QString& mark);

Q_SIGNALS:
  void nodeActivated(int nodeId, int line, int col, int endLine, int endCol);
  /// A new layout is on screen.
  void layoutReady();

public Q_SLOTS:
  void highlightSourceLine(int line);

private:
  struct LayoutResult;
  void relayout(bool fit);
  void install(tempo::Graph graph, GraphLayout layout, bool fit);
  LayoutOptions currentOptions() const;
  void applyState();
  void applyMarks();
  void applyOverlay();
  void applyHighlight(bool centre);
  void applySearch();
  void pickSearchMatches();
  void onItemClicked(QGraphicsItem* item);
  void onItemDoubleClicked(QGraphicsItem* item);
  void activate(const GraphNodeItem* item);
  QString toolTipFor(const LayoutNode& n) const;
  QString edgeToolTip(const tempo::Edge& e) const;
  bool matchesSearch(const LayoutNode& n) const;

  tempo::Graph graph_;  ///< the latest graph (being laid out)
  tempo::Graph shown_;  ///< the graph the scene on screen was laid out from
  tempo::NodeGroups callerGroups_;
  std::set<int> expanded_;
  std::map<int, QString> marks_;
  std::map<int, double> bytes_;
  int highlightLine_ = 0;
  std::set<NodeId> picked_;  ///< SDG nodes picked by a click or a search
  int generation_ = 0;
  int pending_ = 0;

  GraphCanvas* canvas_;
  GraphScene* scene_ = nullptr;
  QLineEdit* search_;
  QLabel* matches_;
  QLabel* status_;
  QCheckBox* groupByLine_;
  QCheckBox* overlay_;
  BytesLegend* legend_;
};

}  // namespace tempo::views
