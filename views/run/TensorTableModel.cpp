#include "run/TensorTableModel.h"

namespace tempo::views {

QString formatValue(const Tensor& tensor, int64_t flat) {
  double v = tensor.at(flat);
  if (tensor.dtype() == DType::Bool) return v != 0 ? QStringLiteral("true") : QStringLiteral("false");
  if (isInteger(tensor.dtype())) return QString::number(static_cast<qlonglong>(v));
  return QString::asprintf("%.6g", v);
}

TensorTableModel::TensorTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TensorTableModel::setTensor(const Tensor& tensor, const QStringList& axisNames) {
  beginResetModel();
  tensor_ = tensor;
  axisNames_ = axisNames;
  leading_.assign(static_cast<size_t>(std::max(0, tensor.rank() - 2)), 0);
  endResetModel();
}

void TensorTableModel::setLeadingIndex(int axis, int64_t index) {
  if (axis < 0 || axis >= static_cast<int>(leading_.size())) return;
  leading_[static_cast<size_t>(axis)] = std::clamp<int64_t>(index, 0, tensor_.shape()[static_cast<size_t>(axis)] - 1);
  Q_EMIT dataChanged(this->index(0, 0), this->index(rowCount() - 1, columnCount() - 1));
}

int TensorTableModel::rowAxis() const { return tensor_.rank() >= 2 ? tensor_.rank() - 2 : tensor_.rank() - 1; }
int TensorTableModel::columnAxis() const { return tensor_.rank() >= 2 ? tensor_.rank() - 1 : -1; }

int TensorTableModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return rowAxis() < 0 ? 1 : static_cast<int>(tensor_.shape()[static_cast<size_t>(rowAxis())]);
}

int TensorTableModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return columnAxis() < 0 ? 1 : static_cast<int>(tensor_.shape()[static_cast<size_t>(columnAxis())]);
}

int64_t TensorTableModel::flatIndex(int row, int column) const {
  int64_t flat = 0;
  const std::vector<int64_t>& shape = tensor_.shape();
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    int64_t i = static_cast<int>(axis) == rowAxis() ? row : static_cast<int>(axis) == columnAxis() ? column : leading_[axis];
    flat = flat * shape[axis] + i;
  }
  return flat;
}

QVariant TensorTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  int64_t flat = flatIndex(index.row(), index.column());
  if (role == Qt::DisplayRole) return formatValue(tensor_, flat);
  if (role == Qt::ToolTipRole) return QString::number(tensor_.at(flat), 'g', 17);
  if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant TensorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  int axis = orientation == Qt::Vertical ? rowAxis() : columnAxis();
  if (axis < 0) return QString();
  // Domain dimensions are named (`t=3`); spatial axes are plain indices.
  QString name = axis < axisNames_.size() ? axisNames_[axis] : QString();
  return name.isEmpty() ? QString::number(section) : QStringLiteral("%1=%2").arg(name).arg(section);
}

}  // namespace tempo::views
