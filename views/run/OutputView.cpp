#include "run/OutputView.h"

#include "run/OutputChart.h"
#include "run/TensorTableModel.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace tempo::views {

OutputView::OutputView(QWidget* parent)
    : QWidget(parent), title_(new QLabel), picker_(new QHBoxLayout), tabs_(new QTabWidget), table_(new QTableView),
      model_(new TensorTableModel(this)), plotAxis_(new QComboBox), chart_(new OutputChart) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  title_->setTextFormat(Qt::RichText);
  layout->addWidget(title_);
  layout->addLayout(picker_);
  table_->setModel(model_);
  table_->horizontalHeader()->setDefaultSectionSize(84);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  tabs_->addTab(table_, tr("Table"));
  auto* plotPage = new QWidget;
  auto* plotLayout = new QVBoxLayout(plotPage);
  plotLayout->setContentsMargins(0, 4, 0, 0);
  auto* axisRow = new QHBoxLayout;
  axisRow->addWidget(new QLabel(tr("Plot along")));
  axisRow->addWidget(plotAxis_);
  axisRow->addStretch();
  plotLayout->addLayout(axisRow);
  plotLayout->addWidget(chart_, 1);
  tabs_->addTab(plotPage, tr("Plot"));
  layout->addWidget(tabs_, 1);
  connect(plotAxis_, &QComboBox::currentIndexChanged, this, &OutputView::replot);
  connect(table_->selectionModel(), &QItemSelectionModel::currentChanged, this, &OutputView::replot);
  clear(tr("Run the program to see its outputs."));
}

void OutputView::clear(const QString& message) {
  title_->setText(QStringLiteral("<i>%1</i>").arg(message.toHtmlEscaped()));
  model_->setTensor(Tensor::scalar(DType::F32, 0));
  while (QLayoutItem* item = picker_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  leading_.clear();
  axisNames_.clear();
  plotAxis_->clear();
  chart_->clearPlot(message);
  tabs_->setEnabled(false);
}

void OutputView::setOutput(const QString& name, const Tensor& value, const QStringList& domain) {
  clear(QString());
  tabs_->setEnabled(true);
  title_->setText(QStringLiteral("<b>%1</b> : <code>%2%3</code>")
                      .arg(name.toHtmlEscaped(), QString::fromUtf8(dtypeName(value.dtype()).data()),
                           QString::fromStdString(shapeString(value.shape()))));
  for (int a = 0; a < value.rank(); ++a) axisNames_ << (a < domain.size() ? domain[a] : QStringLiteral("axis %1").arg(a));
  model_->setTensor(value, domain);  // spatial axes get plain index headers
  for (int a = 0; a + 2 < value.rank(); ++a) {
    picker_->addWidget(new QLabel(axisNames_[a] + QLatin1Char('=')));
    auto* box = new QSpinBox;
    box->setRange(0, static_cast<int>(value.shape()[static_cast<size_t>(a)] - 1));
    connect(box, &QSpinBox::valueChanged, this, [this, a](int i) {
      model_->setLeadingIndex(a, i);
      replot();
    });
    picker_->addWidget(box);
    leading_.push_back(box);
  }
  if (!leading_.empty()) picker_->addWidget(new QLabel(tr("(the table shows the last two axes)")));
  picker_->addStretch();
  QSignalBlocker block(plotAxis_);
  for (const QString& axis : axisNames_) plotAxis_->addItem(axis);
  // Plot along the innermost domain dimension (usually time), else the first axis.
  plotAxis_->setCurrentIndex(domain.isEmpty() ? 0 : std::min<int>(domain.size(), value.rank()) - 1);
  replot();
}

std::vector<int64_t> OutputView::fixedIndices() const {
  std::vector<int64_t> fixed(static_cast<size_t>(model_->tensor().rank()), 0);
  for (size_t a = 0; a < leading_.size(); ++a) fixed[a] = leading_[a]->value();
  QModelIndex cell = table_->currentIndex();
  if (cell.isValid() && model_->rowAxis() >= 0) fixed[static_cast<size_t>(model_->rowAxis())] = cell.row();
  if (cell.isValid() && model_->columnAxis() >= 0) fixed[static_cast<size_t>(model_->columnAxis())] = cell.column();
  return fixed;
}

void OutputView::replot() {
  if (!tabs_->isEnabled()) return;
  chart_->plot(model_->tensor(), plotAxis_->currentIndex(), fixedIndices(), axisNames_);
}

void OutputView::showPlot(bool plot) { tabs_->setCurrentIndex(plot ? 1 : 0); }

}  // namespace tempo::views
