// DType: the element types of tensors (f32, f64, i32, i64, bool).
//
// A small closed set with its spelling in the language, its size in bytes and
// the classification the checker needs (floating, integer, boolean).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tempo {

enum class DType { F32, F64, I32, I64, Bool };

std::string_view dtypeName(DType t);                        ///< "f32", ...
std::optional<DType> parseDType(std::string_view name);     ///< inverse of dtypeName
size_t dtypeSize(DType t);                                  ///< bytes per element
bool isFloat(DType t);
bool isInteger(DType t);                                    ///< i32, i64 (not bool)

}  // namespace tempo
