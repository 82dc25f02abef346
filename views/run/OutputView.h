// OutputView: one run output as a table and as a plot.
//
// Shows the output's name, dtype and shape; an index picker (a spin box per
// leading axis) chooses the 2-D slice the table shows (its last two axes);
// a second tab plots the output along a chosen axis (OutputChart), with the
// other axes at the picked indices and the table's current cell. Axes are
// named after the output's domain dimensions (b, t) and then by position.
#pragma once

#include "tensor/Tensor.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace tempo::views {

class OutputChart;
class TensorTableModel;

class OutputView : public QWidget {
  Q_OBJECT
public:
  explicit OutputView(QWidget* parent = nullptr);

  /// Shows `value`, named `name`, whose leading axes are `domain` dims.
  void setOutput(const QString& name, const Tensor& value, const QStringList& domain);
  void clear(const QString& message);

  TensorTableModel* tableModel() const { return model_; }
  OutputChart* chart() const { return chart_; }
  /// Shows the plot tab (true) or the table tab.
  void showPlot(bool plot);

private:
  void replot();
  std::vector<int64_t> fixedIndices() const;

  QLabel* title_ = nullptr;
  QHBoxLayout* picker_ = nullptr;
  std::vector<QSpinBox*> leading_;
  QTabWidget* tabs_ = nullptr;
  QTableView* table_ = nullptr;
  TensorTableModel* model_ = nullptr;
  QComboBox* plotAxis_ = nullptr;
  OutputChart* chart_ = nullptr;
  QStringList axisNames_;
};

}  // namespace tempo::views
