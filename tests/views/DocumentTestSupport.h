// DocumentTestSupport: helpers shared by the studio's Qt tests.
//
// The example programs (resources/examples and its sub-folders), and
// waiting for a ProgramDocument to publish the check of its current text.
#pragma once

#include "common/ExampleCatalog.h"
#include "document/ProgramDocument.h"

#include <QSignalSpy>
#include <QStringList>
#include <QTest>

namespace tempo::views::testing {

inline QString examplesDir() { return QStringLiteral(TEMPO_SOURCE_DIR "/resources/examples"); }

inline QStringList allExamples() {
  QStringList files;
  for (const ExampleGroup& group : listExamples(examplesDir())) files << group.files;
  return files;
}

/// Runs `trigger` and waits for the document's next published check.
template <class Trigger>
CheckedProgram waitForCheck(ProgramDocument& doc, Trigger trigger, int timeoutMs = 20000) {
  QSignalSpy spy(&doc, &ProgramDocument::compiled);
  trigger();
  while (spy.isEmpty() || doc.isChecking())
    if (!spy.wait(timeoutMs)) return nullptr;
  return doc.latest();
}

}  // namespace tempo::views::testing
