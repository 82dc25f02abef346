// Optimising and JIT-compiling the generated kernels; see NativeModule.h.
#include "codegen/NativeModule.h"

#include "codegen/KernelCache.h"
#include "codegen/LlvmKernels.h"
#include "codegen/LlvmModule.h"

#include "codegen/SharedLibrary.h"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace tempo {

namespace {

void initialiseLlvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

template <class T>
T orThrow(llvm::Expected<T> value, const std::string& what) {
  if (!value) throw std::runtime_error(what + ": " + llvm::toString(value.takeError()));
  return std::move(*value);
}

void optimise(llvm::Module& m, llvm::TargetMachine& tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder pb(&tm, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  passes.run(m, mam);
}

/// The module compiled by `tm` to an object file or assembly text (code generation may change the module).
std::string emitted(llvm::Module& m, llvm::TargetMachine& tm, llvm::CodeGenFileType type) {
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, type))
    throw std::runtime_error("LLVM cannot emit code for " + tm.getTargetTriple().str());
  pm.run(m);
  return std::string(text.str());
}

int64_t stepCost(const std::vector<FusedStep>& program) {
  int64_t cost = 0;
  for (const FusedStep& s : program) {
    bool transcendental = s.op == OpKind::Exp || s.op == OpKind::Tanh || s.op == OpKind::Sigmoid ||
                          s.op == OpKind::Log || s.op == OpKind::Sin || s.op == OpKind::Cos || s.op == OpKind::Pow;
    cost += transcendental ? 8 : 1;
  }
  return std::max<int64_t>(cost, 1);
}

/// The module's key as the constant KernelCache::kKeySymbol, so a cache entry names what it holds.
void addCacheKey(llvm::Module& m, const std::string& key) {
  llvm::Constant* text = llvm::ConstantDataArray::getString(m.getContext(), key);
  new llvm::GlobalVariable(m, text->getType(), true, llvm::GlobalValue::ExternalLinkage, text, KernelCache::kKeySymbol);
}

/// `object` linked into a shared library in the temporary directory and loaded; the file is gone once
/// loaded (the mapping stays). For a compile with no cache, or whose cache entry cannot be written.
std::shared_ptr<const SharedLibrary> loadedFromTemporary(const std::string& object) {
  std::string pattern = (std::filesystem::temp_directory_path() / "tempo-kernels-XXXXXX").string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw std::runtime_error("cannot create a file for the kernels in " + pattern);
  ::close(fd);
  const std::filesystem::path file = pattern;
  std::string error;
  try {
    linkSharedLibrary(object, file);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(file, ec);
    throw;
  }
  std::shared_ptr<const SharedLibrary> library = SharedLibrary::open(file, &error);
  std::error_code ec;
  std::filesystem::remove(file, ec);
  if (!library) throw std::runtime_error("the loader rejects the kernels' library: " + error);
  return library;
}

/// The lines of `text` from the one starting with `from` to the first after it starting with `to` (inclusive).
std::string section(const std::string& text, const std::string& from, const std::string& to) {
  size_t begin = text.rfind(from, 0) == 0 ? 0 : text.find("\n" + from);
  if (begin == std::string::npos) return "";
  if (begin != 0) ++begin;
  size_t end = text.find("\n" + to, begin + from.size());
  if (end == std::string::npos) return text.substr(begin);
  size_t lineEnd = text.find('\n', end + 1);
  return text.substr(begin, lineEnd == std::string::npos ? std::string::npos : lineEnd + 1 - begin);
}

}  // namespace

NativeModule::NativeModule() = default;
NativeModule::~NativeModule() = default;

std::shared_ptr<const NativeModule> NativeModule::compile(const KernelProgram& kernels, const CodegenOptions& options) {
  std::shared_ptr<NativeModule> out(new NativeModule);
  if (kernels.count(KernelKind::Generated) == 0) return out;  // nothing to compile: no library
  auto start = std::chrono::steady_clock::now();
  llvm::orc::JITTargetMachineBuilder builder =
      orThrow(llvm::orc::JITTargetMachineBuilder::detectHost(), "cannot detect the host CPU");
  builder.setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
  builder.setRelocationModel(llvm::Reloc::PIC_);  // linked into a shared library
  if (builder.getCPU() == "generic") {
    // A virtual machine may hide the CPU model while its features are all there:
    // name the x86-64 level they reach, for its scheduling model and the listings.
    const std::string features = builder.getFeatures().getString();
    if (features.find("+avx512f") != std::string::npos && features.find("+avx512bw") != std::string::npos)
      builder.setCPU("x86-64-v4");
    else if (features.find("+avx2") != std::string::npos && features.find("+fma") != std::string::npos)
      builder.setCPU("x86-64-v3");
  }
  out->cpu_ = builder.getCPU();
  // One function per distinct code, named after the first kernel with it.
  KernelProgram distinct;
  std::map<std::string, std::string> functionOfKey;
  std::map<NodeId, std::string> functionOfNode;
  for (const Kernel& k : kernels.kernels) {
    if (k.kind != KernelKind::Generated) continue;
    auto [it, fresh] = functionOfKey.emplace(kernelCodeKey(k), k.name);
    if (fresh) distinct.kernels.push_back(k);
    functionOfNode[k.node] = it->second;
  }
  out->functions_ = distinct.kernels.size();

  // The cache key: everything the object code depends on.
  std::string key = std::string("llvm ") + LLVM_VERSION_STRING + "\nemitter " + llvmKernelsBuildId() + "\ntarget " +
                    builder.getTargetTriple().str() + " " + out->cpu_ + " " + builder.getFeatures().getString() + "\n";
  for (const Kernel& k : distinct.kernels) key += k.name + "=" + kernelCodeKey(k) + "\n";
  std::optional<KernelCache> cache;
  if (options.useCache)
    if (auto dir = options.cacheDirectory ? options.cacheDirectory : KernelCache::defaultDirectory()) cache.emplace(*dir);
  std::shared_ptr<const SharedLibrary> library;
  if (cache && !options.keepIr && !options.keepAssembly) library = cache->load(key);
  out->fromCache_ = library != nullptr;
  auto optimised = std::chrono::steady_clock::now();
  if (!library) {
    initialiseLlvm();  // the targets' registration: a cache hit touches none of LLVM's code generator
    std::unique_ptr<llvm::TargetMachine> tm = orThrow(builder.createTargetMachine(), "no LLVM target for this CPU");
    LlvmModulePtr generated = emitLlvmKernels(distinct);
    llvm::Module& m = *generated->module;
    m.setDataLayout(tm->createDataLayout());
    m.setTargetTriple(tm->getTargetTriple().str());
    optimise(m, *tm);
    if (options.keepIr) {
      llvm::raw_string_ostream os(out->ir_);
      m.print(os, nullptr);
    }
    optimised = std::chrono::steady_clock::now();
    if (options.keepAssembly) out->assembly_ = emitted(*llvm::CloneModule(m), *tm, llvm::CGFT_AssemblyFile);
    addCacheKey(m, key);
    const std::string object = emitted(m, *tm, llvm::CGFT_ObjectFile);
    if (cache && cache->store(key, object)) library = cache->load(key);
    if (!library) library = loadedFromTemporary(object);
  }
  out->optimiseSeconds_ = std::chrono::duration<double>(optimised - start).count();
  out->library_ = library;
  out->hookSlot_ = static_cast<KernelHookFn*>(library->symbol(kKernelHookSymbol));
  if (!out->hookSlot_) throw std::runtime_error(std::string("the kernels' library has no ") + kKernelHookSymbol);
  std::map<std::string, NativeKernelFn> addresses;
  for (const Kernel& k : kernels.kernels) {
    if (k.kind != KernelKind::Generated) continue;
    NativeKernel n;
    n.node = k.node;
    n.name = k.name;
    n.function = functionOfNode.at(k.node);
    auto found = addresses.find(n.function);
    if (found == addresses.end())
      found = addresses.emplace(n.function, reinterpret_cast<NativeKernelFn>(library->symbol(n.function))).first;
    if (!found->second) throw std::runtime_error("kernel " + n.function + " is not in the kernels' library");
    n.fn = found->second;
    n.dtype = k.dtype;
    n.rank = k.shape.size();
    for (const KernelInput& in : k.inputs) n.inputDTypes.push_back(in.dtype), n.broadcast.push_back(in.broadcast);
    n.stepsPerElement = stepCost(k.program);
    out->kernels_.push_back(std::move(n));
  }
  out->machineCodeSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - optimised).count();
  return out;
}

namespace {

/// Holders per hook slot: two modules loaded from one cached library share its slot.
std::mutex hookMutex;
std::map<KernelHookFn*, int> hookHolders;

}  // namespace

void NativeModule::holdHook(KernelHookFn hook) const {
  if (!hookSlot_) return;
  std::lock_guard<std::mutex> lock(hookMutex);
  if (hookHolders[hookSlot_]++ == 0) *hookSlot_ = hook;
}

void NativeModule::releaseHook() const {
  if (!hookSlot_) return;
  std::lock_guard<std::mutex> lock(hookMutex);
  auto it = hookHolders.find(hookSlot_);
  if (it == hookHolders.end()) return;
  if (--it->second == 0) {
    *hookSlot_ = nullptr;
    hookHolders.erase(it);
  }
}

const NativeKernel* NativeModule::forNode(NodeId node) const {
  auto it = std::lower_bound(kernels_.begin(), kernels_.end(), node,
                             [](const NativeKernel& k, NodeId id) { return k.node < id; });
  return it != kernels_.end() && it->node == node ? &*it : nullptr;
}

namespace {

/// `; k9_x shares the code of k7_h` when `k` runs another kernel's function.
std::string sharing(const NativeKernel* k, const char* comment) {
  return k && k->function != k->name ? std::string(comment) + " " + k->name + " shares the code of " + k->function + "\n" : "";
}

}  // namespace

const NativeKernel* NativeModule::byName(const std::string& name) const {
  for (const NativeKernel& k : kernels_)
    if (k.name == name) return &k;
  return nullptr;
}

std::string NativeModule::kernelIr(const std::string& kernel) const {
  const NativeKernel* k = byName(kernel);
  const std::string& name = k ? k->function : kernel;
  size_t at = ir_.find("@" + name + "(");
  if (at == std::string::npos) return "";
  size_t begin = ir_.rfind("\ndefine ", at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  size_t end = ir_.find("\n}\n", at);
  return sharing(k, ";") + ir_.substr(begin, end == std::string::npos ? std::string::npos : end + 3 - begin);
}

std::string NativeModule::kernelAssembly(const std::string& kernel) const {
  const NativeKernel* k = byName(kernel);
  const std::string& name = k ? k->function : kernel;
  std::string text = section(assembly_, name + ":", "\t.size\t" + name + ",");
  return text.empty() ? text : sharing(k, "#") + text;
}

}  // namespace tempo
