// Safetensors: reading tensors out of Hugging Face `.safetensors` checkpoints.
//
// The format (huggingface/safetensors): 8 bytes holding N, a little-endian u64,
// then N bytes of a JSON object (UTF-8, possibly padded with spaces) mapping each
// tensor's name to {"dtype", "shape", "data_offsets": [begin, end]} (offsets into
// the bytes after the header) plus an optional "__metadata__" object of strings,
// then the tensors' bytes, little-endian, C order. `readSafetensorsIndex` reads and
// validates the header only — every entry's dtype known, its shape non-negative,
// its byte range the size its dtype and shape need and inside the file (a file cut
// short names the tensor whose bytes are missing), no two ranges overlapping — so a
// checkpoint of gigabytes is opened without reading its data. `readSafetensor` then
// reads one tensor's bytes and converts them to the dtype a program declares when
// the conversion is exact: F16 and BF16 widen to f32 or f64, F32 to f64, I32 to
// i64, BOOL to bool; anything else (a narrowing, or a dtype Tempo has no type for,
// such as I8) is an error that says which. Every malformed input is a
// SafetensorsError whose message starts with the file's name; none crashes.
#pragma once

#include "tensor/Tensor.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tempo {

class SafetensorsError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct SafetensorsEntry {
  std::string dtype;           ///< as the file names it: F32, F16, BF16, F64, I32, I64, BOOL, ...
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;  ///< byte range in the data section
};

struct SafetensorsIndex {
  std::string path;
  uint64_t dataStart = 0;  ///< file offset of the data section (8 + header length)
  std::map<std::string, SafetensorsEntry> tensors;
  std::map<std::string, std::string> metadata;  ///< "__metadata__"
  /// The entry named `name`; SafetensorsError naming the file and, when there are
  /// any, the names that differ least from it, when it has none.
  const SafetensorsEntry& at(const std::string& name) const;
};

/// The header of the file at `path`, validated.
SafetensorsIndex readSafetensorsIndex(const std::string& path);

/// Whether values of the file's `dtype` convert exactly to `want` (the same dtype, or a widening).
bool safetensorsConverts(const std::string& dtype, DType want);

/// Tensor `name` of the file, converted exactly to `want`.
Tensor readSafetensor(const SafetensorsIndex& index, const std::string& name, DType want);

/// The bytes of a .safetensors file holding `tensors` (in name order, each in its own
/// dtype: F32, F64, I32, I64 or BOOL), with `metadata`: for tests and the tools that make
/// checkpoints. The header is padded with spaces to a multiple of 8 bytes.
std::string serializeSafetensors(const std::map<std::string, Tensor>& tensors,
                                 const std::map<std::string, std::string>& metadata = {});

}  // namespace tempo
