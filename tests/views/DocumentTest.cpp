// ProgramDocument: every example checks clean in the background; stale
// checks never reach the views; the data-file check runs like `tempo check`.
#include "DocumentTestSupport.h"

#include <QTemporaryDir>

using namespace tempo::views;
using namespace tempo::views::testing;

class DocumentTest : public QObject {
  Q_OBJECT
private Q_SLOTS:
  void everyExampleChecksClean() {
    QStringList files = allExamples();
    QVERIFY(files.size() >= 11);
    for (const QString& path : files) {
      ProgramDocument doc;
      QString error;
      CheckedProgram result = waitForCheck(doc, [&] { QVERIFY(doc.load(path, error)); });
      QVERIFY2(result, qPrintable(path));
      QVERIFY2(result->diags.empty(), qPrintable(path + ":\n" + QString::fromStdString(result->renderedDiagnostics())));
      QVERIFY(!result->graph.nodes().empty());
      QVERIFY(!doc.isModified());
    }
  }

  void onlyTheNewestTextIsPublished() {
    ProgramDocument doc;
    doc.setDebounceMs(0);
    QSignalSpy spy(&doc, &ProgramDocument::compiled);
    QString last;
    for (int i = 1; i <= 20; ++i) {
      last = QStringLiteral("dim t < T\nset T = %1\ninput x : f32[] over (t) = zeros()\nout y = x\n").arg(i);
      doc.setText(last);
      if (i % 5 == 0) doc.checkNow();
    }
    CheckedProgram result = waitForCheck(doc, [] {});
    QVERIFY(result);
    QCOMPARE(QString::fromStdString(result->source), last);
    for (const QList<QVariant>& args : spy)
      QVERIFY(args[0].value<CheckedProgram>() != nullptr);
    QCOMPARE(result->graph.boundDefaults.at("T"), 20);
    QVERIFY(doc.isModified());
  }

  void reportsErrorsAndMissingData() {
    ProgramDocument doc;
    CheckedProgram bad = waitForCheck(doc, [&] { doc.setText(QStringLiteral("out y = nope\n")); doc.checkNow(); });
    QVERIFY(bad && !bad->ok());
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("p.tpo"));
    doc.setText(QStringLiteral("input x : f32[3] = load(\"missing.npy\")\nout y = x\n"));
    QString error;
    CheckedProgram missing = waitForCheck(doc, [&] { QVERIFY(doc.saveAs(path, error)); });
    QVERIFY(missing && missing->diags.hasErrors());
    QVERIFY(QString::fromStdString(missing->diags.items().front().message).contains(QStringLiteral("missing.npy")));
    QCOMPARE(doc.filePath(), QFileInfo(path).absoluteFilePath());
    QVERIFY(!doc.isModified());
  }

  void loadingAFolderFails() {
    ProgramDocument doc;
    QString error;
    QVERIFY(!doc.load(examplesDir(), error));
    QVERIFY(error.contains(QStringLiteral("folder")));
  }
};

QTEST_MAIN(DocumentTest)
#include "DocumentTest.moc"
