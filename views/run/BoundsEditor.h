// BoundsEditor: the values of a program's bounds for the next run.
//
// One row per dimension of the graph (`t < T`), with a spin box preset to
// the bound's `set` default. When the program is re-checked the rows are
// rebuilt, keeping a value the user changed for a bound that still exists,
// so editing the program does not lose the run configuration. `overrides()`
// are the values as `--set` pairs for resolveBounds.
#pragma once

#include "graph/Graph.h"

#include <QWidget>

#include <cstdint>
#include <map>
#include <string>

class QFormLayout;
class QSpinBox;

namespace tempo::views {

class BoundsEditor : public QWidget {
  Q_OBJECT
public:
  explicit BoundsEditor(QWidget* parent = nullptr);

  /// Rebuilds the rows from `graph.dims` and `graph.boundDefaults`.
  void setGraph(const Graph& graph);
  /// Current value of every bound that has a row.
  std::map<std::string, int64_t> overrides() const;
  /// Sets one bound's spin box (false if the bound has no row).
  bool setValue(const std::string& bound, int64_t value);
  /// The spin box of a bound (null if none).
  QSpinBox* spinBox(const std::string& bound) const;

Q_SIGNALS:
  void valuesChanged();

private:
  QFormLayout* form_ = nullptr;
  std::map<std::string, QSpinBox*> boxes_;
  std::map<std::string, int64_t> defaults_;
  std::map<std::string, int64_t> edited_;  ///< values the user changed, by bound
};

}  // namespace tempo::views
