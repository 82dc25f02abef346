// Plugin: loading a plugin library and calling its instances (the host side of
// plugins/include/tempo_plugin.h, docs/plugins.md).
//
// `PluginLibrary::load("jsonl", dirs)` finds libtempo_plugin_jsonl.so in the first of
// `dirs` that has it (pluginSearchDirs: $TEMPO_PLUGIN_PATH, the program's plugins/
// folder, the build's plugin folder), opens it, calls its one exported function and
// checks the ABI version. A `PluginInstance` opens an instance with the program's
// arguments, reads its functions' declarations into Tempo's types (DType, shapes; an
// input may take any dtype or shape) and calls them on Tensors: the host checks every
// input against its port before the call and allocates the outputs the ports declare,
// so a plugin only ever sees buffers of the types it declared. Every failure — a missing
// library, a wrong ABI, an error value the plugin returns — is a PluginError whose
// message names the plugin (and the function). The library stays loaded while an
// instance of it lives.
#pragma once

#include "tensor/Tensor.h"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

struct tempo_plugin;

namespace tempo {

struct PluginError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class PluginLibrary {
public:
  /// Loads plugin `name` from the first directory of `dirs` holding libtempo_plugin_NAME.so.
  static std::shared_ptr<PluginLibrary> load(const std::string& name, const std::vector<std::string>& dirs);
  ~PluginLibrary();
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  const std::string& name() const { return name_; }
  const std::string& path() const { return path_; }
  const std::string& version() const { return version_; }
  const tempo_plugin& api() const { return *api_; }

private:
  PluginLibrary() = default;
  std::string name_, path_, version_;
  void* handle_ = nullptr;
  const tempo_plugin* api_ = nullptr;
};

/// Where plugins are looked for: $TEMPO_PLUGIN_PATH (':'-separated), `programDir`/plugins,
/// then the build's plugin folder (development builds).
std::vector<std::string> pluginSearchDirs(const std::string& programDir);

/// A port's type: std::nullopt dtype or a negative rank means "any" (inputs only).
struct PluginPort {
  std::string name;
  std::optional<DType> dtype;
  int rank = 0;                 ///< -1: any shape
  std::vector<int64_t> shape;
  std::string str() const;      ///< `f32[4]`, `any[...]`
};

struct PluginFunction {
  std::string name;
  std::vector<PluginPort> inputs, outputs;
  bool stateful = false;
};

class PluginInstance {
public:
  /// Opens instance `instance` of `library` with the program's arguments (key, value as written).
  PluginInstance(std::shared_ptr<PluginLibrary> library, const std::vector<std::pair<std::string, std::string>>& args,
                 int64_t instance);
  ~PluginInstance();
  PluginInstance(const PluginInstance&) = delete;
  PluginInstance& operator=(const PluginInstance&) = delete;

  const std::vector<PluginFunction>& functions() const { return functions_; }
  /// The index of function `name`, or -1.
  int find(const std::string& name) const;
  /// Calls function `index` on `inputs` (checked against its ports); returns its outputs.
  std::vector<Tensor> call(int index, const std::vector<Tensor>& inputs);
  const PluginLibrary& library() const { return *library_; }

private:
  std::shared_ptr<PluginLibrary> library_;
  void* instance_ = nullptr;
  std::vector<PluginFunction> functions_;
};

}  // namespace tempo
