#include "tempo/GraphCommand.h"

#include "graph/GraphExport.h"
#include "graph/GraphPrinter.h"
#include "tempo/Cli.h"
#include "tempo/CommandSupport.h"

#include <ostream>

namespace tempo::cli {

CLI::App* addGraphCommand(CLI::App& app, GraphOptions& options) {
  CLI::App* cmd = app.add_subcommand("graph", "Print the symbolic dependence graph of a program");
  cmd->add_option("FILE", options.file, "The .tpo program")->required();
  cmd->add_option("--format", options.format, "Output format: text, dot (Graphviz) or json")
      ->check(CLI::IsMember({"text", "dot", "json"}))
      ->capture_default_str();
  return cmd;
}

int runGraph(const GraphOptions& options, std::ostream& out, std::ostream& err) {
  FrontendResult program = compileReporting(options.file, err);
  if (!program.ok()) return kExitProgramErrors;
  const Graph& g = program.graph;
  if (options.format == "dot") out << graphToDot(g);
  else if (options.format == "json") out << graphToJson(g).dump(2) << "\n";
  else out << printGraph(g);
  out << std::flush;
  return kExitOk;
}

}  // namespace tempo::cli
