// DeviceSupport: whether a program can run on the device a user chose (issue 13).
//
// The CLI's `--device` and `tempo devices` and the studio's device selector
// ask the same question and print the same answer (and the run store names the
// host CPU with hostCpuModel): nothing for the CPU; for a GPU, why not, in words
// a user can act on: this build has no CUDA toolkit, this machine has no
// driver or no such GPU, or (where a GPU is present) that whole programs do
// not run on the GPU yet, only their generated kernels (docs/cuda.md).
#pragma once

#include "device/DeviceSpec.h"

#include <string>
#include <vector>

namespace tempo {

/// The host CPU's model name from /proc/cpuinfo ("unknown cpu" where there is none).
std::string hostCpuModel();

/// "" when programs can run on `device`; else why they cannot.
std::string whyProgramsCannotRunOn(const DeviceSpec& device);

/// The devices to offer in a selector: `cpu`, then each GPU as `cuda:N — NAME`
/// (with `usable` false and `reason` set while the GPU engine is missing), or one
/// `cuda` entry saying why there is no GPU.
struct DeviceChoice {
  DeviceSpec spec;
  std::string label;
  bool usable = false;
  std::string reason;
};
std::vector<DeviceChoice> deviceChoices();

}  // namespace tempo
