// RecentFiles: the File → Recent Files list, remembered in QSettings.
//
// Most recent first, at most ten entries, no duplicates; files that no longer
// exist are dropped when the list is read.
#pragma once

#include <QString>
#include <QStringList>

namespace tempo::views {

class RecentFiles {
public:
  static constexpr int kMaxFiles = 10;

  /// The remembered files that still exist, most recent first.
  static QStringList files();
  /// Moves `path` to the front of the list.
  static void add(const QString& path);
  static void clear();
};

}  // namespace tempo::views
