// DeviceSpec: which device a program is compiled for and runs on (issue 13).
//
// Users name a device as `cpu`, `cuda` (the first GPU) or `cuda:N`, on the
// command line (`--device`) and in the studio's device selector. The spec is
// only the name; what a device can do (is a GPU present, its memory, its
// streams) is runtime/cuda's business. Bad text gets a message that lists the
// accepted forms.
#pragma once

#include <optional>
#include <string>

namespace tempo {

struct DeviceSpec {
  enum class Kind { Cpu, Cuda };
  Kind kind = Kind::Cpu;
  int index = 0;  ///< Cuda: the GPU's ordinal

  bool isCuda() const { return kind == Kind::Cuda; }
  /// `cpu` or `cuda:N`.
  std::string name() const;
  bool operator==(const DeviceSpec&) const = default;
};

/// Parses `cpu`, `cuda` or `cuda:N`; nullopt with `error` set otherwise.
std::optional<DeviceSpec> parseDeviceSpec(const std::string& text, std::string& error);

}  // namespace tempo
