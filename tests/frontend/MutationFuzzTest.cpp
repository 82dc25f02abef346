// Mutation fuzz test of the front end: thousands of random mutations of the
// example programs (fixed seeds) must each end in a graph or in diagnostics
// with a source location — never a crash, a hang, an escaped exception or an
// "internal error" (which would mean the checker let through a graph that
// violates the SDG's invariants).
#include "frontend/Frontend.h"
#include "support/GoldenFiles.h"

#include <random>

namespace tempo {
namespace {

const std::vector<std::string> kFragments = {
    "t", "t-1", "t+1", "T", "T-1", "0", "1", "-1", "0:t+1", "t:T", "b", "l", "(", ")", "[", "]", ",", ":",
    "=", "@", "*", "+", "-", "/", "//", "%", "max(0, t-2)", "min(t, 3)", "sum(", "mean(", "softmax(", "dim=0",
    "dim=-1", "f32", "i32", "bool", "over", "dim", "const", "out", "#", "\n", " ", "x", "h", "1e-3", "0.5",
    "\"", "reshape(", "(2, 8)", "where(", "<", ">=", "==", "load(\"nope.npy\")", "zeros()", "cast(",
    " and ", " or ", "not ", ";", "; 0:2", "[; 1]", "argmax(", "keepdim=true", "gather(", "i64", " until ", " until done",
};

/// One random edit of `text`: delete a span, insert a fragment, replace a
/// token-sized span, duplicate a line, or swap two lines.
std::string mutate(const std::string& text, std::mt19937& rng) {
  if (text.empty()) return kFragments[rng() % kFragments.size()];
  std::string s = text;
  size_t pos = rng() % s.size();
  switch (rng() % 5) {
    case 0: s.erase(pos, 1 + rng() % 6); break;
    case 1: s.insert(pos, kFragments[rng() % kFragments.size()]); break;
    case 2: s.replace(pos, 1 + rng() % 3, kFragments[rng() % kFragments.size()]); break;
    case 3: {
      size_t begin = s.rfind('\n', pos);
      begin = begin == std::string::npos ? 0 : begin + 1;
      size_t end = s.find('\n', pos);
      std::string line = s.substr(begin, end == std::string::npos ? std::string::npos : end - begin + 1);
      s.insert(begin, line);
      break;
    }
    default: {
      std::vector<std::string> lines;
      size_t start = 0;
      while (start < s.size()) {
        size_t nl = s.find('\n', start);
        lines.push_back(s.substr(start, nl == std::string::npos ? std::string::npos : nl - start + 1));
        if (nl == std::string::npos) break;
        start = nl + 1;
      }
      if (lines.size() > 1) std::swap(lines[rng() % lines.size()], lines[rng() % lines.size()]);
      s.clear();
      for (const std::string& l : lines) s += l;
    }
  }
  return s;
}

TEST(FrontendMutationFuzz, EveryMutantEndsInAGraphOrDiagnostics) {
  auto programs = testing::examplePrograms();
  ASSERT_FALSE(programs.empty());
  int compiled = 0, rejected = 0;
  const int kPerProgram = 300;
  for (size_t p = 0; p < programs.size(); ++p) {
    std::string original = testing::readFile(programs[p]);
    std::mt19937 rng(1234 + static_cast<unsigned>(p));
    for (int i = 0; i < kPerProgram; ++i) {
      std::string mutant = original;
      int edits = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < edits; ++k) mutant = mutate(mutant, rng);
      FrontendResult r = compileSource(mutant, "mutant.tpo", programs[p].parent_path().string());
      if (r.ok()) {
        ++compiled;
        continue;
      }
      ++rejected;
      for (const Diagnostic& d : r.diags.items()) {
        ASSERT_EQ(d.message.find("internal error"), std::string::npos)
            << programs[p].filename() << " mutant " << i << ":\n" << mutant << "\n" << r.renderedDiagnostics();
        if (d.severity == Severity::Error)
          EXPECT_TRUE(d.range.valid()) << "error without a location: " << d.message << "\n" << mutant;
      }
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(compiled, 0);
  std::cout << "mutants: " << compiled << " compiled, " << rejected << " rejected\n";
}

}  // namespace
}  // namespace tempo
