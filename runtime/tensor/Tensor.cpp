#include "tensor/Tensor.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>

namespace tempo {

int64_t shapeNumel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw std::invalid_argument("negative dimension in shape " + shapeString(shape));
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d)
      throw std::invalid_argument("shape " + shapeString(shape) + " has too many elements");
    n *= d;
  }
  return n;
}

std::string shapeString(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Tensor::Tensor() : Tensor(DType::F32, {}) {}

Tensor::Tensor(DType dtype, std::vector<int64_t> shape) : Tensor(dtype, std::move(shape), Uninitialized{}) {
  std::fill(buffer_->begin(), buffer_->end(), std::byte{0});
}

Tensor::Tensor(DType dtype, std::vector<int64_t> shape, Uninitialized, PageHint pages)
    : dtype_(dtype), shape_(std::move(shape)), numel_(shapeNumel(shape_)) {
  if (static_cast<uint64_t>(numel_) > std::numeric_limits<size_t>::max() / 8)
    throw std::invalid_argument("tensor too large: " + shapeString(shape_));
  buffer_ = acquireBuffer(nbytes(), pages);
}

Tensor Tensor::uninitialized(DType dtype, std::vector<int64_t> shape, PageHint pages) {
  return Tensor(dtype, std::move(shape), Uninitialized{}, pages);
}

Tensor Tensor::scalar(DType dtype, double value) { return full(dtype, {}, value); }

Tensor Tensor::full(DType dtype, std::vector<int64_t> shape, double value) {
  Tensor t(dtype, std::move(shape));
  visitDType(dtype, [&]<class T>() {
    T v = fromDouble<T>(value);
    T* p = t.data<T>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = v;
  });
  return t;
}

void Tensor::checkType(DType requested) const {
  if (requested != dtype_)
    throw std::logic_error("Tensor::data<" + std::string(dtypeName(requested)) + ">() on a " +
                           std::string(dtypeName(dtype_)) + " tensor");
}

void Tensor::checkFlat(int64_t flat) const {
  if (flat < 0 || flat >= numel_)
    throw std::out_of_range("flat index " + std::to_string(flat) + " out of range for " +
                            std::string(dtypeName(dtype_)) + shapeString(shape_));
}

void Tensor::stridedAccess() const {
  throw std::logic_error("a strided view of " + std::string(dtypeName(dtype_)) + shapeString(shape_) +
                         " read as a contiguous array: use contiguous(), or viewData() with strides()");
}

int64_t Tensor::elementOffset(int64_t flat) const {
  if (strides_.empty()) return flat;
  int64_t offset = 0;
  for (size_t d = shape_.size(); d-- > 0;) {
    offset += (flat % shape_[d]) * strides_[d];
    flat /= shape_[d];
  }
  return offset;
}

std::vector<int64_t> Tensor::strides() const {
  if (!strides_.empty()) return strides_;
  std::vector<int64_t> s(shape_.size(), 1);
  for (size_t d = shape_.size(); d-- > 1;) s[d - 1] = s[d] * shape_[d];
  return s;
}

namespace {

/// Empty (contiguous) when `strides` walk `shape` in C order; size-1 axes do not matter.
std::vector<int64_t> normalisedStrides(const std::vector<int64_t>& shape, std::vector<int64_t> strides) {
  int64_t expected = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 1) continue;
    if (strides[d] != expected) return strides;
    expected *= shape[d];
  }
  return {};
}

}  // namespace

Tensor Tensor::permutedView(const std::vector<int64_t>& perm) const {
  std::vector<bool> seen(shape_.size(), false);
  bool valid = perm.size() == shape_.size();
  for (int64_t p : perm) {
    valid = valid && p >= 0 && p < rank() && !seen[static_cast<size_t>(p)];
    if (valid) seen[static_cast<size_t>(p)] = true;
  }
  if (!valid) throw std::invalid_argument("permutedView: not a permutation of the " + std::to_string(rank()) + " axes");
  std::vector<int64_t> from = strides(), shape, strides;
  for (int64_t p : perm) shape.push_back(shape_[static_cast<size_t>(p)]), strides.push_back(from[static_cast<size_t>(p)]);
  Tensor t = *this;
  t.shape_ = std::move(shape);
  t.strides_ = normalisedStrides(t.shape_, std::move(strides));
  return t;
}

Tensor Tensor::transposedView() const {
  if (rank() < 2) return *this;
  std::vector<int64_t> perm(shape_.size());
  for (size_t d = 0; d < perm.size(); ++d) perm[d] = static_cast<int64_t>(d);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return permutedView(perm);
}

Tensor Tensor::expandedView(const std::vector<int64_t>& shape) const {
  if (shape.size() < shape_.size())
    throw std::invalid_argument("expandedView: cannot broadcast " + shapeString(shape_) + " to " + shapeString(shape));
  std::vector<int64_t> from = strides(), strides(shape.size(), 0);
  size_t lead = shape.size() - shape_.size();
  for (size_t d = 0; d < shape_.size(); ++d) {
    if (shape_[d] == shape[lead + d]) strides[lead + d] = from[d];
    else if (shape_[d] != 1)
      throw std::invalid_argument("expandedView: cannot broadcast " + shapeString(shape_) + " to " + shapeString(shape));
  }
  Tensor t = *this;
  t.shape_ = shape;
  t.numel_ = shapeNumel(shape);
  t.strides_ = normalisedStrides(t.shape_, std::move(strides));
  return t;
}

namespace {

/// Copies `rows` rows of `inner` elements of type W, row r starting at element offsetOf(r) of `from`.
template <class W, class OffsetOf>
void copyRows(const std::byte* from, std::byte* to, int64_t rows, int64_t inner, int64_t innerStride, OffsetOf offsetOf) {
  const W* src = reinterpret_cast<const W*>(from);
  W* dst = reinterpret_cast<W*>(to);
  for (int64_t r = 0; r < rows; ++r) {
    const W* row = src + offsetOf(r);
    for (int64_t i = 0; i < inner; ++i) dst[r * inner + i] = row[i * innerStride];
  }
}

}  // namespace

Tensor Tensor::contiguous() const {
  if (strides_.empty()) return *this;
  Tensor t = uninitialized(dtype_, shape_);
  const int64_t inner = shape_.back(), rows = inner == 0 ? 0 : numel_ / inner;
  auto offsetOf = [&](int64_t row) { return elementOffset(row * inner); };
  const std::byte* from = buffer_->data() + offset_;
  std::byte* to = t.buffer_->data();
  switch (dtypeSize(dtype_)) {  // a view has rank >= 1: a scalar is always contiguous
    case 1: copyRows<uint8_t>(from, to, rows, inner, strides_.back(), offsetOf); break;
    case 2: copyRows<uint16_t>(from, to, rows, inner, strides_.back(), offsetOf); break;
    case 4: copyRows<uint32_t>(from, to, rows, inner, strides_.back(), offsetOf); break;
    default: copyRows<uint64_t>(from, to, rows, inner, strides_.back(), offsetOf); break;
  }
  return t;
}

double Tensor::at(int64_t flat) const {
  checkFlat(flat);
  return visitDType(dtype_, [&]<class T>() { return static_cast<double>(viewData<T>()[elementOffset(flat)]); });
}

void Tensor::set(int64_t flat, double value) {
  checkFlat(flat);
  visitDType(dtype_, [&]<class T>() { data<T>()[flat] = fromDouble<T>(value); });
}

Tensor Tensor::clone() const {
  if (!strides_.empty()) return contiguous();
  Tensor t = *this;
  const std::byte* begin = static_cast<const std::byte*>(raw());
  t.buffer_ = acquireBuffer(nbytes());
  std::copy(begin, begin + nbytes(), t.buffer_->begin());
  t.offset_ = 0;
  return t;
}

Tensor Tensor::reshaped(std::vector<int64_t> shape) const {
  if (shapeNumel(shape) != numel_)
    throw std::invalid_argument("cannot reshape " + shapeString(shape_) + " (" + std::to_string(numel_) +
                                " elements) to " + shapeString(shape));
  Tensor t = contiguous();
  t.shape_ = std::move(shape);
  return t;
}

Tensor Tensor::window(int64_t first, std::vector<int64_t> shape) const {
  int64_t n = shapeNumel(shape);
  if (first < 0 || first > numel_ || n > numel_ - first)
    throw std::out_of_range("window [" + std::to_string(first) + ", " + std::to_string(first) + " + " +
                            std::to_string(n) + ") outside " + std::string(dtypeName(dtype_)) + shapeString(shape_));
  Tensor t = contiguous();
  t.shape_ = std::move(shape);
  t.numel_ = n;
  t.offset_ += static_cast<size_t>(first) * dtypeSize(dtype_);  // from the copy's element 0 for a strided view
  return t;
}

Tensor Tensor::index(const std::vector<int64_t>& leading) const {
  Tensor view = viewAt(leading);
  Tensor t(dtype_, view.shape());
  if (t.nbytes() > 0) std::memcpy(t.raw(), view.raw(), t.nbytes());
  return t;
}

Tensor Tensor::viewAt(const std::vector<int64_t>& leading) const {
  if (leading.size() > shape_.size())
    throw std::out_of_range(std::to_string(leading.size()) + " indices into a rank-" +
                            std::to_string(rank()) + " tensor");
  int64_t offset = 0;
  for (size_t i = 0; i < leading.size(); ++i) {
    if (leading[i] < 0 || leading[i] >= shape_[i])
      throw std::out_of_range("index " + std::to_string(leading[i]) + " out of range for axis " +
                              std::to_string(i) + " of size " + std::to_string(shape_[i]));
    offset = offset * shape_[i] + leading[i];
  }
  std::vector<int64_t> trailing(shape_.begin() + static_cast<std::ptrdiff_t>(leading.size()), shape_.end());
  int64_t inner = shapeNumel(trailing);
  return window(offset * inner, std::move(trailing));
}

Tensor Tensor::stack(const std::vector<Tensor>& parts, DType dtype, const std::vector<int64_t>& partShape,
                     const Tensor* recycled) {
  std::vector<int64_t> shape{static_cast<int64_t>(parts.size())};
  shape.insert(shape.end(), partShape.begin(), partShape.end());
  size_t partBytes = static_cast<size_t>(shapeNumel(partShape)) * dtypeSize(dtype);
  bool adjacent = !parts.empty() && partBytes > 0;  // every part the next window of one buffer
  for (size_t i = 0; i < parts.size(); ++i) {
    const Tensor& p = parts[i];
    if (p.dtype() != dtype || p.shape() != partShape)
      throw std::invalid_argument("stack: part " + std::to_string(i) + " is " +
                                  std::string(dtypeName(p.dtype())) + shapeString(p.shape()) + ", expected " +
                                  std::string(dtypeName(dtype)) + shapeString(partShape));
    adjacent = adjacent && p.strides_.empty() && p.buffer_ == parts[0].buffer_ && p.offset_ == parts[0].offset_ + i * partBytes;
  }
  if (adjacent) {  // the parts already lie in order in one buffer: the stack is a window of it
    Tensor t = parts[0];
    t.shape_ = std::move(shape);
    t.numel_ = shapeNumel(t.shape_);
    return t;
  }
  Tensor t;
  if (recycled && recycled->ownsBufferAlone() && recycled->bufferBytes() >= parts.size() * partBytes) {
    t = *recycled;  // every byte is overwritten below
    t.dtype_ = dtype;
    t.shape_ = std::move(shape);
    t.numel_ = shapeNumel(t.shape_);
    t.offset_ = 0;
    t.strides_.clear();
  } else {
    t = uninitialized(dtype, shape);
  }
  for (size_t i = 0; i < parts.size(); ++i)
    if (partBytes > 0)
      std::memcpy(static_cast<std::byte*>(t.raw()) + i * partBytes,
                  parts[i].isContiguous() ? parts[i].raw() : parts[i].contiguous().raw(), partBytes);
  return t;
}

Tensor Tensor::converted(DType to) const {
  if (!strides_.empty()) return contiguous().converted(to);
  Tensor out(to, shape_);
  visitDType(dtype_, [&]<class From>() {
    const From* src = data<From>();
    visitDType(to, [&]<class To>() {
      To* dst = out.data<To>();
      for (int64_t i = 0; i < numel_; ++i) dst[i] = convertElement<From, To>(src[i]);
    });
  });
  return out;
}

namespace {

std::string formatValue(DType dtype, double v) {
  if (dtype == DType::Bool) return v != 0 ? "true" : "false";
  char buf[64];
  if (isInteger(dtype)) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string Tensor::summary(int maxValues) const {
  std::string head = std::string(dtypeName(dtype_)) + shapeString(shape_) + " = ";
  if (shape_.empty()) return head + formatValue(dtype_, at(0));
  auto value = [&](int64_t i) {
    // Integers are formatted from the exact element, not through double.
    if (dtype_ == DType::I64) return std::to_string(viewData<int64_t>()[elementOffset(i)]);
    return formatValue(dtype_, at(i));
  };
  std::string s = head + "[";
  int64_t shown = std::max(maxValues, 0);
  if (numel_ <= shown) {
    for (int64_t i = 0; i < numel_; ++i) s += (i ? ", " : "") + value(i);
  } else {
    int64_t first = (shown + 1) / 2, last = shown / 2;
    for (int64_t i = 0; i < first; ++i) s += value(i) + ", ";
    s += "...";
    for (int64_t i = numel_ - last; i < numel_; ++i) s += ", " + value(i);
  }
  return s + "]";
}

}  // namespace tempo
