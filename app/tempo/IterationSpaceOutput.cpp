#include "tempo/IterationSpaceOutput.h"

#include "executor/CompiledEngine.h"
#include "iteration/IterationSpace.h"
#include "iteration/IterationSpaceSvg.h"
#include "layout/SvgRaster.h"
#include "pass/PassRegistry.h"
#include "tempo/Cli.h"
#include "tempo/CommandSupport.h"
#include "tempo/RunCommand.h"

#include <optional>
#include <ostream>
#include <stdexcept>

namespace tempo::cli {

namespace {

/// "t,b" -> {"t", "b"}; "t" -> {"t", ""}; nullopt for anything else.
std::optional<std::pair<std::string, std::string>> splitDims(const std::string& dims) {
  const size_t comma = dims.find(',');
  std::string x = dims.substr(0, comma);
  std::string y = comma == std::string::npos ? "" : dims.substr(comma + 1);
  if (x.empty() || y.find(',') != std::string::npos || (comma != std::string::npos && y.empty())) return std::nullopt;
  return std::make_pair(x, y);
}

}  // namespace

int writeIterationSpace(const IterationSpaceRequest& request, std::ostream& out, std::ostream& err) {
  if (request.format == "png" && request.output.empty()) {
    err << "error: --format png writes binary data; give --output FILE\n";
    return kExitUsage;
  }
  const auto dims = splitDims(request.dims);
  if (!dims) {
    err << "error: --iteration-space '" << request.dims << "': expected one or two dimension names, e.g. t,b\n";
    return kExitUsage;
  }
  std::string error;
  const auto overrides = parseSets(request.sets, error);
  if (!overrides) {
    err << "error: " << error << "\n";
    return kExitUsage;
  }
  FrontendResult program = compileReporting(request.file, err);
  if (!program.ok()) return kExitProgramErrors;
  const std::optional<SymbolEnv> bounds = resolveBounds(program.graph, *overrides, error);
  if (!bounds) {
    err << "error: " << error << "\n";
    return kExitUsage;
  }
  CompiledProgram compiled;
  std::optional<IllegalScheduleError> illegal;
  try {
    PassContext context = passContextFor(request.blockSize);
    if (!request.transform.empty()) context.options["schedule-transform"] = request.transform;
    try {
      compiled = compileProgram(program.graph, defaultPipeline(), context);
    } catch (const IllegalScheduleError& e) {  // drawn as it would run: the program's graph, the illegal loops
      illegal = e;
      context.options.erase("schedule-transform");
      compiled = compileProgram(program.graph, defaultPipeline(), context);
      compiled.loops = e.loops();
    }
  } catch (const ScheduleTransformError& e) {
    err << "tempo schedule: --transform: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    err << request.file << ": error: cannot compile the program: " << e.what() << "\n";
    return kExitProgramErrors;
  }
  IterationSpace space;
  try {
    space = buildIterationSpace(compiled.graph, compiled.loops, *bounds, dims->first, dims->second);
  } catch (const std::invalid_argument& e) {
    err << "error: --iteration-space: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::runtime_error& e) {
    err << "error: " << e.what() << " (use smaller bounds with --set)\n";
    return kExitRuntime;
  }
  IterationSvgOptions svgOptions;
  svgOptions.title = request.file + " — iteration space (" + request.dims + ")";
  if (request.blockSize > 0) svgOptions.title += ", block size " + std::to_string(request.blockSize);
  if (!request.transform.empty()) svgOptions.title += ", after " + request.transform;
  if (illegal) svgOptions.title += " — illegal";
  std::string picture = renderIterationSpaceSvg(space, svgOptions);
  if (request.format == "png") {
    try {
      picture = rasterizeSvgToPng(picture, 2.0);
    } catch (const SvgRasterError& e) {
      err << "error: " << e.what() << "\n";
      return kExitRuntime;
    }
  }
  const int written = writeResult(picture, request.output, out, err);
  if (illegal) return reportIllegalSchedule(request.file, *illegal, err);
  return written;
}

}  // namespace tempo::cli
