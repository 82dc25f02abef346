#include "run/BoundsEditor.h"

#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace tempo::views {

BoundsEditor::BoundsEditor(QWidget* parent) : QWidget(parent), form_(new QFormLayout(this)) {
  form_->setContentsMargins(0, 0, 0, 0);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

void BoundsEditor::setGraph(const Graph& graph) {
  while (form_->rowCount() > 0) form_->removeRow(0);
  boxes_.clear();
  defaults_ = graph.boundDefaults;
  for (const DimDecl& dim : graph.dims) {
    if (dim.bound.empty() || boxes_.count(dim.bound)) continue;
    auto* box = new QSpinBox;
    box->setRange(1, 1'000'000'000);
    auto def = defaults_.find(dim.bound);
    auto edited = edited_.find(dim.bound);
    box->setValue(edited != edited_.end() ? static_cast<int>(edited->second)
                  : def != defaults_.end() ? static_cast<int>(def->second) : 1);
    box->setToolTip(def != defaults_.end() ? tr("Default (set): %1").arg(def->second) : tr("No default in the program"));
    const std::string bound = dim.bound;
    connect(box, &QSpinBox::valueChanged, this, [this, bound](int value) {
      edited_[bound] = value;
      Q_EMIT valuesChanged();
    });
    boxes_[bound] = box;
    auto* label = new QLabel(QStringLiteral("<code>%1 &lt; <b>%2</b></code>")
                                 .arg(QString::fromStdString(dim.name), QString::fromStdString(dim.bound)));
    form_->addRow(label, box);
  }
  if (boxes_.empty()) form_->addRow(new QLabel(tr("<i>No dimensions</i>")));
}

std::map<std::string, int64_t> BoundsEditor::overrides() const {
  std::map<std::string, int64_t> values;
  for (const auto& [bound, box] : boxes_) values[bound] = box->value();
  return values;
}

bool BoundsEditor::setValue(const std::string& bound, int64_t value) {
  QSpinBox* box = spinBox(bound);
  if (!box) return false;
  box->setValue(static_cast<int>(value));
  return true;
}

QSpinBox* BoundsEditor::spinBox(const std::string& bound) const {
  auto it = boxes_.find(bound);
  return it == boxes_.end() ? nullptr : it->second;
}

}  // namespace tempo::views
