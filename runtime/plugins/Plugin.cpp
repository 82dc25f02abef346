#include "plugins/Plugin.h"

#include "tempo_plugin.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

namespace tempo {

namespace {

constexpr DType kDTypes[] = {DType::F32, DType::F64, DType::I32, DType::I64, DType::Bool};  // in tempo_dtype order

int32_t abiDType(DType d) {
  for (int32_t i = 0; i < 5; ++i)
    if (kDTypes[i] == d) return i;
  return -1;
}

/// `plugin 'jsonl'` or `plugin 'jsonl', write`: the prefix of every message.
std::string where(const std::string& plugin, const std::string& function = "") {
  return "plugin '" + plugin + "'" + (function.empty() ? "" : ", " + function);
}

PluginPort readPort(const std::string& plugin, const tempo_port& p, bool input) {
  PluginPort port;
  port.name = p.name ? p.name : "";
  const bool anyDType = p.type.dtype == TEMPO_ANY_DTYPE;
  if (!anyDType && (p.type.dtype < 0 || p.type.dtype > 4))
    throw PluginError(where(plugin) + ": port '" + port.name + "' has an unknown dtype " + std::to_string(p.type.dtype));
  if (!anyDType) port.dtype = kDTypes[p.type.dtype];
  if ((anyDType || p.type.rank < 0) && !input)
    throw PluginError(where(plugin) + ": output '" + port.name + "' must declare its dtype and shape");
  if (p.type.rank > TEMPO_PLUGIN_MAX_RANK)
    throw PluginError(where(plugin) + ": port '" + port.name + "' has rank " + std::to_string(p.type.rank));
  port.rank = p.type.rank < 0 ? -1 : p.type.rank;
  for (int d = 0; d < port.rank; ++d) {
    if (p.type.shape[d] < 0) throw PluginError(where(plugin) + ": port '" + port.name + "' has a negative size");
    port.shape.push_back(p.type.shape[d]);
  }
  return port;
}

}  // namespace

std::string PluginPort::str() const {
  std::string s = dtype ? std::string(dtypeName(*dtype)) : "any";
  return rank < 0 ? s + "[...]" : s + shapeString(shape);
}

std::shared_ptr<PluginLibrary> PluginLibrary::load(const std::string& name, const std::vector<std::string>& dirs) {
  if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
    throw PluginError(where(name) + ": a plugin name is lower-case letters, digits and '_'");
  const std::string file = "libtempo_plugin_" + name + ".so";
  std::string searched;
  for (const std::string& dir : dirs) {
    const std::filesystem::path path = std::filesystem::path(dir) / file;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      searched += (searched.empty() ? "" : ", ") + dir;
      continue;
    }
    std::shared_ptr<PluginLibrary> lib(new PluginLibrary);
    lib->name_ = name;
    lib->path_ = path.string();
    lib->handle_ = dlopen(lib->path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle_) throw PluginError(where(name) + ": cannot load " + lib->path_ + ": " + dlerror());
    auto entry = reinterpret_cast<tempo_plugin_entry>(dlsym(lib->handle_, "tempo_plugin_v1"));
    if (!entry) throw PluginError(where(name) + ": " + lib->path_ + " exports no tempo_plugin_v1");
    lib->api_ = entry();
    if (!lib->api_) throw PluginError(where(name) + ": tempo_plugin_v1 returned nothing");
    if (lib->api_->abi != TEMPO_PLUGIN_ABI)
      throw PluginError(where(name) + ": it is built for plugin ABI " + std::to_string(lib->api_->abi) + ", this Tempo reads " +
                        std::to_string(TEMPO_PLUGIN_ABI));
    if (!lib->api_->open || !lib->api_->functions || !lib->api_->call || !lib->api_->close)
      throw PluginError(where(name) + ": its table lacks an entry point (open, functions, call, close)");
    lib->version_ = lib->api_->version ? lib->api_->version : "";
    return lib;
  }
  throw PluginError(where(name) + ": no " + file + " in " + (searched.empty() ? "(no folder)" : searched) +
                    " (set TEMPO_PLUGIN_PATH)");
}

PluginLibrary::~PluginLibrary() {
  if (handle_) dlclose(handle_);
}

std::vector<std::string> pluginSearchDirs(const std::string& programDir) {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("TEMPO_PLUGIN_PATH")) {
    std::string all = path;
    for (size_t start = 0; start <= all.size();) {
      size_t end = all.find(':', start);
      if (end == std::string::npos) end = all.size();
      if (end > start) dirs.push_back(all.substr(start, end - start));
      start = end + 1;
    }
  }
  if (!programDir.empty()) dirs.push_back((std::filesystem::path(programDir) / "plugins").string());
#ifdef TEMPO_PLUGIN_BUILD_DIR
  dirs.push_back(TEMPO_PLUGIN_BUILD_DIR);
#endif
  return dirs;
}

PluginInstance::PluginInstance(std::shared_ptr<PluginLibrary> library,
                               const std::vector<std::pair<std::string, std::string>>& args, int64_t instance)
    : library_(std::move(library)) {
  std::vector<tempo_arg> raw;
  for (const auto& [key, value] : args) raw.push_back({key.c_str(), value.c_str()});
  tempo_error error{};
  const tempo_plugin& api = library_->api();
  instance_ = api.open(raw.data(), static_cast<int32_t>(raw.size()), instance, &error);
  if (!instance_) throw PluginError(where(library_->name()) + ": " + (error.code ? error.message : "open failed"));
  const tempo_function* table = nullptr;
  const int32_t count = api.functions(instance_, &table);
  try {
    if (count < 0 || (count > 0 && !table)) throw PluginError(where(library_->name()) + ": it lists no functions");
    for (int32_t i = 0; i < count; ++i) {
      const tempo_function& f = table[i];
      PluginFunction fn;
      fn.name = f.name ? f.name : "";
      fn.stateful = f.stateful != 0;
      for (int32_t k = 0; k < f.n_inputs; ++k) fn.inputs.push_back(readPort(library_->name(), f.inputs[k], true));
      for (int32_t k = 0; k < f.n_outputs; ++k) fn.outputs.push_back(readPort(library_->name(), f.outputs[k], false));
      functions_.push_back(std::move(fn));
    }
  } catch (...) {
    api.close(instance_);
    throw;
  }
}

PluginInstance::~PluginInstance() {
  if (instance_) library_->api().close(instance_);
}

int PluginInstance::find(const std::string& name) const {
  for (size_t i = 0; i < functions_.size(); ++i)
    if (functions_[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<Tensor> PluginInstance::call(int index, const std::vector<Tensor>& inputs) {
  if (index < 0 || index >= static_cast<int>(functions_.size()))
    throw PluginError(where(library_->name()) + ": no function number " + std::to_string(index));
  const PluginFunction& fn = functions_[static_cast<size_t>(index)];
  if (inputs.size() != fn.inputs.size())
    throw PluginError(where(library_->name(), fn.name) + ": takes " + std::to_string(fn.inputs.size()) + " inputs, not " +
                      std::to_string(inputs.size()));
  std::vector<Tensor> dense;
  std::vector<tempo_type> types(inputs.size());
  std::vector<const void*> in;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const PluginPort& port = fn.inputs[i];
    const Tensor& t = inputs[i];
    const bool fits = (!port.dtype || *port.dtype == t.dtype()) && (port.rank < 0 || port.shape == t.shape()) &&
                      t.shape().size() <= TEMPO_PLUGIN_MAX_RANK;
    if (!fits)
      throw PluginError(where(library_->name(), fn.name) + ": input '" + port.name + "' is " + port.str() + ", not " +
                        std::string(dtypeName(t.dtype())) + shapeString(t.shape()));
    dense.push_back(t.contiguous());
    types[i].dtype = abiDType(t.dtype());
    types[i].rank = static_cast<int32_t>(t.shape().size());
    for (size_t d = 0; d < t.shape().size(); ++d) types[i].shape[d] = t.shape()[d];
    in.push_back(dense.back().raw());
  }
  std::vector<Tensor> outputs;
  std::vector<void*> out;
  for (const PluginPort& port : fn.outputs) outputs.emplace_back(*port.dtype, port.shape);
  for (Tensor& t : outputs) out.push_back(t.raw());
  tempo_error error{};
  if (library_->api().call(instance_, index, types.data(), in.data(), out.data(), &error) != 0)
    throw PluginError(where(library_->name(), fn.name) + ": " + (error.code ? error.message : "failed"));
  return outputs;
}

}  // namespace tempo
