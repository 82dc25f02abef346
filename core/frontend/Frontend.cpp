#include "frontend/Frontend.h"

#include "frontend/Lowering.h"
#include "frontend/Parser.h"
#include "graph/GraphValidator.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tempo {

FrontendResult compileSource(std::string source, const std::string& fileName, const std::string& baseDir) {
  FrontendResult r;
  r.source = std::move(source);
  r.graph.file = fileName;
  ast::Program program = parseProgram(r.source, fileName, r.diags);
  IslContext isl;
  Scope scope;
  LoweringContext cx{r.graph, scope, r.diags, isl, fileName, baseDir, {}, {}, {}};
  try {
    lowerProgram(program, cx);
  } catch (const std::exception& e) {
    r.diags.error(fileName, {}, std::string("internal error while checking the program: ") + e.what());
  }
  if (!r.diags.hasErrors())
    for (const std::string& p : validateGraph(r.graph))
      r.diags.error(fileName, {}, "internal error: the lowered graph is invalid: " + p);
  return r;
}

FrontendResult compileFile(const std::string& path) {
  std::error_code ec;
  std::ifstream in;
  if (std::filesystem::is_regular_file(path, ec)) in.open(path, std::ios::binary);
  if (!in.is_open()) {
    FrontendResult r;
    r.graph.file = path;
    r.diags.error(path, {}, "cannot read file '" + path + "'");
    return r;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::string dir = std::filesystem::path(path).parent_path().string();
  return compileSource(text.str(), path, dir.empty() ? "." : dir);
}

std::optional<SymbolEnv> resolveBounds(const Graph& g, const std::map<std::string, int64_t>& overrides,
                                       std::string& error) {
  SymbolEnv env;
  for (const auto& [name, value] : overrides) {
    bool known = false;
    for (const DimDecl& d : g.dims) known = known || d.bound == name;
    if (!known) {
      error = "'" + name + "' is not a bound of this program";
      return std::nullopt;
    }
    if (g.isDerivedBound(name)) {
      error = "bound '" + name + "' is derived from the other bounds and cannot be set";
      return std::nullopt;
    }
  }
  for (const DimDecl& d : g.dims) {
    if (g.isDerivedBound(d.bound)) continue;
    auto o = overrides.find(d.bound);
    auto dflt = g.boundDefaults.find(d.bound);
    if (o != overrides.end()) env[d.bound] = o->second;
    else if (dflt != g.boundDefaults.end()) env[d.bound] = dflt->second;
    else {
      error = "bound '" + d.bound + "' has no value: add `set " + d.bound + " = ...` or pass --set " + d.bound + "=N";
      return std::nullopt;
    }
    if (env[d.bound] < 1) {
      error = "bound '" + d.bound + "' must be at least 1";
      return std::nullopt;
    }
  }
  return g.withDerivedBounds(std::move(env));
}

}  // namespace tempo
