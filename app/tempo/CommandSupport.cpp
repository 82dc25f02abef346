#include "tempo/CommandSupport.h"

#include "npy/LoadCheck.h"
#include "tempo/Cli.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace tempo::cli {

namespace {
/// compileFile, except that a directory is reported instead of read as an
/// empty program (an ifstream opens a directory without failing on Linux).
FrontendResult compileProgramFile(const std::string& file) {
  std::error_code ec;
  if (!std::filesystem::is_directory(file, ec)) return compileFile(file);
  FrontendResult result;
  result.graph.file = file;
  result.diags.error(file, {}, "cannot read file '" + file + "': it is a directory");
  return result;
}
}  // namespace

FrontendResult compileReporting(const std::string& file, std::ostream& err) {
  FrontendResult result = compileProgramFile(file);
  printDiagnostics(result.diags, result.source, err);
  return result;
}

void printDiagnostics(const DiagnosticBag& diags, const std::string& source, std::ostream& err) {
  if (!diags.empty()) err << renderAll(diags, source) << std::flush;
}

bool checkDataFiles(const FrontendResult& program, const SymbolEnv& bounds, std::ostream& err) {
  DiagnosticBag diags;
  checkLoadedArrays(program.graph, bounds, diags);
  printDiagnostics(diags, program.source, err);
  return !diags.hasErrors();
}

namespace {
std::string counted(size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}
}  // namespace

PassContext passContextFor(int64_t blockSize) {
  PassContext context;
  if (blockSize > 0) context.options["block-size"] = std::to_string(blockSize);
  return context;
}

int reportIllegalSchedule(const std::string& file, const IllegalScheduleError& e, std::ostream& err) {
  const size_t n = e.violations().size();
  err << file << ": error: the transformed schedule is illegal: it breaks " << n << " dependence"
      << (n == 1 ? "" : "s") << "\n";
  for (const ViolatedDependence& v : e.violations()) err << "  " << v.sentence << "\n";
  return kExitProgramErrors;
}

std::string graphSize(const Graph& g) {
  return counted(g.nodes().size(), "node") + ", " + counted(g.edges().size(), "edge") + ", " +
         counted(g.outputs.size(), "output");
}

int writeResult(const std::string& text, const std::string& path, std::ostream& out, std::ostream& err) {
  if (path.empty()) {
    out << text << std::flush;
    return kExitOk;
  }
  std::ofstream file(path, std::ios::binary);
  if (!(file << text) || !file.flush()) {
    err << "error: cannot write '" << path << "'\n";
    return kExitRuntime;
  }
  return kExitOk;
}

std::optional<DeviceSpec> deviceOption(const std::string& text, const char* command, std::ostream& err) {
  std::string error;
  std::optional<DeviceSpec> device = parseDeviceSpec(text, error);
  if (!device) err << "tempo " << command << ": " << error << "\n";
  return device;
}

}  // namespace tempo::cli
