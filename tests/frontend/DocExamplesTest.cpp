// DocExamples: every ```tpo block of docs/language.md is a complete program
// that compiles without errors or warnings, so the language reference cannot
// drift from the front end. Blocks that are intentionally invalid or partial
// are fenced as ```text and are not compiled. load() paths resolve against
// resources/examples (the front end does not open the files).
#include "frontend/Frontend.h"
#include "support/GoldenFiles.h"

#include <sstream>
#include <string>
#include <vector>

namespace tempo {
namespace {

struct DocBlock {
  int line = 0;  ///< 1-based line of the opening fence in the document
  std::string text;
};

/// The contents of every block fenced by a line "```tpo" and a line "```".
std::vector<DocBlock> tpoBlocks(const std::string& doc, std::string& error) {
  std::vector<DocBlock> blocks;
  std::istringstream in(doc);
  std::string line;
  int lineNo = 0;
  bool inTpo = false, inOther = false;
  DocBlock cur;
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    bool fence = line.rfind("```", 0) == 0;
    if (inTpo) {
      if (fence) {
        if (line != "```") error += "line " + std::to_string(lineNo) + ": a ```tpo block must close with a bare ```\n";
        blocks.push_back(cur);
        inTpo = false;
      } else {
        cur.text += line + "\n";
      }
    } else if (inOther) {
      if (line == "```") inOther = false;
    } else if (fence) {
      if (line == "```tpo") {
        inTpo = true;
        cur = DocBlock{lineNo, ""};
      } else if (line == "```") {
        error += "line " + std::to_string(lineNo) + ": a code block without a language (use ```tpo or ```text)\n";
        inOther = true;
      } else {
        inOther = true;
      }
    }
  }
  if (inTpo || inOther) error += "the document ends inside a code block\n";
  return blocks;
}

std::string languageDoc() { return testing::readFile(testing::sourceDir() / "docs" / "language.md"); }

TEST(DocExamples, DocumentHasWellFormedTpoBlocks) {
  std::string doc = languageDoc();
  ASSERT_FALSE(doc.empty()) << "docs/language.md is missing or empty";
  std::string error;
  std::vector<DocBlock> blocks = tpoBlocks(doc, error);
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_GE(blocks.size(), 12u) << "the reference should keep its runnable examples";
}

TEST(DocExamples, EveryTpoBlockCompilesCleanly) {
  std::string error;
  std::vector<DocBlock> blocks = tpoBlocks(languageDoc(), error);
  std::string baseDir = (testing::sourceDir() / "resources" / "examples").string();
  for (const DocBlock& b : blocks) {
    std::string name = "language.md:" + std::to_string(b.line);
    SCOPED_TRACE(name);
    FrontendResult r = compileSource(b.text, name, baseDir);
    EXPECT_TRUE(r.ok()) << "the ```tpo block at docs/language.md line " << b.line << " does not compile:\n"
                        << r.renderedDiagnostics() << "--- block:\n"
                        << b.text;
    EXPECT_TRUE(r.diags.empty()) << "the ```tpo block at docs/language.md line " << b.line
                                 << " has diagnostics:\n"
                                 << r.renderedDiagnostics();
  }
}

}  // namespace
}  // namespace tempo
