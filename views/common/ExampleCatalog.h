// ExampleCatalog: the example programs shipped in resources/examples.
//
// Finds the examples folder among candidate locations (the source tree the
// studio was built from, an install prefix next to the executable) and
// lists its `.tpo` files, grouped by sub-folder (`small/` holds the
// hand-checkable ones), for the Examples menu and for tests.
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

namespace tempo::views {

struct ExampleGroup {
  QString title;      ///< "" for the top-level examples, else the sub-folder name
  QStringList files;  ///< absolute paths, sorted by name
};

/// The first candidate folder that contains `.tpo` files ("" if none).
QString findExamplesDir(const QStringList& candidates);

/// The default candidates: $TEMPO_EXAMPLES, then `sourceDir`/resources/examples,
/// then ../share/tempo/examples and resources/examples next to the executable.
QStringList defaultExampleDirs(const QString& sourceDir);

/// The examples in `dir` (top level first, then each sub-folder that has some).
std::vector<ExampleGroup> listExamples(const QString& dir);

}  // namespace tempo::views
