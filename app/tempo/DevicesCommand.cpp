#include "tempo/DevicesCommand.h"

#include "codegen/Nvrtc.h"
#include "device/DeviceSupport.h"
#include "tempo/Cli.h"

#include <ostream>
#include <thread>

namespace tempo::cli {

CLI::App* addDevicesCommand(CLI::App& app, DevicesOptions&) {
  return app.add_subcommand("devices", "List the devices programs can run on (the CPU, NVIDIA GPUs) and what each can do");
}

int runDevices(const DevicesOptions&, std::ostream& out, std::ostream&) {
  for (const DeviceChoice& choice : deviceChoices()) {
    if (!choice.spec.isCuda()) {
      out << "cpu      " << hostCpuModel() << ", " << std::thread::hardware_concurrency() << " cores: programs run here\n";
    } else {
      const bool gpu = choice.label.rfind("cuda:", 0) == 0;  // a GPU is here; else the reason there is none
      out << (gpu ? choice.label + ": " : std::string("cuda     ")) << choice.reason << "\n";
    }
  }
  out << "kernels  "
      << (nvrtcAvailable() ? "NVRTC " + nvrtcVersion() + " compiles the GPU kernels for sm_90 here "
                                                            "(tempo compile --device cuda --emit cuda|ptx)"
                           : std::string("this build has no CUDA toolkit: no GPU kernels"))
      << "\n";
  return kExitOk;
}

}  // namespace tempo::cli
