// CodeEditor and ProblemsPanel: highlighting, squiggles at exact ranges,
// problem entries that select their range, go to declaration, cursor lines.
#include "DocumentTestSupport.h"

#include "editor/CodeEditor.h"
#include "editor/DeclarationFinder.h"
#include "editor/ProblemsPanel.h"
#include "editor/TpoLexer.h"

#include <QFile>

using namespace tempo;
using namespace tempo::views;
using namespace tempo::views::testing;

namespace {
QString readExample(const QString& name) {
  QFile f(examplesDir() + QLatin1Char('/') + name);
  f.open(QIODevice::ReadOnly);
  return QString::fromUtf8(f.readAll());
}

/// rnn.tpo with the recurrence reading h[b, t+1] instead of h[b, t-1]: a read outside the domain.
QString seededError(int& line) {
  QString text = readExample(QStringLiteral("rnn.tpo"));
  QStringList lines = text.split(QLatin1Char('\n'));
  for (int i = 0; i < lines.size(); ++i)
    if (lines[i].contains(QStringLiteral("h[b, t-1]"))) {
      lines[i].replace(QStringLiteral("h[b, t-1]"), QStringLiteral("h[b, t+1]"));
      line = i + 1;
    }
  return lines.join(QLatin1Char('\n'));
}
}  // namespace

class EditorTest : public QObject {
  Q_OBJECT
private Q_SLOTS:
  void seededErrorShowsSquiggleAndProblem() {
    int line = 0;
    QString text = seededError(line);
    QVERIFY(line > 0);
    ProgramDocument doc;
    CodeEditor editor;
    ProblemsPanel problems;
    editor.setText(text);
    CheckedProgram result = waitForCheck(doc, [&] { doc.setText(text); doc.checkNow(); });
    QVERIFY(result && result->diags.hasErrors());
    editor.setDiagnostics(result->diags.items());
    problems.setDiagnostics(result->diags);

    const Diagnostic d = result->diags.sorted().front();
    QCOMPARE(d.severity, Severity::Error);
    QCOMPARE(d.range.begin.line, line);
    int begin = editor.positionOf(d.range.begin), end = editor.positionOf(d.range.end);
    QVERIFY(end > begin);
    int errorIndicator = CodeEditor::indicatorFor(Severity::Error);
    for (int p = begin; p < end; ++p) QVERIFY(editor.hasIndicatorAt(errorIndicator, p));
    QVERIFY(!editor.hasIndicatorAt(errorIndicator, begin - 1));
    QVERIFY(!editor.hasIndicatorAt(errorIndicator, end));
    QVERIFY(editor.markersAtLine(line - 1) != 0);
    QVERIFY(!editor.diagnosticsAt(begin).empty());

    QVERIFY(problems.problemCount() >= 1);
    QTreeWidgetItem* item = problems.topLevelItem(0);
    QCOMPARE(item->text(0), QStringLiteral("error"));
    QVERIFY(item->text(1).startsWith(QString::number(line) + QLatin1Char(':')));
    QCOMPARE(item->text(2), QString::fromStdString(d.message));

    QSignalSpy activated(&problems, &ProblemsPanel::problemActivated);
    connect(&problems, &ProblemsPanel::problemActivated, &editor, &CodeEditor::selectRange);
    problems.activateProblem(0);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated[0][0].toInt(), line);
    QCOMPARE(editor.SendScintilla(QsciScintilla::SCI_GETSELECTIONSTART), static_cast<long>(begin));
    QCOMPARE(editor.SendScintilla(QsciScintilla::SCI_GETSELECTIONEND), static_cast<long>(end));
  }

  void cleanProgramHasNoProblemsRow() {
    ProblemsPanel problems;
    problems.setDiagnostics({});
    QCOMPARE(problems.problemCount(), 0);
    QCOMPARE(problems.topLevelItem(0)->text(2), QStringLiteral("No problems"));
  }

  void goToDeclaration() {
    QString text = readExample(QStringLiteral("rnn.tpo"));
    CodeEditor editor;
    editor.setText(text);
    // The `U` in `h[b, t-1] @ U` jumps to `param U`.
    int useLine = -1;
    QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
      if (lines[i].contains(QStringLiteral("@ U"))) useLine = i;
    QVERIFY(useLine >= 0);
    editor.setCursorPosition(useLine, lines[useLine].indexOf(QStringLiteral("@ U")) + 2);
    QSignalSpy status(&editor, &CodeEditor::statusMessage);
    QVERIFY(editor.goToDeclaration());
    QCOMPARE(editor.selectedText(), QStringLiteral("U"));
    int line = 0, index = 0;
    editor.getCursorPosition(&line, &index);
    QVERIFY(lines[line].startsWith(QStringLiteral("param U")));

    std::optional<SourceRange> bound = findDeclaration(text.toStdString(), "T");
    QVERIFY(bound);
    QVERIFY(lines[bound->begin.line - 1].startsWith(QStringLiteral("dim t < T")));
    QVERIFY(findDeclaration(text.toStdString(), "y"));
    QVERIFY(!findDeclaration(text.toStdString(), "tanh"));
  }

  void ctrlClickGoesToDeclaration() {
    QString text = readExample(QStringLiteral("rnn.tpo"));
    CodeEditor editor;
    editor.resize(900, 500);
    editor.setText(text);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    int useLine = text.split(QLatin1Char('\n')).indexOf(QStringLiteral("s = h[b, 0:T]"));
    QVERIFY(useLine >= 0);
    long pos = editor.positionFromLineIndex(useLine, 4) + 1;  // inside the `h` of h[b, 0:T]
    QPoint at(static_cast<int>(editor.SendScintilla(QsciScintilla::SCI_POINTXFROMPOSITION, 0UL, pos)),
              static_cast<int>(editor.SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, pos)) + 4);
    QTest::mouseClick(editor.viewport(), Qt::LeftButton, Qt::ControlModifier, at);
    QCOMPARE(editor.selectedText(), QStringLiteral("h"));
    int line = 0, index = 0;
    editor.getCursorPosition(&line, &index);
    QVERIFY(editor.text(line).startsWith(QStringLiteral("h : f32[H] over (b, t)")));
  }

  void cursorLineAndSelectRange() {
    CodeEditor editor;
    editor.setText(QStringLiteral("dim t < T\nset T = 3\nout y = 1.0\n"));
    editor.show();  // Scintilla reports cursor moves when it updates its UI (on paint)
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    QSignalSpy lines(&editor, &CodeEditor::cursorLineChanged);
    editor.setCursorPosition(2, 0);
    QTRY_COMPARE(lines.size(), 1);
    QCOMPARE(lines[0][0].toInt(), 3);
    editor.setCursorPosition(2, 3);
    QTest::qWait(50);
    QCOMPARE(lines.size(), 1);
    editor.selectRange(3, 5, 3, 6);
    QCOMPARE(editor.selectedText(), QStringLiteral("y"));
    QCOMPARE(editor.cursorLine(), 3);
  }

  void highlighterUsesTheEngineLexer() {
    CodeEditor editor;
    editor.setText(QStringLiteral("dim t < T  # a comment\nx : f32[] over (t)\nout y = tanh(x) + 1.5\n"));
    editor.SendScintilla(QsciScintilla::SCI_COLOURISE, 0, -1);
    auto styleAt = [&](int line, int col) {
      return static_cast<int>(editor.SendScintilla(QsciScintilla::SCI_GETSTYLEAT, editor.positionFromLineIndex(line, col)));
    };
    QCOMPARE(styleAt(0, 0), int(TpoLexer::Keyword));
    QCOMPARE(styleAt(0, 12), int(TpoLexer::Comment));
    QCOMPARE(styleAt(1, 4), int(TpoLexer::DTypeName));
    QCOMPARE(styleAt(1, 10), int(TpoLexer::Keyword));
    QCOMPARE(styleAt(2, 8), int(TpoLexer::Builtin));
    QCOMPARE(styleAt(2, 18), int(TpoLexer::Number));
    QCOMPARE(styleAt(2, 4), int(TpoLexer::Default));
  }
};

QTEST_MAIN(EditorTest)
#include "EditorTest.moc"
