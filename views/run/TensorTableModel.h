// TensorTableModel: a 2-D slice of a Tensor as a Qt table model.
//
// Rows and columns are the tensor's last two axes; the leading axes are
// fixed at indices chosen with `setLeadingIndex` (the output view's index
// picker). A vector is one column, a scalar one cell. Floats are shown with
// %.6g (as `tempo run` prints them), integers exactly, bools as true/false;
// the full-precision value is the tooltip.
#pragma once

#include "tensor/Tensor.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace tempo::views {

class TensorTableModel : public QAbstractTableModel {
  Q_OBJECT
public:
  explicit TensorTableModel(QObject* parent = nullptr);

  /// Shows `tensor`; `axisNames` label the axes (one per axis, may be empty).
  void setTensor(const Tensor& tensor, const QStringList& axisNames = {});
  const Tensor& tensor() const { return tensor_; }
  /// Fixes leading axis `axis` (< rank - 2) at `index`.
  void setLeadingIndex(int axis, int64_t index);
  /// Axes shown as rows and columns (-1 when absent).
  int rowAxis() const;
  int columnAxis() const;
  /// The flat index of a cell.
  int64_t flatIndex(int row, int column) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
  Tensor tensor_;
  QStringList axisNames_;
  std::vector<int64_t> leading_;
};

/// A value as the studio shows it (%.6g for floats).
QString formatValue(const Tensor& tensor, int64_t flat);

}  // namespace tempo::views
