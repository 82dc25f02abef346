// RunStoreTestSupport: profiled runs of the examples and fresh store files for the run store's tests.
#pragma once

#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "pass/PassRegistry.h"
#include "runstore/RunRecorder.h"
#include "runstore/RunStore.h"
#include "support/GoldenFiles.h"
#include "support/TempDir.h"

#include <filesystem>
#include <map>
#include <string>

namespace tempo::testing {

/// A fresh store file in a fresh temporary folder (removed with it).
class TempStore {
public:
  explicit TempStore(const std::string& tag) : dir_("runstore_" + tag) {}
  std::string path() const { return dir_.str("store/runs.db"); }

private:
  TempDir dir_;
};

/// One example compiled, run with a trace, and recorded (not yet stored).
struct ProfiledExample {
  std::string path, source;
  CompiledProgram program;
  CompiledRunResult result;
  TraceCollector trace;
  RunRecord record;
  RunHeader header;
  SymbolEnv bounds;
};

inline void profileExample(const std::filesystem::path& path, ProfiledExample& out,
                           const std::map<std::string, int64_t>& sets = {}) {
  out.path = path.string();
  FrontendResult r = compileSource(readFile(path), path.filename().string(), path.parent_path().string());
  ASSERT_TRUE(r.ok()) << r.renderedDiagnostics();
  out.source = r.source;
  std::string error;
  std::optional<SymbolEnv> bounds = resolveBounds(r.graph, sets, error);
  ASSERT_TRUE(bounds) << error;
  out.program = compileProgram(r.graph, defaultPipeline());
  CompiledRunOptions options;
  options.trace = &out.trace;
  out.result = runCompiled(out.program, *bounds, options);
  out.bounds = *bounds;
  out.header = runHeader(out.path, out.source, *bounds, "test", nlohmann::json{{"kernels", "generated"}});
  out.record = recordRun(out.program, out.bounds, out.result, out.trace, out.source, false);
}

/// Records `p` in `store` as a finished run; returns its id.
inline int64_t storeRun(RunStore& store, const ProfiledExample& p) {
  const int64_t id = store.beginRun(p.header);
  store.finishRun(id, p.record);
  return id;
}

}  // namespace tempo::testing
