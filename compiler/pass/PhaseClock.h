// PhaseClock: wall-clock seconds of the named phases of a compilation.
//
// `lap("isl schedule")` records the time since the previous lap (or since the
// clock was made) under that name, so a compile step reads as a list of
// phases in the order they ran — what `tempo_bench` prints as compile_phases
// and what a user reads to see where compile time goes (the passes, isl's
// scheduler per proximity variant, the verification, the AST, the storage
// plan). A name used twice adds up.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace tempo {

using PhaseSeconds = std::vector<std::pair<std::string, double>>;

class PhaseClock {
public:
  void lap(const std::string& name) {
    auto now = std::chrono::steady_clock::now();
    double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    for (auto& [n, s] : phases_)
      if (n == name) {
        s += seconds;
        return;
      }
    phases_.emplace_back(name, seconds);
  }
  const PhaseSeconds& phases() const { return phases_; }
  /// Appends `more` (a nested step's phases) and restarts the lap there.
  void add(const PhaseSeconds& more) {
    for (const auto& [n, s] : more) phases_.emplace_back(n, s);
    last_ = std::chrono::steady_clock::now();
  }

private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  PhaseSeconds phases_;
};

}  // namespace tempo
