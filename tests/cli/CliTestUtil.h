// CliTestUtil: driving `tempo` in-process for the CLI tests.
//
// `tempo({"run", file})` calls runCli with a captured stdout and stderr; the
// path helpers find the example programs and their NumPy goldens under
// TEMPO_SOURCE_DIR, and TempDir gives each test a fresh directory that is
// removed afterwards.
#pragma once

#include "support/TempDir.h"
#include "tempo/Cli.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tempo::cli::test {

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
};

inline CliResult tempo(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"tempo"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  CliResult r;
  r.code = runCli(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

inline std::filesystem::path sourceDir() { return TEMPO_SOURCE_DIR; }
inline std::filesystem::path examplesDir() { return sourceDir() / "resources" / "examples"; }
inline std::string example(const std::string& relative) { return (examplesDir() / relative).string(); }

/// The whole contents of a (binary) file; "" if it cannot be read.
inline std::string readBinary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Every example program (resources/examples/*.tpo and small/*.tpo), sorted.
inline std::vector<std::filesystem::path> allExamples() {
  std::vector<std::filesystem::path> files;
  for (const auto& dir : {examplesDir(), examplesDir() / "small"})
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().extension() == ".tpo") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// tests/golden/examples/NAME (or small/NAME) for an example program.
inline std::filesystem::path goldenDirFor(const std::filesystem::path& program) {
  std::filesystem::path rel = std::filesystem::relative(program, examplesDir());
  return sourceDir() / "tests" / "golden" / "examples" / rel.replace_extension("");
}

/// A fresh empty directory, removed with everything in it on destruction.
using TempDir = testing::TempDir;

}  // namespace tempo::cli::test

namespace tempo::cli::test {

/// Writes `text` to `path` (for ad-hoc programs in a TempDir).
inline void writeFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace tempo::cli::test
