#include "types/DType.h"

namespace tempo {

std::string_view dtypeName(DType t) {
  switch (t) {
    case DType::F32: return "f32";
    case DType::F64: return "f64";
    case DType::I32: return "i32";
    case DType::I64: return "i64";
    case DType::Bool: return "bool";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType t : {DType::F32, DType::F64, DType::I32, DType::I64, DType::Bool})
    if (dtypeName(t) == name) return t;
  return std::nullopt;
}

size_t dtypeSize(DType t) {
  switch (t) {
    case DType::F32: case DType::I32: return 4;
    case DType::F64: case DType::I64: return 8;
    case DType::Bool: return 1;
  }
  return 0;
}

bool isFloat(DType t) { return t == DType::F32 || t == DType::F64; }
bool isInteger(DType t) { return t == DType::I32 || t == DType::I64; }

}  // namespace tempo
