#include "graph/GraphClusterItem.h"

#include <QPainter>

namespace tempo::views {

GraphClusterItem::GraphClusterItem(const LayoutCluster& cluster, const GraphTheme& theme)
    : cluster_(cluster),
      frame_(cluster.rect.x, cluster.rect.y, cluster.rect.width, cluster.rect.height),
      font_(theme.edgeFont),
      ink_(theme.ink) {
  setZValue(-1);
}

void GraphClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  painter->setRenderHint(QPainter::Antialiasing);
  QColor fill = ink_;
  fill.setAlphaF(0.05);
  QPen pen(QColor(0x64, 0x74, 0x8b), 1.2, Qt::DashLine);
  painter->setPen(pen);
  painter->setBrush(fill);
  painter->drawRoundedRect(frame_, 6, 6);
  painter->setFont(font_);
  painter->setPen(ink_);
  painter->drawText(frame_.adjusted(8, 3, -8, 0), Qt::AlignLeft | Qt::AlignTop,
                    QString::fromStdString(cluster_.label));
}

}  // namespace tempo::views
