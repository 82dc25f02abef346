#include "common/ExampleCatalog.h"

#include <QCoreApplication>
#include <QDir>

namespace tempo::views {

namespace {
QStringList tpoFiles(const QDir& dir) {
  QStringList files;
  for (const QFileInfo& info : dir.entryInfoList({QStringLiteral("*.tpo")}, QDir::Files, QDir::Name))
    files << info.absoluteFilePath();
  return files;
}
}  // namespace

QString findExamplesDir(const QStringList& candidates) {
  for (const QString& candidate : candidates)
    if (!candidate.isEmpty() && !tpoFiles(QDir(candidate)).isEmpty()) return QDir(candidate).absolutePath();
  return {};
}

QStringList defaultExampleDirs(const QString& sourceDir) {
  QStringList dirs;
  dirs << qEnvironmentVariable("TEMPO_EXAMPLES");
  if (!sourceDir.isEmpty()) dirs << sourceDir + QStringLiteral("/resources/examples");
  QString exe = QCoreApplication::applicationDirPath();
  dirs << exe + QStringLiteral("/../share/tempo/examples") << exe + QStringLiteral("/resources/examples");
  return dirs;
}

std::vector<ExampleGroup> listExamples(const QString& dir) {
  std::vector<ExampleGroup> groups;
  if (dir.isEmpty()) return groups;
  QDir root(dir);
  groups.push_back({QString(), tpoFiles(root)});
  for (const QString& sub : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
    QStringList files = tpoFiles(QDir(root.filePath(sub)));
    if (!files.isEmpty()) groups.push_back({sub, files});
  }
  return groups;
}

}  // namespace tempo::views
