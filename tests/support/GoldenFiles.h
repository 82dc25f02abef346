// GoldenFiles: helpers shared by golden-file tests.
//
// A golden test compares a printed form (an SDG, an AST, rendered
// diagnostics) with a file kept in tests/golden/. Set TEMPO_UPDATE_GOLDENS=1
// to rewrite the expected files from the current output, then review the
// diff by eye before committing.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace tempo::testing {

inline std::filesystem::path sourceDir() { return std::filesystem::path(TEMPO_SOURCE_DIR); }

inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Compares `actual` with the golden file, or rewrites it when TEMPO_UPDATE_GOLDENS=1.
inline void expectGolden(const std::filesystem::path& path, const std::string& actual) {
  const char* update = std::getenv("TEMPO_UPDATE_GOLDENS");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << "missing golden file " << path << " (run with TEMPO_UPDATE_GOLDENS=1)";
  EXPECT_EQ(readFile(path), actual) << "golden mismatch: " << path;
}

/// Files in `dir` with extension `ext` (e.g. ".tpo"), sorted by name.
inline std::vector<std::filesystem::path> filesWithExtension(const std::filesystem::path& dir, const std::string& ext) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ext) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// The example programs: resources/examples/*.tpo and resources/examples/small/*.tpo.
inline std::vector<std::filesystem::path> examplePrograms() {
  auto dir = sourceDir() / "resources" / "examples";
  auto out = filesWithExtension(dir, ".tpo");
  auto small = filesWithExtension(dir / "small", ".tpo");
  out.insert(out.end(), small.begin(), small.end());
  return out;
}

/// The program in `path` with every load() replaced by generated data of the
/// same declared type (`normal(seed=1)`; zeros for integers), so every bound can change.
inline std::string withGeneratedData(const std::filesystem::path& path) {
  // load("x.npy") and load("m.safetensors", tensor="..."); an integer source (token ids)
  // gets zeros, which are valid ids for any gather.
  static const std::regex load(R"(load\("[^"]*"(,\s*tensor="[^"]*")?\))"), integer(R"(:\s*i(32|64)\b)");
  std::istringstream in(readFile(path));
  std::string out, line;
  while (std::getline(in, line))
    out += std::regex_replace(line, load, std::regex_search(line, integer) ? "zeros()" : "normal(seed=1)") + "\n";
  return out;
}

}  // namespace tempo::testing
