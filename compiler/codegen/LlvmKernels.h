// LlvmKernels: LLVM IR for the generated kernels of a KernelProgram.
//
// Every generated kernel (Kernel.h) becomes one function of a single LLVM
// module with one ABI:
//   void k(void* out, const void* const* inputs, const int64_t* dims, int64_t begin, int64_t end)
// `dims` are the output's sizes at this run's bounds and [begin, end) a range of
// its first dimension (rank-0 kernels compute their one element). The body is a
// loop nest over the output; each input's offset advances by its own strides,
// 0 along the dimensions its broadcast pattern repeats it on, so the innermost
// loop reads unit-stride or constant operands for LLVM's loop vectoriser. Each
// step is lowered with exactly the element function of the CPU kernels
// (runtime/kernels/cpu/Elementwise.cpp and FastMath.cpp): f32 arithmetic in
// f32, f32 exp/tanh/sigmoid by the same double-precision polynomial, log, sin,
// cos and pow through libm in double, NaN-propagating maximum/minimum, no
// fast-math flags, so results equal the library kernels bit for bit.
// `llvmLowersStep` says which (op, dtype) pairs have a lowering; kernel
// formation asks it before calling a kernel generated. For the profiler, the
// module defines a pointer `tempo_kernel_hook` (kKernelHookSymbol, null unless a
// trace sets it): every function calls it at its entry and its exit, with its
// index in the module, the phase (0 enter, 1 exit) and `begin`, when it is not
// null, so a call costs a load and a branch while no one listens (NativeModule
// sets it, runtime/trace/KernelTimer listens). The module type is
// opaque here so that callers need no LLVM headers (LlvmModule.h has it).
#pragma once

#include "kernels/Kernel.h"
#include "ops/Op.h"
#include "types/DType.h"

#include <cstdint>
#include <memory>

namespace tempo {

/// True when a step `op` over operands of `operand` dtype giving `result` has an LLVM lowering.
bool llvmLowersStep(OpKind op, DType operand, DType result);

struct LlvmModule;  // an llvm::LLVMContext and llvm::Module (codegen/LlvmModule.h)
struct LlvmModuleDeleter {
  void operator()(LlvmModule* m) const;
};
using LlvmModulePtr = std::unique_ptr<LlvmModule, LlvmModuleDeleter>;

/// The hook every generated function calls at entry (phase 0) and exit (phase 1) when set.
using KernelHookFn = void (*)(int32_t function, int32_t phase, int64_t begin);
/// The name of the module's global holding the hook (a KernelHookFn, null when off).
inline constexpr const char* kKernelHookSymbol = "tempo_kernel_hook";

/// Changes whenever this emitter is rebuilt (its build time): part of KernelCache's keys.
const char* llvmKernelsBuildId();

/// One function per generated kernel of `kernels`, named as the kernel. Throws
/// std::logic_error on a kernel whose steps llvmLowersStep does not cover.
LlvmModulePtr emitLlvmKernels(const KernelProgram& kernels);

}  // namespace tempo
