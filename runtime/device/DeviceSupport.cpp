// Device availability for the CLI and the studio; see DeviceSupport.h.
#include "device/DeviceSupport.h"

#include "cuda/CudaRuntime.h"

#include <fstream>

namespace tempo {

namespace {

std::string notYet(const cuda::DeviceInfo& gpu) {
  return gpu.name + " (cuda:" + std::to_string(gpu.index) + ", " + gpu.arch() +
         ") is here, but Tempo does not run whole programs on the GPU yet: their generated kernels run and are "
         "checked there (scripts/gpu-check.sh); the GPU engine is the next step of issue 13 (docs/cuda.md)";
}

}  // namespace

std::string hostCpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "unknown cpu";
}

std::string whyProgramsCannotRunOn(const DeviceSpec& device) {
  if (!device.isCuda()) return "";
  cuda::CudaProbe probe = cuda::probeCuda();
  if (!probe.usable) return "no CUDA device: " + probe.reason;
  if (device.index >= static_cast<int>(probe.devices.size()))
    return "no GPU " + device.name() + ": this machine has " + std::to_string(probe.devices.size()) +
           " (cuda:0 to cuda:" + std::to_string(probe.devices.size() - 1) + ")";
  return notYet(probe.devices[device.index]);
}

std::vector<DeviceChoice> deviceChoices() {
  std::vector<DeviceChoice> out{{DeviceSpec{}, "CPU", true, ""}};
  cuda::CudaProbe probe = cuda::probeCuda();
  if (!probe.usable) {
    out.push_back({DeviceSpec{DeviceSpec::Kind::Cuda, 0}, "CUDA (no GPU)", false, "no CUDA device: " + probe.reason});
    return out;
  }
  for (const cuda::DeviceInfo& gpu : probe.devices)
    out.push_back({DeviceSpec{DeviceSpec::Kind::Cuda, gpu.index}, "cuda:" + std::to_string(gpu.index) + " — " + gpu.name,
                   false, notYet(gpu)});
  return out;
}

}  // namespace tempo
