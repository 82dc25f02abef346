#include "common/RecentFiles.h"

#include <QFileInfo>
#include <QSettings>

namespace tempo::views {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

QStringList RecentFiles::files() {
  QStringList existing;
  for (const QString& path : QSettings().value(kKey).toStringList())
    if (QFileInfo(path).isFile()) existing << path;
  return existing;
}

void RecentFiles::add(const QString& path) {
  QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = files();
  list.removeAll(absolute);
  list.prepend(absolute);
  while (list.size() > kMaxFiles) list.removeLast();
  QSettings().setValue(kKey, list);
}

void RecentFiles::clear() { QSettings().remove(kKey); }

}  // namespace tempo::views
