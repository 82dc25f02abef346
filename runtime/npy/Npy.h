// Npy: reading and writing NumPy `.npy` files as Tensors.
//
// Weights and inputs travel between Tempo and its peer implementations as
// `.npy` files. This reader accepts format versions 1.0, 2.0 and 3.0, the
// dtypes '<f4', '<f8', '<i4', '<i8' and '|b1', little-endian, C order only
// (fortran_order False); the header dict may list its keys in any order.
// Every malformed input produces an NpyError whose message starts with the
// file name and says what is wrong; no byte sequence crashes the parser.
// Trailing bytes after the data are ignored, as numpy.load does; arrays of
// more than 2^48 elements are rejected. The host must be little endian.
// The writer produces version 1.0 files byte-identical to numpy.save's
// (sorted keys, 21-digit growth space after the dict, header padded with
// spaces to a 64-byte boundary and ended by '\n').
#pragma once

#include "tensor/Tensor.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace tempo {

class NpyError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Parses the bytes of a .npy file; `nameForErrors` prefixes messages ("x.npy: ...").
Tensor parseNpy(std::string_view bytes, const std::string& nameForErrors);
/// Reads a .npy file; throws NpyError ("cannot open ...") if it cannot be read.
Tensor readNpy(const std::string& path);
/// The bytes numpy.save would write for `t`.
std::string serializeNpy(const Tensor& t);
/// Writes `t` as a version 1.0 .npy file; throws NpyError if the file cannot be written.
void writeNpy(const std::string& path, const Tensor& t);

}  // namespace tempo
