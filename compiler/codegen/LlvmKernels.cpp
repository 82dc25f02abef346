// The LLVM IR emitter of generated kernels; see LlvmKernels.h.
#include "codegen/LlvmKernels.h"

#include "codegen/LlvmModule.h"
#include "ops/FastMathConstants.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <bit>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace tempo {

void LlvmModuleDeleter::operator()(LlvmModule* m) const { delete m; }

const char* llvmKernelsBuildId() { return __DATE__ " " __TIME__; }

bool llvmLowersStep(OpKind op, DType operand, DType result) {
  if (op == OpKind::Cast) return true;  // every pair of the five dtypes
  if (isComparison(op)) return result == DType::Bool;
  if (op == OpKind::Where) return result == operand;
  if (result != operand) return false;
  switch (op) {
    case OpKind::Neg: case OpKind::Relu: case OpKind::Abs:
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Maximum: case OpKind::Minimum:
      return isFloat(operand) || isInteger(operand) || (operand == DType::Bool && (op == OpKind::Maximum || op == OpKind::Minimum));
    case OpKind::Exp: case OpKind::Log: case OpKind::Sqrt: case OpKind::Tanh: case OpKind::Sigmoid:
    case OpKind::Sin: case OpKind::Cos: case OpKind::Div: case OpKind::Pow:
      return isFloat(operand);
    case OpKind::Not: case OpKind::And: case OpKind::Or: return operand == DType::Bool;
    default: return false;
  }
}

namespace {

class KernelEmitter {
public:
  KernelEmitter(llvm::LLVMContext& ctx, llvm::Module& m) : ctx_(ctx), m_(m), b_(ctx) {}

  void emit(const Kernel& k) {
    llvm::Type* ptr = b_.getPtrTy();
    llvm::Type* i64 = b_.getInt64Ty();
    auto* type = llvm::FunctionType::get(b_.getVoidTy(), {ptr, ptr, ptr, i64, i64}, false);
    auto* f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, k.name, m_);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->addParamAttr(0, llvm::Attribute::NoAlias);
    const char* names[] = {"out", "inputs", "dims", "begin", "end"};
    for (unsigned i = 0; i < 5; ++i) f->getArg(i)->setName(names[i]);
    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", f));
    const int32_t index = functions_++;
    llvm::Value* hook = b_.CreateLoad(ptr, hookSlot(), "hook");
    callHook(f, hook, index, 0);

    const size_t rank = k.shape.size();
    std::vector<llvm::Value*> dims;
    for (size_t j = 0; j < rank; ++j)
      dims.push_back(b_.CreateLoad(i64, b_.CreateConstInBoundsGEP1_64(i64, f->getArg(2), j), "d" + std::to_string(j)));
    // Per input: its base pointer and its stride along each output dimension (0 where broadcast).
    std::vector<llvm::Value*> bases;
    std::vector<std::vector<llvm::Value*>> strides;
    for (size_t i = 0; i < k.inputs.size(); ++i) {
      bases.push_back(b_.CreateLoad(ptr, b_.CreateConstInBoundsGEP1_64(ptr, f->getArg(1), i), "in" + std::to_string(i)));
      strides.push_back(stridesOf(k.inputs[i].broadcast, dims));
    }
    strides.push_back(stridesOf(std::vector<bool>(rank, false), dims));  // the output's, last

    // Adjacent dimensions that every input reads alike (both broadcast or both not) are one
    // loop: a [B, 2] kernel is one vectorised loop of 2B elements, not B loops of two.
    const std::vector<size_t> last = collapsedGroups(k);  // per loop, its innermost dimension
    std::vector<llvm::Value*> loopDims;
    std::vector<std::vector<llvm::Value*>> loopStrides(strides.size());
    llvm::Value* firstInner = b_.getInt64(1);  // the dimensions the first loop takes after dimension 0
    for (size_t g = 0, first = 0; g < last.size(); first = last[g] + 1, ++g) {
      llvm::Value* size = dims[first];
      for (size_t j = first + 1; j <= last[g]; ++j) {
        size = b_.CreateMul(size, dims[j], "", true, true);
        if (g == 0) firstInner = b_.CreateMul(firstInner, dims[j], "", true, true);
      }
      loopDims.push_back(size);
      for (size_t i = 0; i < strides.size(); ++i) loopStrides[i].push_back(strides[i][last[g]]);
    }
    const size_t loops = loopDims.size();

    std::vector<llvm::Value*> ivs;
    std::function<void(size_t)> nest = [&](size_t j) {
      if (j == loops) {
        element(k, bases, loopStrides, ivs, f->getArg(0));
        return;
      }
      llvm::Value* lo = j == 0 ? b_.CreateMul(f->getArg(3), firstInner, "", true, true) : b_.getInt64(0);
      llvm::Value* hi = j == 0 ? b_.CreateMul(f->getArg(4), firstInner, "", true, true) : loopDims[j];
      loop(lo, hi, "i" + std::to_string(j), j + 1 < loops, [&](llvm::Value* iv) {
        ivs.push_back(iv);
        nest(j + 1);
        ivs.pop_back();
      });
    };
    nest(0);
    callHook(f, hook, index, 1);
    b_.CreateRetVoid();
  }

private:
  /// The module's `tempo_kernel_hook` (made at the first use).
  llvm::GlobalVariable* hookSlot() {
    if (!hookSlot_)
      hookSlot_ = new llvm::GlobalVariable(m_, b_.getPtrTy(), false, llvm::GlobalValue::ExternalLinkage,
                                           llvm::ConstantPointerNull::get(b_.getPtrTy()), kKernelHookSymbol);
    return hookSlot_;
  }

  /// `if (hook) hook(index, phase, begin);`, the call on a cold path of its own.
  void callHook(llvm::Function* f, llvm::Value* hook, int32_t index, int32_t phase) {
    auto* on = llvm::BasicBlock::Create(ctx_, phase == 0 ? "hook.enter" : "hook.exit", f);
    auto* after = llvm::BasicBlock::Create(ctx_, phase == 0 ? "body" : "return", f);
    llvm::MDBuilder weights(ctx_);
    b_.CreateCondBr(b_.CreateIsNotNull(hook), on, after, weights.createBranchWeights(1, 1 << 20));
    b_.SetInsertPoint(on);
    auto* type = llvm::FunctionType::get(b_.getVoidTy(), {b_.getInt32Ty(), b_.getInt32Ty(), b_.getInt64Ty()}, false);
    b_.CreateCall(type, hook, {b_.getInt32(index), b_.getInt32(phase), f->getArg(3)});
    b_.CreateBr(after);
    b_.SetInsertPoint(after);
  }

  llvm::Type* typeOf(DType d) {
    switch (d) {
      case DType::F32: return b_.getFloatTy();
      case DType::F64: return b_.getDoubleTy();
      case DType::I32: return b_.getInt32Ty();
      case DType::I64: return b_.getInt64Ty();
      case DType::Bool: return b_.getInt8Ty();
    }
    return nullptr;
  }

  /// The kernel's dimensions grouped into loops, as the innermost dimension of each group:
  /// dimension j + 1 joins j's group when every input is broadcast along both or along neither.
  static std::vector<size_t> collapsedGroups(const Kernel& k) {
    std::vector<size_t> last;
    for (size_t j = 0; j < k.shape.size(); ++j) {
      bool alike = j > 0;
      for (const KernelInput& in : k.inputs) alike = alike && in.broadcast[j] == in.broadcast[j - 1];
      if (alike) last.back() = j;
      else last.push_back(j);
    }
    return last;
  }

  /// Row-major strides of a tensor of the output's rank whose `broadcast` dims have size 1, as 0 there.
  std::vector<llvm::Value*> stridesOf(const std::vector<bool>& broadcast, const std::vector<llvm::Value*>& dims) {
    std::vector<llvm::Value*> out(dims.size());
    llvm::Value* stride = b_.getInt64(1);
    for (size_t j = dims.size(); j-- > 0;) {
      if (broadcast[j]) {
        out[j] = b_.getInt64(0);
      } else {
        out[j] = stride;
        stride = b_.CreateMul(stride, dims[j], "", true, true);
      }
    }
    return out;
  }

  /// for (iv = lo; iv < hi; ++iv) body(iv), leaving the builder after the loop. An outer loop
  /// (`outer`) is marked not to be unrolled: -O3 would otherwise unroll it 8 times at run time
  /// around its vectorised inner loop, which gains nothing and made 8 copies of every inner loop
  /// (code generation then spent half its time in loop strength reduction on them).
  void loop(llvm::Value* lo, llvm::Value* hi, const std::string& name, bool outer,
            const std::function<void(llvm::Value*)>& body) {
    llvm::Function* f = b_.GetInsertBlock()->getParent();
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(ctx_, name, f);
    auto* exit = llvm::BasicBlock::Create(ctx_, name + ".end", f);
    b_.CreateCondBr(b_.CreateICmpSLT(lo, hi), header, exit);
    b_.SetInsertPoint(header);
    llvm::PHINode* iv = b_.CreatePHI(b_.getInt64Ty(), 2, name);
    iv->addIncoming(lo, pre);
    body(iv);
    llvm::Value* next = b_.CreateAdd(iv, b_.getInt64(1), name + ".next", true, true);
    iv->addIncoming(next, b_.GetInsertBlock());
    llvm::BranchInst* latch = b_.CreateCondBr(b_.CreateICmpSLT(next, hi), header, exit);
    if (outer) {
      llvm::MDNode* noUnroll = llvm::MDNode::get(ctx_, llvm::MDString::get(ctx_, "llvm.loop.unroll.disable"));
      llvm::MDNode* id = llvm::MDNode::getDistinct(ctx_, {nullptr, noUnroll});
      id->replaceOperandWith(0, id);  // a loop's id names itself
      latch->setMetadata(llvm::LLVMContext::MD_loop, id);
    }
    b_.SetInsertPoint(exit);
  }

  llvm::Value* offset(const std::vector<llvm::Value*>& strides, const std::vector<llvm::Value*>& ivs) {
    llvm::Value* off = b_.getInt64(0);
    for (size_t j = 0; j < ivs.size(); ++j) off = b_.CreateAdd(off, b_.CreateMul(ivs[j], strides[j], "", true, true), "", true, true);
    return off;
  }

  llvm::Value* load(DType d, llvm::Value* base, llvm::Value* off) {
    llvm::Value* v = b_.CreateLoad(typeOf(d), b_.CreateInBoundsGEP(typeOf(d), base, off));
    return d == DType::Bool ? b_.CreateICmpNE(v, b_.getInt8(0)) : v;
  }

  void store(DType d, llvm::Value* v, llvm::Value* base, llvm::Value* off) {
    if (d == DType::Bool) v = b_.CreateZExt(v, b_.getInt8Ty());
    b_.CreateStore(v, b_.CreateInBoundsGEP(typeOf(d), base, off));
  }

  void element(const Kernel& k, const std::vector<llvm::Value*>& bases,
               const std::vector<std::vector<llvm::Value*>>& strides, const std::vector<llvm::Value*>& ivs,
               llvm::Value* out) {
    std::vector<llvm::Value*> inputs;
    for (size_t i = 0; i < k.inputs.size(); ++i) inputs.push_back(load(k.inputs[i].dtype, bases[i], offset(strides[i], ivs)));
    std::vector<llvm::Value*> steps;
    std::vector<DType> stepDTypes;
    for (const FusedStep& s : k.program) {
      std::vector<llvm::Value*> args;
      std::vector<DType> argDTypes;
      for (const FusedOperand& o : s.operands) {
        if (o.kind == FusedOperand::Kind::Input) args.push_back(inputs.at(o.index)), argDTypes.push_back(k.inputs[o.index].dtype);
        else if (o.kind == FusedOperand::Kind::Step) args.push_back(steps.at(o.index)), argDTypes.push_back(stepDTypes[o.index]);
        else args.push_back(literal(o.dtype, o.value)), argDTypes.push_back(o.dtype);
      }
      DType operand = argDTypes[s.op == OpKind::Where ? 1 : 0];
      if (!llvmLowersStep(s.op, operand, s.dtype))
        throw std::logic_error("kernel " + k.name + ": no LLVM lowering of " + std::string(opName(s.op)));
      steps.push_back(step(s.op, operand, s.dtype, args));
      stepDTypes.push_back(s.dtype);
    }
    store(k.dtype, steps.back(), out, offset(strides.back(), ivs));
  }

  llvm::Value* literal(DType d, double v) {
    switch (d) {
      case DType::F32: return llvm::ConstantFP::get(b_.getFloatTy(), static_cast<double>(static_cast<float>(v)));
      case DType::F64: return llvm::ConstantFP::get(b_.getDoubleTy(), v);
      case DType::I32: return b_.getInt32(static_cast<uint32_t>(saturate<int32_t>(v)));
      case DType::I64: return b_.getInt64(static_cast<uint64_t>(saturate<int64_t>(v)));
      case DType::Bool: return b_.getInt1(v != 0);
    }
    return nullptr;
  }

  /// fromDouble's integer conversion (DTypeDispatch.h): NaN to 0, out of range to the limits.
  template <class T> static T saturate(double v) {
    if (v != v) return 0;
    const double lo = -static_cast<double>(std::numeric_limits<T>::max()) - 1.0;
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    if (v <= lo) return std::numeric_limits<T>::min();
    if (v >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  }

  llvm::Value* dbl(double v) { return llvm::ConstantFP::get(b_.getDoubleTy(), v); }
  llvm::Value* toDouble(llvm::Value* v) { return v->getType()->isDoubleTy() ? v : b_.CreateFPExt(v, b_.getDoubleTy()); }
  llvm::Value* fromDoubleTo(llvm::Type* t, llvm::Value* v) { return t->isDoubleTy() ? v : b_.CreateFPTrunc(v, t); }

  llvm::Value* libm(const char* name, std::vector<llvm::Value*> args) {
    std::vector<llvm::Type*> params(args.size(), b_.getDoubleTy());
    llvm::FunctionCallee fn = m_.getOrInsertFunction(name, llvm::FunctionType::get(b_.getDoubleTy(), params, false));
    return b_.CreateCall(fn, args);
  }

  llvm::Value* flt(float v) { return llvm::ConstantFP::get(b_.getFloatTy(), double(v)); }
  llvm::Value* fma(llvm::Value* x, llvm::Value* y, llvm::Value* z) {
    return b_.CreateIntrinsic(llvm::Intrinsic::fma, {x->getType()}, {x, y, z});
  }

  /// FastMath.cpp's clampF: x < lo ? lo : (x > hi ? hi : x), keeping NaN.
  llvm::Value* clampF(llvm::Value* x, float lo, float hi) {
    llvm::Value* upper = b_.CreateSelect(b_.CreateFCmpOGT(x, flt(hi)), flt(hi), x);
    return b_.CreateSelect(b_.CreateFCmpOLT(x, flt(lo)), flt(lo), upper);
  }

  /// FastMath.cpp's expCoreF32, operation for operation (the same float constants, the same
  /// explicit fmas), so a generated exp gives the library kernel's bits.
  llvm::Value* expCoreF32(llvm::Value* x) {
    using namespace fastmath;
    x = clampF(x, kExpLow, kExpHigh);
    llvm::Value* kd = fma(x, flt(kLog2e), flt(kRoundShifter));
    llvm::Value* k = b_.CreateSub(b_.CreateBitCast(kd, b_.getInt32Ty()), b_.getInt32(std::bit_cast<uint32_t>(kRoundShifter)));
    kd = b_.CreateFSub(kd, flt(kRoundShifter));
    llvm::Value* r = fma(b_.CreateFNeg(kd), flt(kLn2Hi), x);
    r = fma(b_.CreateFNeg(kd), flt(kLn2Lo), r);
    llvm::Value* p = flt(kExpPolynomial[0]);
    for (size_t i = 1; i < std::size(kExpPolynomial); ++i) p = fma(p, r, flt(kExpPolynomial[i]));
    llvm::Value* half = b_.CreateAShr(k, 1);
    auto power = [&](llvm::Value* e) {
      return b_.CreateBitCast(b_.CreateShl(b_.CreateAdd(e, b_.getInt32(127)), 23), b_.getFloatTy());
    };
    return b_.CreateFMul(b_.CreateFMul(p, power(half)), power(b_.CreateSub(k, half)));
  }

  /// FastMath.cpp's sigmoidCoreF32: e^-|x| in float, the division in double.
  llvm::Value* sigmoidCoreF32(llvm::Value* x) {
    llvm::Value* e = b_.CreateFPExt(expCoreF32(b_.CreateFNeg(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x))), b_.getDoubleTy());
    llvm::Value* numerator = b_.CreateSelect(b_.CreateFCmpOLT(x, flt(0.0f)), e, dbl(1.0));
    return b_.CreateFPTrunc(b_.CreateFDiv(numerator, b_.CreateFAdd(dbl(1.0), e)), b_.getFloatTy());
  }

  /// FastMath.cpp's tanhCoreF32, operation for operation.
  llvm::Value* tanhCoreF32(llvm::Value* x) {
    using namespace fastmath;
    llvm::Value* d = clampF(x, -kTanhClamp, kTanhClamp);
    llvm::Value* a = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, d);
    llvm::Value* a2 = b_.CreateFMul(a, a);
    llvm::Value* s = flt(kTanhSeries[0]);
    for (size_t i = 1; i < std::size(kTanhSeries); ++i) s = fma(a2, s, flt(kTanhSeries[i]));
    llvm::Value* sum = fma(a, b_.CreateFMul(a2, s), a);
    llvm::Value* e = expCoreF32(b_.CreateFAdd(a, a));
    llvm::Value* big = b_.CreateFSub(flt(1.0f), b_.CreateFDiv(flt(2.0f), b_.CreateFAdd(e, flt(1.0f))));
    llvm::Value* t = b_.CreateSelect(b_.CreateFCmpOLT(a, flt(kTanhSeriesBelow)), sum, big);
    return b_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, t, d);
  }

  llvm::Value* step(OpKind op, DType operand, DType result, const std::vector<llvm::Value*>& a) {
    if (op == OpKind::Cast) return cast(a[0], operand, result);
    if (op == OpKind::Where) return b_.CreateSelect(a[0], a[1], a[2]);
    if (isFloat(operand)) return floatStep(op, operand, a);
    if (isInteger(operand)) return intStep(op, a);
    return boolStep(op, a);
  }

  llvm::Value* floatStep(OpKind op, DType operand, const std::vector<llvm::Value*>& a) {
    llvm::Type* t = typeOf(operand);
    bool f32 = operand == DType::F32;
    auto nan = [&](llvm::Value* v) { return b_.CreateFCmpUNO(v, v); };
    switch (op) {
      case OpKind::Neg: return b_.CreateFNeg(a[0]);
      case OpKind::Sqrt: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, a[0]);
      case OpKind::Abs: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a[0]);
      case OpKind::Relu:
        return b_.CreateSelect(b_.CreateFCmpOLT(a[0], llvm::ConstantFP::get(t, 0.0)), llvm::ConstantFP::get(t, 0.0), a[0]);
      case OpKind::Exp: return f32 ? expCoreF32(a[0]) : libm("exp", {a[0]});
      case OpKind::Tanh: return f32 ? tanhCoreF32(a[0]) : libm("tanh", {a[0]});
      case OpKind::Sigmoid:
        if (f32) return sigmoidCoreF32(a[0]);
        return b_.CreateFDiv(dbl(1.0), b_.CreateFAdd(dbl(1.0), libm("exp", {b_.CreateFNeg(a[0])})));
      case OpKind::Log: return fromDoubleTo(t, libm("log", {toDouble(a[0])}));
      case OpKind::Sin: return fromDoubleTo(t, libm("sin", {toDouble(a[0])}));
      case OpKind::Cos: return fromDoubleTo(t, libm("cos", {toDouble(a[0])}));
      case OpKind::Pow: return fromDoubleTo(t, libm("pow", {toDouble(a[0]), toDouble(a[1])}));
      case OpKind::Add: return b_.CreateFAdd(a[0], a[1]);
      case OpKind::Sub: return b_.CreateFSub(a[0], a[1]);
      case OpKind::Mul: return b_.CreateFMul(a[0], a[1]);
      case OpKind::Div: return b_.CreateFDiv(a[0], a[1]);
      case OpKind::Maximum:  // a != a ? a : b != b ? b : (a < b ? b : a)
        return b_.CreateSelect(nan(a[0]), a[0], b_.CreateSelect(nan(a[1]), a[1], b_.CreateSelect(b_.CreateFCmpOLT(a[0], a[1]), a[1], a[0])));
      case OpKind::Minimum:  // a != a ? a : b != b ? b : (b < a ? b : a)
        return b_.CreateSelect(nan(a[0]), a[0], b_.CreateSelect(nan(a[1]), a[1], b_.CreateSelect(b_.CreateFCmpOLT(a[1], a[0]), a[1], a[0])));
      case OpKind::Lt: return b_.CreateFCmpOLT(a[0], a[1]);
      case OpKind::Le: return b_.CreateFCmpOLE(a[0], a[1]);
      case OpKind::Gt: return b_.CreateFCmpOGT(a[0], a[1]);
      case OpKind::Ge: return b_.CreateFCmpOGE(a[0], a[1]);
      case OpKind::Eq: return b_.CreateFCmpOEQ(a[0], a[1]);
      case OpKind::Ne: return b_.CreateFCmpUNE(a[0], a[1]);
      default: break;
    }
    throw std::logic_error("no float lowering of " + std::string(opName(op)));
  }

  llvm::Value* intStep(OpKind op, const std::vector<llvm::Value*>& a) {
    llvm::Value* zero = llvm::ConstantInt::get(a[0]->getType(), 0);
    switch (op) {
      case OpKind::Neg: return b_.CreateSub(zero, a[0]);
      case OpKind::Relu: return b_.CreateSelect(b_.CreateICmpSLT(a[0], zero), zero, a[0]);
      case OpKind::Abs: return b_.CreateSelect(b_.CreateICmpSLT(a[0], zero), b_.CreateSub(zero, a[0]), a[0]);
      case OpKind::Add: return b_.CreateAdd(a[0], a[1]);
      case OpKind::Sub: return b_.CreateSub(a[0], a[1]);
      case OpKind::Mul: return b_.CreateMul(a[0], a[1]);
      case OpKind::Maximum: return b_.CreateSelect(b_.CreateICmpSLT(a[0], a[1]), a[1], a[0]);
      case OpKind::Minimum: return b_.CreateSelect(b_.CreateICmpSLT(a[1], a[0]), a[1], a[0]);
      case OpKind::Lt: return b_.CreateICmpSLT(a[0], a[1]);
      case OpKind::Le: return b_.CreateICmpSLE(a[0], a[1]);
      case OpKind::Gt: return b_.CreateICmpSGT(a[0], a[1]);
      case OpKind::Ge: return b_.CreateICmpSGE(a[0], a[1]);
      case OpKind::Eq: return b_.CreateICmpEQ(a[0], a[1]);
      case OpKind::Ne: return b_.CreateICmpNE(a[0], a[1]);
      default: break;
    }
    throw std::logic_error("no integer lowering of " + std::string(opName(op)));
  }

  llvm::Value* boolStep(OpKind op, const std::vector<llvm::Value*>& a) {
    switch (op) {
      case OpKind::Not: return b_.CreateNot(a[0]);
      case OpKind::And: case OpKind::Minimum: return b_.CreateAnd(a[0], a[1]);
      case OpKind::Or: case OpKind::Maximum: return b_.CreateOr(a[0], a[1]);
      case OpKind::Lt: return b_.CreateICmpULT(a[0], a[1]);
      case OpKind::Le: return b_.CreateICmpULE(a[0], a[1]);
      case OpKind::Gt: return b_.CreateICmpUGT(a[0], a[1]);
      case OpKind::Ge: return b_.CreateICmpUGE(a[0], a[1]);
      case OpKind::Eq: return b_.CreateICmpEQ(a[0], a[1]);
      case OpKind::Ne: return b_.CreateICmpNE(a[0], a[1]);
      default: break;
    }
    throw std::logic_error("no bool lowering of " + std::string(opName(op)));
  }

  /// DTypeDispatch.h's convertElement: integers among themselves directly (to
  /// bool: != 0), everything else through double and fromDouble.
  llvm::Value* cast(llvm::Value* v, DType from, DType to) {
    if (from == to) return v;
    llvm::Type* target = to == DType::Bool ? b_.getInt1Ty() : typeOf(to);
    if (!isFloat(from)) {
      if (to == DType::Bool) return b_.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
      if (isInteger(to)) return from == DType::Bool ? b_.CreateZExt(v, target) : b_.CreateSExtOrTrunc(v, target);
      llvm::Value* d = from == DType::Bool ? b_.CreateUIToFP(v, b_.getDoubleTy()) : b_.CreateSIToFP(v, b_.getDoubleTy());
      return fromDoubleTo(target, d);
    }
    llvm::Value* d = toDouble(v);
    if (isFloat(to)) return fromDoubleTo(target, d);
    if (to == DType::Bool) return b_.CreateFCmpUNE(d, dbl(0));
    bool i32 = to == DType::I32;
    double hi = i32 ? static_cast<double>(std::numeric_limits<int32_t>::max())
                    : static_cast<double>(std::numeric_limits<int64_t>::max());
    double lo = -hi - 1.0;
    llvm::Value* minV = llvm::ConstantInt::get(target, i32 ? uint64_t(uint32_t(std::numeric_limits<int32_t>::min()))
                                                           : uint64_t(std::numeric_limits<int64_t>::min()));
    llvm::Value* maxV = llvm::ConstantInt::get(target, i32 ? uint64_t(std::numeric_limits<int32_t>::max())
                                                           : uint64_t(std::numeric_limits<int64_t>::max()));
    // fptosi of an out-of-range value is poison, but the selects never choose it there.
    llvm::Value* inRange = b_.CreateFreeze(b_.CreateFPToSI(d, target));
    llvm::Value* r = b_.CreateSelect(b_.CreateFCmpOGE(d, dbl(hi)), maxV, inRange);
    r = b_.CreateSelect(b_.CreateFCmpOLE(d, dbl(lo)), minV, r);
    return b_.CreateSelect(b_.CreateFCmpUNO(d, d), llvm::ConstantInt::get(target, 0), r);
  }

  llvm::LLVMContext& ctx_;
  llvm::Module& m_;
  llvm::IRBuilder<> b_;
  llvm::GlobalVariable* hookSlot_ = nullptr;
  int32_t functions_ = 0;  ///< emitted so far: the next function's index
};

}  // namespace

LlvmModulePtr emitLlvmKernels(const KernelProgram& kernels) {
  LlvmModulePtr out(new LlvmModule);
  out->context = std::make_unique<llvm::LLVMContext>();
  out->module = std::make_unique<llvm::Module>("tempo_kernels", *out->context);
  KernelEmitter emitter(*out->context, *out->module);
  for (const Kernel& k : kernels.kernels)
    if (k.kind == KernelKind::Generated) emitter.emit(k);
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*out->module, &os)) throw std::logic_error("generated LLVM IR does not verify: " + os.str());
  return out;
}

}  // namespace tempo
