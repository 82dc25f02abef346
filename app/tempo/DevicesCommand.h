// DevicesCommand: `tempo devices`.
//
// Lists where programs can run and how far each device goes: the CPU (its
// model and cores), then each GPU with its name, or one line saying why there
// is none (no CUDA toolkit in this build, no driver, no device), and whether
// the GPU's kernels compile here (NVRTC's version, for sm_90). The answers are
// the ones `tempo run --device` and the studio's device selector give
// (runtime/device/DeviceSupport). Always exits 0: having no GPU is not an error.
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>

namespace tempo::cli {

struct DevicesOptions {};

/// Registers the `devices` subcommand on `app`.
CLI::App* addDevicesCommand(CLI::App& app, DevicesOptions& options);

/// Runs the command; returns the exit code (see Cli.h).
int runDevices(const DevicesOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
