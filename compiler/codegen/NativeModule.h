// NativeModule: the generated kernels optimised and compiled to machine code.
//
// `NativeModule::compile` takes a KernelProgram, emits its generated kernels
// as LLVM IR (LlvmKernels.h), runs LLVM's -O3 pipeline for the host CPU (its
// name and features detected at run time, so the vectoriser uses AVX2 or
// AVX-512 where the machine has them), compiles the module to a
// position-independent object, links it into a shared library with lld and
// loads that with the system's loader (SharedLibrary.h), which binds libm's
// functions from the process. Every kernel is looked up at once, so nothing
// compiles lazily during a run. Kernels with the same code (steps, dtypes,
// broadcast patterns and rank: a recurrence's branches, a layer repeated)
// share one function, so each distinct kernel is compiled once. The module
// owns the library and so the code: keep it alive as long as a function
// pointer is used (CompiledProgram holds a shared_ptr). On request it keeps
// the optimised IR and the assembly as text, whole or per kernel, the way
// Compiler Explorer shows them. The library is kept in a KernelCache on disk:
// a compile whose key is there skips emission, -O3, code generation and the
// link, and only loads the library (unless the IR or assembly text is asked
// for), touching no LLVM code. The header needs no LLVM headers.
#pragma once

#include "codegen/LlvmKernels.h"
#include "kernels/Kernel.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

class SharedLibrary;

/// The ABI of every generated kernel (LlvmKernels.h).
using NativeKernelFn = void (*)(void* out, const void* const* inputs, const int64_t* dims, int64_t begin,
                                int64_t end);

/// What the executor needs to call one generated kernel.
struct NativeKernel {
  NodeId node = -1;
  std::string name;
  std::string function;  ///< the compiled function: `name`, or the kernel's it shares (same code)
  NativeKernelFn fn = nullptr;
  DType dtype = DType::F32;
  size_t rank = 0;                           ///< the output's
  std::vector<DType> inputDTypes;
  std::vector<std::vector<bool>> broadcast;  ///< per input, per output dim (Kernel.h)
  int64_t stepsPerElement = 1;               ///< for the parallel split's cost estimate
};

struct CodegenOptions {
  bool keepIr = false;        ///< keep the optimised IR as text
  bool keepAssembly = false;  ///< also compile the module to assembly text
  /// Reuse and store object code in this KernelCache directory; nullopt: KernelCache::defaultDirectory().
  std::optional<std::filesystem::path> cacheDirectory;
  bool useCache = true;       ///< false: always compile, store nothing
};

class NativeModule {
public:
  /// Throws std::runtime_error when LLVM cannot compile the module.
  static std::shared_ptr<const NativeModule> compile(const KernelProgram& kernels, const CodegenOptions& options = {});
  ~NativeModule();
  NativeModule(const NativeModule&) = delete;
  NativeModule& operator=(const NativeModule&) = delete;

  const std::vector<NativeKernel>& kernels() const { return kernels_; }
  const NativeKernel* forNode(NodeId node) const;
  const NativeKernel* byName(const std::string& name) const;
  /// The optimised module's IR / assembly ("" unless kept); per kernel: its function's part.
  const std::string& ir() const { return ir_; }
  const std::string& assembly() const { return assembly_; }
  std::string kernelIr(const std::string& name) const;
  std::string kernelAssembly(const std::string& name) const;
  /// The host CPU the code was compiled for (`skylake-avx512`) and the widest vector features used.
  const std::string& cpu() const { return cpu_; }
  size_t functionCount() const { return functions_; }  ///< distinct compiled functions
  double optimiseSeconds() const { return optimiseSeconds_; }      ///< emit + -O3
  double machineCodeSeconds() const { return machineCodeSeconds_; }  ///< object code (+ assembly when kept), link, load
  /// True when the library came from the KernelCache (no IR was emitted or optimised, nothing linked).
  bool fromCache() const { return fromCache_; }
  /// Makes every generated kernel call `hook` at its entry and exit (LlvmKernels.h) until as many
  /// releaseHook() calls as holdHook() calls; every holder passes the same hook. Without a holder
  /// the kernels only test the hook's slot (a load and a branch per call).
  void holdHook(KernelHookFn hook) const;
  void releaseHook() const;

private:
  NativeModule();
  std::shared_ptr<const SharedLibrary> library_;
  KernelHookFn* hookSlot_ = nullptr;  ///< the library's `tempo_kernel_hook` (null: no library)
  std::vector<NativeKernel> kernels_;  ///< in node order
  std::string ir_, assembly_, cpu_;
  size_t functions_ = 0;
  bool fromCache_ = false;
  double optimiseSeconds_ = 0, machineCodeSeconds_ = 0;
};

}  // namespace tempo
