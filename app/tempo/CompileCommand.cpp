#include "tempo/CompileCommand.h"

#include "codegen/CudaKernels.h"
#include "codegen/Nvrtc.h"
#include "device/DeviceSpec.h"
#include "graph/GraphPrinter.h"
#include "lowering/Lowering.h"
#include "pass/PassRegistry.h"
#include "tempo/Cli.h"
#include "tempo/CommandSupport.h"
#include "tempo/RunCommand.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace tempo::cli {

CLI::App* addCompileCommand(CLI::App& app, CompileOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "compile", "Run the compiler's pass pipeline and lowering stages and show what each one does");
  cmd->add_option("FILE", options.file, "The .tpo program (not needed with --passes)");
  cmd->add_flag("--passes", options.listPasses, "List the passes of the pipeline with their descriptions");
  cmd->add_option("--print-after", options.printAfter,
                  "Print the change and the SDG after this pass, or the program after this lowering stage "
                  "(schedule, storage-plan, memory-placement, kernel-formation, llvm-ir, machine-code), or 'all'");
  cmd->add_option("--stop-after", options.stopAfter, "Stop the pipeline after this pass");
  cmd->add_option("--block-size", options.blockSize, "Static tiling's block size (default: the cost model's)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--disable", options.disabled, "Skip this pass (may be repeated)")->take_all();
  cmd->add_option("--set", options.sets,
                  "Size the cost models (static tiling's block size) for this bound, e.g. --set T=1024, as "
                  "`tempo run --set` does; the program stays parametric (repeatable)")
      ->type_name("NAME=INT");
  cmd->add_option("--device", options.device, "The device to compile for: cpu (default), cuda or cuda:N")
      ->type_name("cpu|cuda[:N]");
  cmd->add_option("--emit", options.emit,
                  "Print the generated code: the kernel table, LLVM IR after -O3 or assembly (cpu), CUDA C++ or "
                  "PTX (cuda)")
      ->check(CLI::IsMember({"kernels", "llvm", "asm", "cuda", "ptx"}));
  cmd->add_option("--kernel", options.kernel, "With --emit: only this kernel (its name, e.g. k7_h, or its node, %7)");
  return cmd;
}

namespace {

std::string milliseconds(std::chrono::nanoseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(d.count()) / 1e6);
  return buf;
}

std::string padded(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

void listPasses(const Pipeline& pipeline, std::ostream& out) {
  int k = 1;
  for (const auto& pass : pipeline.passes()) {
    out << k++ << ". " << pass->name() << "\n   " << pass->description() << "\n";
  }
  out << "then the lowering stages:\n";
  for (const LoweringStage& stage : loweringStages())
    out << k++ << ". " << stage.name << "\n   " << stage.description << "\n";
}

void printStage(const LoweringSnapshot& snap, size_t position, size_t total, std::ostream& out) {
  out << "=== after " << snap.stage << " (lowering " << position << "/" << total << ") ===\n"
      << snap.description << "\n"
      << snap.text << "\n";
}

void printChange(const PassSnapshot& snap, std::ostream& out) {
  out << "change: " << (snap.changed ? snap.diff.summary() : "no change") << "\n";
  for (const std::string& note : snap.change.notes) out << "  note: " << note << "\n";
}

void printAfter(const PassSnapshot& snap, size_t position, size_t total, std::ostream& out) {
  out << "=== after " << snap.passName << " (" << position << "/" << total << ")"
      << (snap.changed ? "" : " [no change]") << " ===\n";
  out << snap.description << "\n";
  printChange(snap, out);
  out << printGraph(snap.graph) << "\n";
}

void printSummary(const Pipeline& pipeline, const std::vector<PassSnapshot>& snaps,
                  const std::vector<LoweringSnapshot>& stages, std::ostream& out) {
  const size_t width = 36;
  out << padded("pass", width) << padded("changed nodes", 15) << "time\n";
  size_t next = 0;
  for (const std::string& name : pipeline.passNames()) {
    if (next < snaps.size() && snaps[next].passName == name) {
      const PassSnapshot& s = snaps[next++];
      size_t count = s.diff.added.size() + s.diff.removed.size() + s.diff.rewritten.size();
      out << padded(name, width) << padded(s.changed ? std::to_string(count) : "no change", 15)
          << milliseconds(s.duration) << "\n";
    } else {
      out << padded(name, width) << (pipeline.isDisabled(name) ? "disabled" : "not run") << "\n";
    }
  }
  for (const LoweringStage& stage : loweringStages()) {
    auto s = std::find_if(stages.begin(), stages.end(), [&](const LoweringSnapshot& x) { return x.stage == stage.name; });
    out << padded(stage.name, width) << padded("(lowering)", 15)
        << (s == stages.end() ? std::string("not run") : milliseconds(std::chrono::nanoseconds(
                                                             static_cast<int64_t>(s->seconds * 1e9))))
        << "\n";
  }
  out << "\n";
}

/// `--emit cuda|ptx`: the CUDA C++ (or NVRTC's PTX for sm_90) of the whole program or of one kernel.
int emitCuda(const CompileOptions& options, const LoweredProgram& lowered, std::ostream& out, std::ostream& err) {
  const CudaSource source = emitCudaKernels(lowered.kernels);
  std::string text = source.text;
  std::string shares;
  if (!options.kernel.empty()) {
    const Kernel* k = lowered.kernels.find(options.kernel);  // found and generated: emitCode checked
    const std::string& function = source.function.at(k->name);
    if (function != k->name) shares = "// " + k->name + " shares the code of " + function + "\n";
    text = cudaDevicePrelude() + "\n" + source.functionText.at(function);
  }
  if (source.functions.empty()) {
    out << "(no generated kernels: every node runs a library or runtime kernel)\n";
    return kExitOk;
  }
  if (options.emit == "cuda") {
    out << shares << text;
    return kExitOk;
  }
  try {
    NvrtcOptions nvrtc;
    nvrtc.cubin = false;
    NvrtcOutput compiled = compileCuda(text, options.file + ".cu", nvrtc);
    out << shares << compiled.ptx;
  } catch (const std::exception& e) {
    err << "tempo compile: " << e.what() << "\n";
    return kExitRuntime;
  }
  return kExitOk;
}

/// `--emit`: the kernel table, IR or assembly, whole or of one kernel.
int emitCode(const CompileOptions& options, const Graph& graph, const LoweredProgram& lowered, std::ostream& out,
             std::ostream& err) {
  const NativeModule& native = *lowered.native;
  if (options.kernel.empty() && (options.emit == "cuda" || options.emit == "ptx")) return emitCuda(options, lowered, out, err);
  if (options.kernel.empty()) {
    if (options.emit == "kernels") out << printKernelProgram(graph, lowered.kernels);
    else if (native.kernels().empty()) out << "(no generated kernels: every node runs a library or runtime kernel)\n";
    else out << (options.emit == "llvm" ? native.ir() : native.assembly());
    return kExitOk;
  }
  const Kernel* k = lowered.kernels.find(options.kernel);
  if (!k) {
    err << "tempo compile: no kernel '" << options.kernel << "'; the kernels are:";
    for (const Kernel& each : lowered.kernels.kernels) err << " " << each.name;
    err << "\n";
    return kExitUsage;
  }
  if (options.emit == "cuda" || options.emit == "ptx") {
    if (k->kind == KernelKind::Generated) return emitCuda(options, lowered, out, err);
  }
  if (options.emit == "kernels" || k->kind != KernelKind::Generated) {
    out << printKernel(graph, *k);
    if (options.emit != "kernels") out << "(" << k->name << " is a " << kernelKindName(k->kind) << " kernel: no generated code)\n";
    return kExitOk;
  }
  out << (options.emit == "llvm" ? native.kernelIr(k->name) : native.kernelAssembly(k->name));
  return kExitOk;
}

}  // namespace

int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err) {
  Pipeline pipeline = defaultPipeline();
  try {
    for (const std::string& name : options.disabled) pipeline.disable(name);
    if (!options.stopAfter.empty()) pipeline.stopAfter(options.stopAfter);
    if (!options.printAfter.empty() && options.printAfter != "all" && !isLoweringStage(options.printAfter))
      pipeline.pass(options.printAfter);
  } catch (const UnknownPassError& e) {
    err << "tempo compile: " << e.what() << "\n";
    return kExitUsage;
  }
  if (options.listPasses) {
    listPasses(pipeline, out);
    return kExitOk;
  }
  if (options.file.empty()) {
    err << "tempo compile: a FILE is required (or --passes)\n";
    return kExitUsage;
  }
  if (!options.kernel.empty() && options.emit.empty()) {
    err << "tempo compile: --kernel needs --emit kernels|llvm|asm|cuda|ptx\n";
    return kExitUsage;
  }
  std::optional<DeviceSpec> device = deviceOption(options.device, "compile", err);
  if (!device) return kExitUsage;
  const bool gpuCode = options.emit == "cuda" || options.emit == "ptx";
  if (gpuCode && !device->isCuda()) {
    err << "tempo compile: --emit " << options.emit << " is the GPU's code: add --device cuda\n";
    return kExitUsage;
  }
  if ((options.emit == "llvm" || options.emit == "asm") && device->isCuda()) {
    err << "tempo compile: --emit " << options.emit << " is the CPU's code: with --device cuda, use --emit cuda or ptx\n";
    return kExitUsage;
  }
  if (!options.emit.empty() && (!options.printAfter.empty() || !options.stopAfter.empty())) {
    err << "tempo compile: --emit prints the code of the whole pipeline: no --print-after or --stop-after with it\n";
    return kExitUsage;
  }
  FrontendResult program = compileReporting(options.file, err);
  if (!program.ok()) return kExitProgramErrors;
  Graph graph = program.graph;
  std::string setError;
  std::optional<SymbolEnv> hints = boundsFromSets(graph, options.sets, setError);
  if (!hints) {
    err << "tempo compile: " << setError << "\n";
    return kExitUsage;
  }
  std::vector<PassSnapshot> snaps;
  try {
    PassContext context = passContextFor(options.blockSize);
    context.boundHints = *hints;  // what `tempo run --set` would size the cost models for
    snaps = pipeline.run(graph, context);
  } catch (const PassError& e) {
    err << "tempo compile: internal compiler error in " << e.what() << "\n";
    return kExitRuntime;
  }
  // The lowering stages run after the whole pipeline only (not after --stop-after).
  LoweredProgram lowered;
  const bool stageAsked = options.printAfter == "all" || isLoweringStage(options.printAfter) || !options.emit.empty();
  if (options.stopAfter.empty() && (options.printAfter.empty() || stageAsked)) {
    try {
      IslContext isl;
      lowered = lowerProgram(graph, isl, LoweringOptions{{}, stageAsked});
    } catch (const std::exception& e) {
      err << "tempo compile: internal compiler error in lowering: " << e.what() << "\n";
      return kExitRuntime;
    }
  }
  if (!options.emit.empty()) {
    int code = emitCode(options, graph, lowered, out, err);
    out << std::flush;
    return code;
  }
  const std::vector<LoweringSnapshot>& stages = lowered.snapshots;
  if (options.printAfter.empty()) {
    printSummary(pipeline, snaps, stages, out);
    out << printGraph(graph);
  } else {
    bool printed = false;
    for (size_t i = 0; i < snaps.size(); ++i)
      if (options.printAfter == "all" || options.printAfter == snaps[i].passName) {
        printAfter(snaps[i], i + 1, snaps.size(), out);
        printed = true;
      }
    for (size_t i = 0; i < stages.size(); ++i)
      if (options.printAfter == "all" || options.printAfter == stages[i].stage) {
        printStage(stages[i], i + 1, stages.size(), out);
        printed = true;
      }
    if (!printed)
      out << "(" << (isLoweringStage(options.printAfter) ? "stage " : "pass ") << options.printAfter
          << " did not run: disabled or after --stop-after)\n";
  }
  out << std::flush;
  return kExitOk;
}

}  // namespace tempo::cli
