#include "tempo/GraphCommand.h"

#include "graph/GraphExport.h"
#include "graph/GraphPrinter.h"
#include "layout/GraphLayout.h"
#include "tempo/Cli.h"
#include "tempo/CommandSupport.h"

#include <ostream>

namespace tempo::cli {

CLI::App* addGraphCommand(CLI::App& app, GraphOptions& options) {
  CLI::App* cmd = app.add_subcommand("graph", "Print the symbolic dependence graph of a program");
  cmd->add_option("FILE", options.file, "The .tpo program")->required();
  cmd->add_option("--format", options.format, "Output format: text, dot (Graphviz), json, svg or png")
      ->check(CLI::IsMember({"text", "dot", "json", "svg", "png"}))
      ->capture_default_str();
  cmd->add_option("--output,-o", options.output, "Write to FILE instead of stdout (required for png)")
      ->type_name("FILE");
  return cmd;
}

int runGraph(const GraphOptions& options, std::ostream& out, std::ostream& err) {
  if (options.format == "png" && options.output.empty()) {
    err << "error: --format png writes binary data; give --output FILE\n";
    return kExitUsage;
  }
  FrontendResult program = compileReporting(options.file, err);
  if (!program.ok()) return kExitProgramErrors;
  const Graph& g = program.graph;
  std::string text;
  try {
    if (options.format == "dot") text = graphToDot(g);
    else if (options.format == "json") text = graphToJson(g).dump(2) + "\n";
    else if (options.format == "svg" || options.format == "png") text = renderGraph(g, options.format);
    else text = printGraph(g);
  } catch (const GraphLayoutError& e) {
    err << "error: " << e.what() << "\n";
    return kExitRuntime;
  }
  return writeResult(text, options.output, out, err);
}

}  // namespace tempo::cli
