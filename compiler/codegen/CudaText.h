// CudaText: how the CUDA emitters (CudaKernels, CudaReductions) spell types
// and literals in CUDA C++: storage types (bool as one byte), value types,
// the unsigned twin of an integer type for wrapping arithmetic, and literals
// of each dtype with fromDouble's saturation for integers and bit patterns
// for infinities and NaN. Internal to compiler/codegen.
#pragma once

#include "types/DType.h"

#include <string>

namespace tempo {

std::string storageType(DType d);   ///< float, double, tempo_i32, tempo_i64, tempo_u8 (bool)
std::string valueType(DType d);     ///< bool for bool, else storageType
std::string unsignedType(DType d);  ///< tempo_u32 for i32, tempo_u64 for i64
std::string literal(DType d, double v);

}  // namespace tempo
