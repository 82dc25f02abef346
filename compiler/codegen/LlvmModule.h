// LlvmModule: the LLVM context and module behind LlvmModulePtr.
//
// Private to compiler/codegen: only the emitter and the native module (which
// optimises and JIT-compiles it) include LLVM's headers.
#pragma once

#include "codegen/LlvmKernels.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>

namespace tempo {

struct LlvmModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};

}  // namespace tempo
