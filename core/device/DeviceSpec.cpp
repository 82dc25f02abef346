// Device names; see DeviceSpec.h.
#include "device/DeviceSpec.h"

#include <algorithm>
#include <cctype>

namespace tempo {

std::string DeviceSpec::name() const { return isCuda() ? "cuda:" + std::to_string(index) : "cpu"; }

std::optional<DeviceSpec> parseDeviceSpec(const std::string& text, std::string& error) {
  if (text == "cpu") return DeviceSpec{};
  if (text == "cuda") return DeviceSpec{DeviceSpec::Kind::Cuda, 0};
  const std::string prefix = "cuda:";
  if (text.rfind(prefix, 0) == 0) {
    std::string digits = text.substr(prefix.size());
    if (!digits.empty() && digits.size() <= 4 &&
        std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
      return DeviceSpec{DeviceSpec::Kind::Cuda, std::stoi(digits)};
  }
  error = "unknown device '" + text + "': use cpu, cuda or cuda:N (N the GPU's number, from 0)";
  return std::nullopt;
}

}  // namespace tempo
