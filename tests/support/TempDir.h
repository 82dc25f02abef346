// TempDir: a fresh empty directory for one test, removed with everything in it on destruction.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace tempo::testing {

class TempDir {
public:
  explicit TempDir(const std::string& tag) {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("tempo_test_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string str(const std::string& child = "") const { return (child.empty() ? path_ : path_ / child).string(); }

private:
  std::filesystem::path path_;
};

}  // namespace tempo::testing
