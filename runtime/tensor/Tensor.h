// Tensor: a dense host tensor, the value type of the runtime.
//
// A Tensor has a dtype, a shape (row-major / C order) and a byte buffer it
// owns through a shared pointer: copying a Tensor is cheap and shares the
// buffer, `clone()` makes a deep copy. Mutating accessors (`data<T>()`,
// `raw()`, `set`) are meant for freshly created tensors only, so sharing is
// never observable. A window (`window`, what the CPU slice kernel returns
// for a slice that is one contiguous run) shares its tensor's buffer from an
// offset, so it keeps the whole buffer alive (bufferId / bufferBytes let the
// memory tracker count a shared buffer once). A strided view (`permutedView`,
// `expandedView`: what a permute or expand the compiler marked as a view returns)
// shares the buffer too but walks it with its own element strides; only kernels
// that read strides (`viewData` + `strides()`) may take one as it is, everything
// else asks for `contiguous()`, and `data<T>()` / `raw()` on a strided view throw
// std::logic_error rather than hand out a pointer that would be read in the wrong
// order. Element access is typed (`data<T>()` checks T against the
// dtype) or converting (`at`/`set` go through double). The helpers here —
// reshaping, indexing leading axes, stacking, casting and a short printed
// summary — are what the reference interpreter and the tests need.
#pragma once

#include "tensor/BufferPool.h"
#include "tensor/DTypeDispatch.h"
#include "types/DType.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tempo {

class Tensor {
public:
  Tensor();                                         ///< f32 scalar 0
  Tensor(DType dtype, std::vector<int64_t> shape);  ///< zero-filled; throws std::invalid_argument on a negative dim
  /// A tensor whose elements are not initialised: for a kernel that writes every element
  /// before anything reads one (the zero-fill would be a second pass over the output).
  /// `pages`: PageHint::Small for a buffer whose back may never be written (BufferPool.h).
  static Tensor uninitialized(DType dtype, std::vector<int64_t> shape, PageHint pages = PageHint::Huge);
  static Tensor scalar(DType dtype, double value);
  static Tensor full(DType dtype, std::vector<int64_t> shape, double value);

  DType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return static_cast<size_t>(numel_) * dtypeSize(dtype_); }

  /// Typed element pointer; throws std::logic_error if T is not the dtype's type.
  template <class T> T* data() {
    checkType(dtypeOf<T>());
    return reinterpret_cast<T*>(raw());
  }
  template <class T> const T* data() const {
    checkType(dtypeOf<T>());
    return reinterpret_cast<const T*>(raw());
  }
  void* raw() {
    if (!strides_.empty()) stridedAccess();
    return buffer_->data() + offset_;
  }
  const void* raw() const {
    if (!strides_.empty()) stridedAccess();
    return buffer_->data() + offset_;
  }

  /// False for a strided view (permuted or broadcast): its elements are not one C-order run.
  bool isContiguous() const { return strides_.empty(); }
  /// Element strides, one per axis (the C-order ones for a contiguous tensor; 0 on a broadcast axis).
  std::vector<int64_t> strides() const;
  /// Element 0 of a tensor of any layout, for kernels that walk `strides()`.
  template <class T> const T* viewData() const {
    checkType(dtypeOf<T>());
    return reinterpret_cast<const T*>(buffer_->data() + offset_);
  }
  const void* viewRaw() const { return buffer_->data() + offset_; }
  /// The permutation as a view (no copy): axis i of the result is axis perm[i] of this
  /// tensor. throws std::invalid_argument unless `perm` is a permutation of the axes.
  Tensor permutedView(const std::vector<int64_t>& perm) const;
  /// The last two axes swapped, as a view (this tensor itself below rank 2).
  Tensor transposedView() const;
  /// NumPy broadcast to `shape` as a view (no copy, stride 0 on stretched axes);
  /// throws std::invalid_argument unless this shape broadcasts to `shape`.
  Tensor expandedView(const std::vector<int64_t>& shape) const;
  /// This tensor when contiguous; a strided view's elements copied in C order to a fresh buffer.
  Tensor contiguous() const;

  /// Element at a flat (C-order) index, converted to double; throws std::out_of_range.
  double at(int64_t flat) const;
  /// Stores `value` converted to the dtype (see fromDouble: bool is value != 0,
  /// integers truncate toward zero); throws std::out_of_range.
  void set(int64_t flat, double value);

  Tensor clone() const;  ///< deep copy (contiguous)
  /// Same elements, new shape (shares the buffer; a strided view is copied first);
  /// throws std::invalid_argument unless numel matches.
  Tensor reshaped(std::vector<int64_t> shape) const;
  /// The elements [first, first + numel(shape)) in C order as a tensor of
  /// `shape` sharing the buffer (no copy; of a strided view's contiguous copy);
  /// throws std::out_of_range unless inside.
  Tensor window(int64_t first, std::vector<int64_t> shape) const;
  /// Copy of the sub-tensor at fixed leading indices (shape = the trailing
  /// dims); throws std::out_of_range on a bad index or too many indices.
  Tensor index(const std::vector<int64_t>& leading) const;
  /// The same sub-tensor as a window sharing the buffer (no copy).
  Tensor viewAt(const std::vector<int64_t>& leading) const;

  /// The buffer's identity: equal for copies, reshapes and windows of one tensor.
  const void* bufferId() const { return buffer_.get(); }
  /// Bytes of the whole buffer (more than nbytes() for a window).
  size_t bufferBytes() const { return buffer_->size(); }
  bool sharesBufferWith(const Tensor& other) const { return buffer_ == other.buffer_; }
  /// True when no other tensor holds this one's buffer (a freshly made value).
  bool ownsBufferAlone() const { return buffer_.use_count() == 1; }
  /// Stacks `parts` along a new leading axis: shape {parts.size(), partShape...}.
  /// Every part must have `dtype` and `partShape` (std::invalid_argument otherwise).
  /// Parts that already lie one after the other in one buffer (consecutive windows,
  /// as a source's points are) give a window of that buffer, not a copy. A copy
  /// goes into `recycled`'s buffer when it is given, holds at least the stack's
  /// bytes and no other tensor holds it (the caller's scratch of an earlier stack).
  static Tensor stack(const std::vector<Tensor>& parts, DType dtype, const std::vector<int64_t>& partShape,
                      const Tensor* recycled = nullptr);
  /// Element-wise cast (same conversion rules as `set`; bool -> 0/1).
  Tensor converted(DType to) const;

  /// `f32[2, 3] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]`; a scalar prints `f32[] = 0.5`.
  /// At most `maxValues` values: beyond that the first ceil(maxValues/2) and
  /// last floor(maxValues/2) are shown around `...`. Floats print with %.6g,
  /// integers exactly, bools as true/false.
  std::string summary(int maxValues = 6) const;

private:
  void checkType(DType requested) const;
  void checkFlat(int64_t flat) const;
  [[noreturn]] void stridedAccess() const;
  /// The element offset of flat (C-order) index `flat` in the buffer, from element 0.
  int64_t elementOffset(int64_t flat) const;

  DType dtype_ = DType::F32;
  std::vector<int64_t> shape_;
  int64_t numel_ = 1;
  /// Bytes left unset when allocated, reused from BufferPool when small; the zeroing constructor zeroes.
  using Buffer = TensorBuffer;
  struct Uninitialized {};
  Tensor(DType dtype, std::vector<int64_t> shape, Uninitialized, PageHint pages = PageHint::Huge);
  std::shared_ptr<Buffer> buffer_;
  size_t offset_ = 0;  ///< bytes from the buffer's start to element 0 (non-zero for a window)
  std::vector<int64_t> strides_;  ///< element strides of a strided view; empty when contiguous
};

/// Number of elements of a shape; throws std::invalid_argument on a negative dim or overflow.
int64_t shapeNumel(const std::vector<int64_t>& shape);
/// `[2, 3]`.
std::string shapeString(const std::vector<int64_t>& shape);

}  // namespace tempo
