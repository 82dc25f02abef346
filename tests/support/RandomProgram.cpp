// RandomProgram: see RandomProgram.h. The generator keeps, for the expression being written,
// a Scope: for every program dimension whether it is free (the reader's own dimension, with
// what the branch region guarantees: t >= 1, t <= T-2), fixed by the branch's left side
// (t == 0) or absent from the reader's domain. Every index it writes is chosen from forms that
// are inside the producer's domain under those facts, which is what makes the programs
// correct by construction.
#include "support/RandomProgram.h"

#include "support/SplitMixRng.h"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

namespace tempo::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// The model of the program being written.

using Shape = std::vector<int>;
enum class Ty { F32, F64, I32, Bool };

const char* tyName(Ty t) {
  switch (t) {
    case Ty::F32: return "f32";
    case Ty::F64: return "f64";
    case Ty::I32: return "i32";
    case Ty::Bool: return "bool";
  }
  return "f32";
}

struct Dim {
  std::string name, bound;
  int64_t def = 2;
};

struct TensorInfo {
  std::string name;
  std::vector<int> dims;  ///< indices into the program's dims, in declaration order
  Shape shape;
  Ty ty = Ty::F32;
  bool available = true;  ///< false while its branches are being written
  bool recurrent = false;
  bool computed = false;  ///< a let or a recurrent tensor (a candidate output)
  int reads = 0;
};

enum class DimKind { Absent, Free, Fixed };

/// What the reader knows about one program dimension.
struct DimState {
  DimKind kind = DimKind::Absent;
  std::string fixed;    ///< the value on the left side of the branch (Fixed)
  bool geOne = false;   ///< the region guarantees d >= 1
  bool leLast = false;  ///< the region guarantees d <= D - 2
};

struct Scope {
  std::vector<DimState> dims;
  std::set<int> used;  ///< dims the expression varies over (a let's inferred domain)
};

/// A slice read: its text, whether it can be empty, and how many slice items it has.
struct WindowRead {
  std::string text;
  bool nonEmpty = true;
  int slices = 1;
};

std::string joined(const std::vector<std::string>& parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s;
}

std::string num(double v) {
  std::ostringstream os;
  os << v;
  std::string s = os.str();
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// ---------------------------------------------------------------------------------------------

class Generator {
public:
  Generator(uint64_t seed, const RandomProgramOptions& options)
      : rng_(seed), newFeatures_(seed ^ 0x5DEECE66DULL), opt_(options), seed_(seed) {}

  GeneratedProgram run() {
    declareDims();
    declareSources();
    int n = rng_.range(opt_.minStatements, std::max(opt_.minStatements, opt_.maxStatements));
    for (int i = 0; i < n; ++i) statement();
    declareOutputs();
    out_.text = header_.str() + sources_.str() + body_.str() + outs_.str();
    if (newFeatures_.chance(0.12)) endUntil();  // drawn last: the rest of the program is as without it
    return std::move(out_);
  }

  /// The first dimension ends at the first step where a hash over it alone passes 0.5 (a
  /// condition decided step by step, whatever the rest of the program reads): `dim t < T
  /// until stop`, its source and condition, and the condition as the last output.
  void endUntil() {
    const Dim& d = dims_.front();
    const std::string line = "dim " + d.name + " < " + d.bound + "\n";
    out_.text.replace(out_.text.find(line), line.size(), "dim " + d.name + " < " + d.bound + " until stop\n");
    out_.text += "input ustop : f32[] over (" + d.name + ") = hash(key=" + std::to_string(key()) + ", scale=1.0)\n";
    out_.text += "stop = ustop > 0.5\n";
    out_.outputs.push_back({"stop", {d.bound}, {}});
    note(RandomFeature::Until);
  }

private:
  // --- bookkeeping -----------------------------------------------------------------------------

  void note(RandomFeature f) { ++out_.features[static_cast<size_t>(f)]; }
  std::string fresh(const std::string& prefix) { return prefix + std::to_string(++counter_); }
  int key() { return ++keys_; }

  int maxSize() const { return std::max(1, std::min(opt_.maxSpatial, 4)); }
  std::string sizeText(int n) { return (n >= 2 && n <= 4 && rng_.chance(0.3)) ? "K" + std::to_string(n) : std::to_string(n); }

  std::string typeText(Ty ty, const Shape& s) {
    std::vector<std::string> parts;
    for (int n : s) parts.push_back(sizeText(n));
    return std::string(tyName(ty)) + "[" + joined(parts) + "]";
  }

  std::string domainText(const std::vector<int>& dims) const {
    std::vector<std::string> parts;
    for (int d : dims) parts.push_back(dims_[d].name);
    return "(" + joined(parts) + ")";
  }

  /// A spatial size from the program's small palette, so shapes of different tensors match.
  int size() { return rng_.pick(palette_); }

  Shape randomShape() {
    int rank = static_cast<int>(rng_.weighted({3, 5, 2}));
    Shape s;
    for (int i = 0; i < rank; ++i) s.push_back(size());
    return s;
  }

  std::vector<int> randomDims(double p) {
    std::vector<int> ds;
    for (int d = 0; d < static_cast<int>(dims_.size()); ++d)
      if (rng_.chance(p)) ds.push_back(d);
    return ds;
  }

  int addTensor(TensorInfo t) {
    tensors_.push_back(std::move(t));
    return static_cast<int>(tensors_.size()) - 1;
  }

  // --- header: dims, set, consts ---------------------------------------------------------------

  void declareDims() {
    std::vector<Dim> pool = {{"b", "B"}, {"l", "L"}, {"t", "T"}, {"s", "S"}};
    int n = rng_.range(std::max(1, opt_.minDims), std::max(opt_.minDims, std::min(opt_.maxDims, 3)));
    for (size_t i = pool.size(); i > 1; --i) std::swap(pool[i - 1], pool[static_cast<size_t>(rng_.range(0, static_cast<int>(i) - 1))]);
    header_ << "# random program, seed " << seed_ << "\n";
    std::vector<std::string> sets;
    for (int i = 0; i < n; ++i) {
      Dim d = pool[static_cast<size_t>(i)];
      d.def = rng_.range(std::max(1, opt_.minBound), std::max(opt_.minBound, opt_.maxBound));
      header_ << "dim " << d.name << " < " << d.bound << "\n";
      sets.push_back(d.bound + " = " + std::to_string(d.def));
      out_.boundDefaults[d.bound] = d.def;
      dims_.push_back(d);
    }
    header_ << "set " << joined(sets) << "\n";
    window_ = rng_.range(2, 3);
    palette_ = {1, rng_.range(2, maxSize()), rng_.range(1, maxSize())};
    header_ << "const K2 = 2, K3 = 3, K4 = 4, W = " << window_ << ", GAMMA = " << num(rng_.pick(std::vector<double>{0.5, 0.75, 0.9})) << "\n";
  }

  // --- sources -----------------------------------------------------------------------------------

  std::string initText(Ty ty) {
    if (ty == Ty::I32 || ty == Ty::Bool) return "hash(key=" + std::to_string(key()) + ", scale=3.0)";
    switch (rng_.weighted({4, 3, 2, 0.6, 0.6})) {
      case 0: return "hash(key=" + std::to_string(key()) + ", scale=" + rng_.pick(std::vector<std::string>{"0.5", "1.0"}) + ")";
      case 1: return "normal(seed=" + std::to_string(key()) + ", std=" + rng_.pick(std::vector<std::string>{"0.3", "0.5"}) + ")";
      case 2: return "uniform(seed=" + std::to_string(key()) + ", low=-0.5, high=0.5)";
      case 3: return "zeros()";
      default: return "ones()";
    }
  }

  int addSource(bool param, Ty ty, Shape shape, std::vector<int> dims) {
    TensorInfo t;
    t.name = fresh(param ? "w" : "x");
    t.dims = std::move(dims);
    t.shape = std::move(shape);
    t.ty = ty;
    sources_ << (param ? "param " : "input ") << t.name << " : " << typeText(ty, t.shape);
    if (!t.dims.empty() || rng_.chance(0.2)) sources_ << " over " << domainText(t.dims);
    sources_ << " = " << initText(ty) << "\n";
    if (ty != Ty::F32) note(RandomFeature::IntOrBoolSource);
    return addTensor(std::move(t));
  }

  void declareSources() {
    int inputs = rng_.range(2, 4);
    for (int i = 0; i < inputs; ++i) addSource(false, Ty::F32, randomShape(), randomDims(0.65));
    if (opt_.matmul)
      for (int i = rng_.range(0, 2); i > 0; --i) {
        int n = size();
        addSource(true, Ty::F32, {size(), n}, randomDims(0.25));
      }
    if (opt_.casts && rng_.chance(0.35)) addSource(false, Ty::I32, randomShape(), randomDims(0.5));
    if (opt_.casts && rng_.chance(0.3)) addSource(false, Ty::Bool, randomShape(), randomDims(0.5));
    sourceCount_ = static_cast<int>(tensors_.size());
  }

  /// A new param of exactly this shape, over a random few dims.
  int newParam(const Shape& s) {
    Ty ty = (opt_.casts && rng_.chance(0.1)) ? Ty::F64 : Ty::F32;
    return addSource(true, ty, s, randomDims(0.2));
  }

  // --- scopes ------------------------------------------------------------------------------------

  Scope emptyScope() const {
    Scope sc;
    sc.dims.resize(dims_.size());
    return sc;
  }

  /// A let's scope: a random subset of the dims is free.
  Scope letScope() {
    Scope sc = emptyScope();
    for (auto& d : sc.dims)
      if (rng_.chance(0.75)) d.kind = DimKind::Free;
    return sc;
  }

  /// The scope of a branch of a tensor over `dom`: every dim of it free (facts added by the caller).
  Scope domainScope(const std::vector<int>& dom) const {
    Scope sc = emptyScope();
    for (int d : dom) sc.dims[d].kind = DimKind::Free;
    return sc;
  }

  static void fix(Scope& sc, int d, std::string value) {
    sc.dims[d].kind = DimKind::Fixed;
    sc.dims[d].fixed = std::move(value);
  }

  // --- indices -----------------------------------------------------------------------------------

  std::string last(int d) const { return dims_[d].bound + " - 1"; }

  /// A point index into dim `d` that is inside 0..D-1 under the scope's facts.
  std::string pointIndex(Scope& sc, int d) {
    const DimState& st = sc.dims[d];
    const std::string& n = dims_[d].name;
    const std::string& B = dims_[d].bound;
    if (st.kind == DimKind::Absent) {
      note(RandomFeature::ConstIndex);
      switch (rng_.weighted({3, 3, 1, 1})) {
        case 0: return "0";
        case 1: return last(d);
        case 2: return B + " // 2";
        default: note(RandomFeature::Clamp); return "max(0, " + B + " - 2)";
      }
    }
    if (st.kind == DimKind::Fixed) {
      switch (rng_.weighted({3, 4, 1, 1})) {
        case 0: return n;
        case 1: return st.fixed;
        case 2: note(RandomFeature::ConstIndex); return "0";
        default: note(RandomFeature::ConstIndex); return last(d);
      }
    }
    switch (rng_.weighted({10, st.geOne ? 3.0 : 0.0, st.leLast ? 3.0 : 0.0, 1, 1, 1, 1})) {
      case 0: sc.used.insert(d); return n;
      case 1: sc.used.insert(d); note(RandomFeature::ShiftedRead); return n + " - 1";
      case 2: sc.used.insert(d); note(RandomFeature::ShiftedRead); return n + " + 1";
      case 3: sc.used.insert(d); note(RandomFeature::Clamp); return "max(0, " + n + " - " + std::to_string(rng_.range(1, 3)) + ")";
      case 4: sc.used.insert(d); note(RandomFeature::Clamp); return "min(" + last(d) + ", " + n + " + " + std::to_string(rng_.range(1, 2)) + ")";
      case 5:
        sc.used.insert(d);
        note(RandomFeature::FloorMod);
        return rng_.pick(std::vector<std::string>{n + " % 2", n + " // 2", "2 * (" + n + " // 2)"});
      default: note(RandomFeature::ConstIndex); return rng_.chance(0.5) ? "0" : last(d);
    }
  }

  /// A slice `lo:hi` of dim `d` valid under the scope's facts.
  std::pair<std::string, bool> sliceIndex(Scope& sc, int d) {
    const DimState& st = sc.dims[d];
    const std::string& n = dims_[d].name;
    const std::string& B = dims_[d].bound;
    if (st.kind != DimKind::Free) {
      note(RandomFeature::FullSlice);
      return {rng_.chance(0.2) ? ":" : "0:" + B, true};
    }
    if (rng_.chance(0.1)) {
      note(RandomFeature::FullSlice);
      return {rng_.chance(0.2) ? ":" : "0:" + B, true};
    }
    sc.used.insert(d);
    switch (rng_.weighted({3, 3, 2, 1.5, 1.5})) {
      case 0: note(RandomFeature::GrowingWindow); return {"0:" + n + " + 1", true};
      case 1:
        note(RandomFeature::SlidingWindow);
        return {rng_.chance(0.6) ? "max(0, " + n + " - W + 1):" + n + " + 1" : "max(0, " + n + " - 1):" + n + " + 1", true};
      case 2: note(RandomFeature::FutureRange); return {n + ":" + B, true};
      case 3: note(RandomFeature::SlidingWindow); note(RandomFeature::FutureRange); return {n + ":min(" + B + ", " + n + " + W)", true};
      default:
        note(RandomFeature::ExclusiveWindow);
        if (rng_.chance(0.5)) return {"0:" + n, st.geOne};
        return {n + " + 1:" + B, st.leLast};
    }
  }

  // --- reads -------------------------------------------------------------------------------------

  std::string withCast(const TensorInfo& t, std::string text) {
    if (t.ty == Ty::F32) return text;
    note(RandomFeature::Cast);
    return "cast(" + text + ", f32)";
  }

  /// `x[...]` at one point (no cast); `x` alone for a tensor without dims.
  std::string readPointRaw(Scope& sc, int ti) {
    TensorInfo& t = tensors_[static_cast<size_t>(ti)];
    ++t.reads;
    if (t.dims.empty()) return t.name;
    bool allInScope = std::all_of(t.dims.begin(), t.dims.end(), [&](int d) { return sc.dims[d].kind != DimKind::Absent; });
    if (allInScope && rng_.chance(0.08)) {
      note(RandomFeature::BareRead);
      for (int d : t.dims)
        if (sc.dims[d].kind == DimKind::Free) sc.used.insert(d);
      return t.name;
    }
    if (rng_.chance(0.12)) return namedRead(sc, t);
    std::vector<std::string> items;
    for (int d : t.dims) items.push_back(pointIndex(sc, d));
    return t.name + "[" + joined(items) + "]";
  }

  /// `x[t=t - 1]`: named items for some dims, the others (which must be in scope) at the same point.
  std::string namedRead(Scope& sc, const TensorInfo& t) {
    std::vector<std::string> items;
    std::vector<int> same;
    for (int d : t.dims) {
      if (sc.dims[d].kind != DimKind::Absent && rng_.chance(0.4)) same.push_back(d);
      else items.push_back(dims_[d].name + "=" + pointIndex(sc, d));
    }
    if (items.empty()) {
      int d = same.back();
      same.pop_back();
      items.push_back(dims_[d].name + "=" + pointIndex(sc, d));
    }
    for (int d : same)
      if (sc.dims[d].kind == DimKind::Free) sc.used.insert(d);
    note(RandomFeature::NamedRead);
    return t.name + "[" + joined(items) + "]";
  }

  std::string readPoint(Scope& sc, int ti) { return withCast(tensors_[static_cast<size_t>(ti)], readPointRaw(sc, ti)); }

  /// A read of tensor `ti` with a slice along one (sometimes two) of its dims.
  WindowRead readWindow(Scope& sc, int ti) {
    TensorInfo& t = tensors_[static_cast<size_t>(ti)];
    ++t.reads;
    std::vector<int> freeDims;
    for (int d : t.dims)
      if (sc.dims[d].kind == DimKind::Free) freeDims.push_back(d);
    int sliced = (!freeDims.empty() && rng_.chance(0.85)) ? rng_.pick(freeDims) : rng_.pick(t.dims);
    int second = -1;
    if (t.dims.size() >= 2 && rng_.chance(0.15))
      for (int d : t.dims)
        if (d != sliced && sc.dims[d].kind != DimKind::Free) second = d;
    WindowRead w;
    std::vector<std::string> items;
    for (int d : t.dims) {
      if (d == sliced) {
        auto [text, nonEmpty] = sliceIndex(sc, d);
        items.push_back(text);
        w.nonEmpty = nonEmpty;
      } else if (d == second) {
        note(RandomFeature::FullSlice);
        items.push_back("0:" + dims_[d].bound);
        w.slices = 2;
      } else {
        items.push_back(pointIndex(sc, d));
      }
    }
    w.text = withCast(t, t.name + "[" + joined(items) + "]");
    return w;
  }

  /// Available tensors (not bool) of exactly shape `s`; `windowed` requires a dim to slice.
  std::vector<int> candidates(const Shape& s, bool windowed) const {
    std::vector<int> out;
    for (size_t i = 0; i < tensors_.size(); ++i) {
      const TensorInfo& t = tensors_[i];
      if (!t.available || t.ty == Ty::Bool || t.shape != s) continue;
      if (windowed && t.dims.empty()) continue;
      out.push_back(static_cast<int>(i));
    }
    return out;
  }

  /// A read of shape `s` that indexes or slices the first spatial dimension of a tensor:
  /// `x[t; j]` of an x of shape [m] + s, or `x[t; a:a+k]` of an x of shape [m] for s = [k].
  std::optional<std::string> spatialRead(Scope& sc, const Shape& s) {
    std::vector<int> wider;
    for (size_t i = 0; i < tensors_.size(); ++i) {
      const TensorInfo& t = tensors_[i];
      if (!t.available || t.ty == Ty::Bool || t.shape.empty()) continue;
      bool indexed = Shape(t.shape.begin() + 1, t.shape.end()) == s;
      bool sliced = s.size() == 1 && t.shape.size() == 1 && t.shape[0] > s[0];
      if (indexed || sliced) wider.push_back(static_cast<int>(i));
    }
    if (wider.empty()) return std::nullopt;
    int ti = rng_.pick(wider);
    TensorInfo& t = tensors_[static_cast<size_t>(ti)];
    ++t.reads;
    std::string spatial;
    int m = t.shape[0];
    if (Shape(t.shape.begin() + 1, t.shape.end()) == s) {
      int j = rng_.range(0, m - 1);
      spatial = (j == m - 1 && rng_.chance(0.5)) ? "-1" : std::to_string(j);
    } else {
      int a = rng_.range(0, m - s[0]);
      spatial = std::to_string(a) + ":" + std::to_string(a + s[0]);
    }
    std::vector<std::string> items;
    for (int d : t.dims) items.push_back(pointIndex(sc, d));
    note(RandomFeature::SpatialIndex);
    return withCast(t, t.name + "[" + joined(items) + "; " + spatial + "]");
  }

  /// `gather(w, id)` of shape s from a new param w of shape [m] + s: the id a constant or
  /// `min(d, m - 1)` of a dimension in scope (an index value).
  std::string gatherRead(Scope& sc, const Shape& s) {
    const int m = size();
    Shape from{m};
    from.insert(from.end(), s.begin(), s.end());
    std::string x = readPoint(sc, newParam(from));
    std::vector<int> free = freeDims(sc);
    std::string id = std::to_string(rng_.range(0, m - 1));
    if (!free.empty() && rng_.chance(0.7)) {
      int d = rng_.pick(free);
      sc.used.insert(d);
      id = "min(" + dims_[d].name + ", " + std::to_string(m - 1) + ")";
    }
    note(RandomFeature::Gather);
    return "gather(" + x + ", " + id + ")";
  }

  /// A read of an existing tensor of shape s (preferring computed ones), else of a new param.
  std::string leaf(Scope& sc, const Shape& s) {
    if (opt_.movement && newFeatures_.chance(0.08))
      if (auto r = spatialRead(sc, s)) return *r;
    if (opt_.movement && s.size() <= 1 && newFeatures_.chance(0.04)) return gatherRead(sc, s);
    std::vector<int> c = candidates(s, false), computed;
    for (int i : c)
      if (tensors_[static_cast<size_t>(i)].computed) computed.push_back(i);
    if (!computed.empty() && rng_.chance(0.6)) return readPoint(sc, rng_.pick(computed));
    int ti = (c.empty() || rng_.chance(0.1)) ? newParam(s) : rng_.pick(c);
    return readPoint(sc, ti);
  }

  // --- expressions -------------------------------------------------------------------------------

  std::vector<int> freeDims(const Scope& sc) const {
    std::vector<int> out;
    for (int d = 0; d < static_cast<int>(sc.dims.size()); ++d)
      if (sc.dims[d].kind == DimKind::Free) out.push_back(d);
    return out;
  }

  Shape suffixOf(const Shape& s) {
    if (s.empty() || rng_.chance(0.5)) return s;
    size_t drop = static_cast<size_t>(rng_.range(1, static_cast<int>(s.size())));
    return Shape(s.begin() + static_cast<long>(drop), s.end());
  }

  std::string expr(Scope& sc, const Shape& s, int depth) {
    if (depth <= 0) return rng_.chance(opt_.windows ? 0.25 : 0.0) ? window(sc, s, 0) : leaf(sc, s);
    bool small = s.size() <= 1;
    std::vector<double> w = {2.5, 2, 3, 1, opt_.matmul ? 2.0 : 0.0, small ? 1.0 : 0.0, (opt_.matmul && !s.empty()) ? 1.0 : 0.0,
                             opt_.movement && !s.empty() ? (s.size() == 2 ? 3.0 : 1.0) : 0.0, opt_.windows ? 2.5 : 0.0,
                             freeDims(sc).empty() ? 0.0 : 1.0, opt_.casts ? 0.5 : 0.0};
    switch (rng_.weighted(w)) {
      case 0: return leaf(sc, s);
      case 1: return unary(sc, s, depth);
      case 2: return binary(sc, s, depth);
      case 3: return where(sc, s, depth);
      case 4: return matmul(sc, s, depth);
      case 5: return reduce(sc, s, depth);
      case 6: return softmax(sc, s, depth);
      case 7: return movement(sc, s, depth);
      case 8: return window(sc, s, depth);
      case 9: return indexValue(sc, s, depth);
      default: return cast(sc, s, depth);
    }
  }

  std::string unary(Scope& sc, const Shape& s, int depth) {
    note(RandomFeature::Elementwise);
    std::string e = expr(sc, s, depth - 1);
    switch (rng_.range(0, 9)) {
      case 7: return "sqrt(abs(" + e + ") + 0.5)";
      case 8: return "log(1.0 + abs(" + e + "))";
      case 9: return "pow(abs(" + e + ") + 0.5, " + rng_.pick(std::vector<std::string>{"0.5", "2.0"}) + ")";
      case 0: return "tanh(" + e + ")";
      case 1: return "sigmoid(" + e + ")";
      case 2: return "relu(" + e + ")";
      case 3: return "abs(" + e + ")";
      case 4: return "(-" + e + ")";
      case 5: return "exp(-abs(" + e + "))";
      default: return "exp(tanh(" + e + "))";
    }
  }

  std::string binary(Scope& sc, const Shape& s, int depth) {
    note(RandomFeature::Elementwise);
    std::string a = expr(sc, s, depth - 1);
    if (rng_.chance(0.2)) return "(" + a + rng_.pick(std::vector<std::string>{" * ", " + ", " - "}) + rng_.pick(std::vector<std::string>{"0.5", "GAMMA", "0.25"}) + ")";
    std::string b = expr(sc, suffixOf(s), depth - 1);
    switch (rng_.range(0, 6)) {
      case 0: return "(" + a + " + " + b + ")";
      case 1: return "(" + a + " - " + b + ")";
      case 2: return "(" + b + " * " + a + ")";
      case 3: return "maximum(" + a + ", " + b + ")";
      case 4: return "minimum(" + b + ", " + a + ")";
      case 5: return "(" + a + " / (1.5 + abs(" + b + ")))";
      default: return "(" + a + " * " + b + ")";
    }
  }

  std::string condition(Scope& sc, const Shape& s, int depth) {
    Shape cs = suffixOf(s);
    std::vector<int> bools;
    for (size_t i = 0; i < tensors_.size(); ++i)
      if (tensors_[i].ty == Ty::Bool && tensors_[i].available && tensors_[i].shape == cs) bools.push_back(static_cast<int>(i));
    std::vector<int> fd = freeDims(sc);
    size_t k = rng_.weighted({3, bools.empty() ? 0.0 : 1.5, fd.empty() ? 0.0 : 1.0, depth > 1 ? 1.0 : 0.0});
    if (k == 3) {  // two conditions joined, or one negated
      note(RandomFeature::Logical);
      std::string a = condition(sc, s, depth - 1);
      if (rng_.chance(0.3)) return "not (" + a + ")";
      return "(" + a + (rng_.chance(0.5) ? " and " : " or ") + condition(sc, s, depth - 1) + ")";
    }
    if (k == 1) return readPointRaw(sc, rng_.pick(bools));
    if (k == 2) {
      int d = rng_.pick(fd);
      sc.used.insert(d);
      note(RandomFeature::IndexValue);
      return rng_.chance(0.5) ? dims_[d].name + " < 2" : dims_[d].name + " >= " + last(d);
    }
    std::string lhs = expr(sc, cs, depth - 1);
    std::string rhs = rng_.chance(0.5) ? rng_.pick(std::vector<std::string>{"0.0", "0.1", "-0.2"}) : expr(sc, cs, depth - 1);
    return lhs + rng_.pick(std::vector<std::string>{" > ", " < ", " >= ", " <= "}) + rhs;
  }

  std::string where(Scope& sc, const Shape& s, int depth) {
    note(RandomFeature::Where);
    std::string c = condition(sc, s, depth);
    std::string a = expr(sc, s, depth - 1);
    std::string b = rng_.chance(0.3) ? "0.0" : expr(sc, s, depth - 1);
    return "where(" + c + ", " + a + ", " + b + ")";
  }

  std::string matmul(Scope& sc, const Shape& s, int depth) {
    note(RandomFeature::Matmul);
    int k = size();
    if (s.empty()) return "(" + expr(sc, {k}, depth - 1) + " @ " + expr(sc, {k}, depth - 1) + ")";
    if (s.size() == 1) return "(" + expr(sc, {k}, depth - 1) + " @ " + leaf(sc, {k, s[0]}) + ")";
    if (rng_.chance(0.5)) return "(" + expr(sc, {s[0], k}, depth - 1) + " @ " + leaf(sc, {k, s[1]}) + ")";
    return "(" + leaf(sc, {s[0], k}) + " @ " + expr(sc, {k, s[1]}, depth - 1) + ")";
  }

  std::string reduce(Scope& sc, const Shape& s, int depth) {
    note(RandomFeature::Reduction);
    int k = size();
    Shape inner = s;
    bool front = rng_.chance(0.5);
    if (front) inner.insert(inner.begin(), k);
    else inner.push_back(k);
    std::string op = rng_.pick(std::vector<std::string>{"sum", "mean", "max"});
    std::string dim = front ? "0" : "-1";
    if (newFeatures_.chance(0.1)) {  // of a source's values, equal in both engines: no near-tie flips
      if (s.size() == 1 && newFeatures_.chance(0.5) && opt_.topk) {  // the s[0] largest of s[0] + k values, largest first
        note(RandomFeature::TopK);
        return "topk(" + readPoint(sc, newParam({s[0] + k})) + ", " + sizeText(s[0]) + ")";
      }
      if (s.size() == 2 && opt_.topk && newFeatures_.chance(0.5)) {  // per row, the s[1] largest of s[1] + k (take_along)
        note(RandomFeature::TopK);
        return "topk(" + readPoint(sc, newParam({s[0], s[1] + k})) + ", " + sizeText(s[1]) + ")";
      }
      note(RandomFeature::ArgMax);
      return "cast(argmax(" + readPoint(sc, newParam(inner)) + ", dim=" + dim + "), f32)";
    }
    if (!s.empty() && rng_.chance(0.3)) return keepDim(sc, s, op, k, depth);
    return op + "(" + expr(sc, inner, depth - 1) + ", dim=" + dim + ")";
  }

  /// A keepdim reduction brought back to s: reshape([n, 1] -> [n]) or expand([m, 1] -> [m, n]).
  std::string keepDim(Scope& sc, const Shape& s, const std::string& op, int k, int depth) {
    note(RandomFeature::KeepDim);
    std::string dim = rng_.pick(std::vector<std::string>{"1", "-1"});
    std::string r = op + "(" + expr(sc, {s[0], k}, depth - 1) + ", dim=" + dim + ", keepdim=true)";
    if (s.size() == 1) return "reshape(" + r + ", (" + sizeText(s[0]) + ",))";
    note(RandomFeature::Expand);
    return "expand(" + r + ", (" + sizeText(s[0]) + ", " + sizeText(s[1]) + "))";
  }

  std::string softmax(Scope& sc, const Shape& s, int depth) {
    note(RandomFeature::Softmax);
    std::string dim = s.size() == 2 ? rng_.pick(std::vector<std::string>{"0", "1", "-1"}) : rng_.pick(std::vector<std::string>{"0", "-1"});
    if (rng_.chance(0.3)) {
      note(RandomFeature::LogSoftmax);
      return "log_softmax(" + expr(sc, s, depth - 1) + ", dim=" + dim + ")";
    }
    return "softmax(" + expr(sc, s, depth - 1) + ", dim=" + dim + ")";
  }

  std::string movement(Scope& sc, const Shape& s, int depth) {
    if (s.back() >= 2 && rng_.chance(0.25)) return concat(sc, s, depth);
    if (rng_.chance(0.2)) return expand(sc, s, depth);
    if (s.size() == 2 && rng_.chance(0.75)) {
      Shape t = {s[1], s[0]};
      if (rng_.chance(0.5)) {
        note(RandomFeature::Transpose);
        return "transpose(" + expr(sc, t, depth - 1) + ")";
      }
      note(RandomFeature::Permute);
      return "permute(" + expr(sc, t, depth - 1) + ", " + rng_.pick(std::vector<std::string>{"(1, 0)", "(-1, 0)"}) + ")";
    }
    note(RandomFeature::Reshape);
    int total = 1;
    for (int n : s) total *= n;
    std::string target;
    for (size_t i = 0; i < s.size(); ++i) target += (i ? ", " : "") + sizeText(s[i]);
    target = "(" + target + (s.size() == 1 ? ",)" : ")");
    Shape from = s.size() == 1 ? (total % 2 == 0 && rng_.chance(0.5) ? Shape{2, total / 2} : Shape{1, total}) : Shape{total};
    return "reshape(" + expr(sc, from, depth - 1) + ", " + target + ")";
  }

  /// s = cat(a, b) along its last (or first) dim.
  std::string concat(Scope& sc, const Shape& s, int depth) {
    note(RandomFeature::Concat);
    size_t axis = s.size() == 2 && s[0] >= 2 && rng_.chance(0.5) ? 0 : s.size() - 1;
    int k = rng_.range(1, s[axis] - 1);
    Shape a = s, b = s;
    a[axis] = k;
    b[axis] = s[axis] - k;
    std::string dim = axis + 1 == s.size() ? rng_.pick(std::vector<std::string>{"-1", std::to_string(axis)}) : std::to_string(axis);
    if (rng_.chance(0.3)) return "cat((" + expr(sc, a, depth - 1) + ", " + expr(sc, b, depth - 1) + "), dim=" + dim + ")";
    return "cat(" + expr(sc, a, depth - 1) + ", " + expr(sc, b, depth - 1) + ", dim=" + dim + ")";
  }

  /// s = expand(x, s) with x of a suffix of s or with leading 1s.
  std::string expand(Scope& sc, const Shape& s, int depth) {
    note(RandomFeature::Expand);
    Shape from = suffixOf(s);
    if (from.size() == s.size() && s.size() == 2) from[0] = 1;
    std::string target;
    for (size_t i = 0; i < s.size(); ++i) target += (i ? ", " : "") + sizeText(s[i]);
    target = "(" + target + (s.size() == 1 ? ",)" : ")");
    return "expand(" + expr(sc, from, depth - 1) + ", " + target + ")";
  }

  std::string indexValue(Scope& sc, const Shape& s, int depth) {
    note(RandomFeature::IndexValue);
    int d = rng_.pick(freeDims(sc));
    sc.used.insert(d);
    const std::string& n = dims_[d].name;
    std::string v = rng_.pick(std::vector<std::string>{"((" + n + " + 1) * 0.25)", "(" + n + " * 0.1)",
                                                       "((" + dims_[d].bound + " - " + n + ") * 0.2)"});
    std::string e = expr(sc, s, depth - 1);
    return rng_.chance(0.5) ? "(" + e + " * " + v + ")" : "(" + e + " + " + v + ")";
  }

  std::string cast(Scope& sc, const Shape& s, int depth) {
    note(RandomFeature::Cast);
    return "cast(cast(" + expr(sc, s, depth - 1) + ", f64) * 0.5, f32)";
  }

  /// A window read consumed into shape `s`: a reduction over the window, attention, or a
  /// matmul followed by a reduction.
  std::string window(Scope& sc, const Shape& s, int depth) {
    std::vector<int> same = candidates(s, true);
    std::vector<int> vecs;
    for (int n = 1; n <= maxSize(); ++n)
      for (int i : candidates({n}, true)) vecs.push_back(i);
    bool useVec = !vecs.empty() && s.size() <= 1 && opt_.matmul && (same.empty() || rng_.chance(0.35));
    if (!useVec && same.empty()) return leaf(sc, s);
    int ti = useVec ? rng_.pick(vecs) : rng_.pick(same);
    WindowRead w = readWindow(sc, ti);
    if (w.slices == 2) {
      note(RandomFeature::Reduction);
      std::string r = "sum(" + w.text + ", dim=(0, 1))";
      return useVec ? vecProject(sc, r, tensors_[static_cast<size_t>(ti)].shape[0], s) : r;
    }
    if (useVec) return vecWindow(sc, w, tensors_[static_cast<size_t>(ti)].shape[0], s, depth);
    return reduceWindow(sc, w, s, depth);
  }

  /// A window of shape [len, *s] reduced to s.
  std::string reduceWindow(Scope& sc, const WindowRead& w, const Shape& s, int depth) {
    note(RandomFeature::Reduction);
    if (!w.nonEmpty) return "sum(" + w.text + ", dim=0)";
    if (!s.empty() && opt_.matmul && depth > 0 && rng_.chance(0.3)) {
      note(RandomFeature::Softmax);
      return "sum(softmax(" + w.text + ", dim=0) * " + w.text + ", dim=0)";
    }
    return rng_.pick(std::vector<std::string>{"sum", "mean", "max"}) + "(" + w.text + ", dim=0)";
  }

  /// A window of shape [len, n] consumed into s ([] or [m]).
  std::string vecWindow(Scope& sc, const WindowRead& w, int n, const Shape& s, int depth) {
    if (w.nonEmpty && depth > 0 && rng_.chance(0.5)) {
      note(RandomFeature::Attention);
      note(RandomFeature::Softmax);
      note(RandomFeature::Matmul);
      std::string q = expr(sc, {n}, depth - 1);
      std::string att = "softmax((" + w.text + " @ " + q + ") * 0.5, dim=0) @ " + w.text;
      return vecProject(sc, "(" + att + ")", n, s);
    }
    note(RandomFeature::Matmul);
    note(RandomFeature::Reduction);
    std::string op = w.nonEmpty ? rng_.pick(std::vector<std::string>{"sum", "mean", "max"}) : "sum";
    if (s.empty()) return op + "(" + w.text + " @ " + leaf(sc, {n}) + ", dim=0)";
    return op + "(" + w.text + " @ " + leaf(sc, {n, s[0]}) + ", dim=0)";
  }

  /// A value of shape [n] turned into s ([] or [m]).
  std::string vecProject(Scope& sc, const std::string& v, int n, const Shape& s) {
    if (s.empty()) return "(" + v + " @ " + leaf(sc, {n}) + ")";
    if (s[0] == n && rng_.chance(0.5)) return v;
    note(RandomFeature::Matmul);
    return "(" + v + " @ " + leaf(sc, {n, s[0]}) + ")";
  }

  std::string bounded(const std::string& e) {
    switch (rng_.range(0, 2)) {
      case 0: return "tanh(" + e + ")";
      case 1: return "sigmoid(" + e + ")";
      default: return "(0.5 * tanh(" + e + "))";
    }
  }

  int depth() { return rng_.range(1, std::max(1, opt_.maxDepth)); }

  // --- statements --------------------------------------------------------------------------------

  void statement() {
    bool rec = opt_.recurrences;
    bool two = dims_.size() >= 2;
    switch (rng_.weighted({3, rec ? 2.0 : 0.0, rec ? 1.5 : 0.0, rec && two ? 1.0 : 0.0, rec && two ? 0.8 : 0.0, rec ? 0.8 : 0.0,
                           rec ? 0.6 : 0.0})) {
      case 0: return makeLet();
      case 1: return makeRecurrence1D(false);
      case 2: return makeRecurrence1D(true);
      case 3: return makeTwoDim();
      case 4: return makeLetCycle();
      case 5: return makeStencil();
      default: return makeMutual();
    }
  }

  void makeLet() {
    Scope sc = letScope();
    Shape s = randomShape();
    std::string e = expr(sc, s, depth());
    if (rng_.chance(0.6)) e = bounded(e);
    TensorInfo t;
    t.name = fresh("a");
    t.dims.assign(sc.used.begin(), sc.used.end());
    t.shape = s;
    t.computed = true;
    body_ << t.name << " = " << e << "\n";
    addTensor(std::move(t));
  }

  /// Declares a recurrent tensor over `dom` (not yet available) and returns its index.
  int declareRecurrent(const std::vector<int>& dom, const Shape& s, const std::string& prefix) {
    TensorInfo t;
    t.name = fresh(prefix);
    t.dims = dom;
    t.shape = s;
    t.available = false;
    t.recurrent = true;
    t.computed = true;
    body_ << t.name << " : " << typeText(Ty::F32, s) << " over " << domainText(dom) << "\n";
    return addTensor(std::move(t));
  }

  /// `h[<left side>] = value`: fixed dims of the scope give their value, free ones their name.
  void branch(int ti, const Scope& sc, const std::string& value) {
    const TensorInfo& t = tensors_[static_cast<size_t>(ti)];
    std::vector<std::string> items;
    for (int d : t.dims) items.push_back(sc.dims[d].kind == DimKind::Fixed ? sc.dims[d].fixed : dims_[d].name);
    body_ << t.name << "[" << joined(items) << "] = " << value << "\n";
  }

  std::string baseValue(Scope& sc, const Shape& s) {
    if (rng_.chance(0.15)) return rng_.pick(std::vector<std::string>{"0.0", "0.5", "-0.25"});
    return bounded(expr(sc, s, depth() - 1));
  }

  /// A domain containing `must` (and sometimes other dims), in declaration order.
  std::vector<int> domainWith(std::vector<int> must) {
    std::set<int> dom(must.begin(), must.end());
    for (int d = 0; d < static_cast<int>(dims_.size()); ++d)
      if (rng_.chance(0.5)) dom.insert(d);
    return {dom.begin(), dom.end()};
  }

  /// A self read h[...] with dim `d` at `atD` and the other dims at themselves or at a constant.
  std::string selfRead(Scope& sc, int ti, const std::map<int, std::string>& at) {
    const TensorInfo& t = tensors_[static_cast<size_t>(ti)];
    std::vector<std::string> items;
    for (int d : t.dims) {
      auto it = at.find(d);
      if (it != at.end()) items.push_back(it->second);
      else if (sc.dims[d].kind == DimKind::Fixed) items.push_back(sc.dims[d].fixed);
      else if (rng_.chance(0.15)) items.push_back(rng_.chance(0.5) ? "0" : last(d));
      else items.push_back(dims_[d].name);
    }
    return t.name + "[" + joined(items) + "]";
  }

  /// A term of h's own past (future) along `d`, of h's shape; the region holds d >= 1 (d <= D-2).
  std::string selfTerm1D(Scope& sc, int ti, int d, bool future) {
    const TensorInfo& t = tensors_[static_cast<size_t>(ti)];
    const std::string& n = dims_[d].name;
    const std::string& B = dims_[d].bound;
    std::vector<double> w = {4, 2, 1.5, 1.5, t.shape.size() == 1 && opt_.matmul ? 1.5 : 0.0, future ? 0.0 : 1.0};
    switch (rng_.weighted(w)) {
      case 0: return selfRead(sc, ti, {{d, future ? n + " + 1" : n + " - 1"}});
      case 1:
        note(RandomFeature::Clamp);
        return "GAMMA * " + selfRead(sc, ti, {{d, future ? "min(" + last(d) + ", " + n + " + 2)" : "max(0, " + n + " - 2)"}});
      case 2:
        note(RandomFeature::SelfWindow);
        note(future ? RandomFeature::FutureRange : RandomFeature::GrowingWindow);
        return "mean(" + selfRead(sc, ti, {{d, future ? n + " + 1:" + B : "0:" + n}}) + ", dim=0)";
      case 3:
        note(RandomFeature::SelfWindow);
        note(RandomFeature::SlidingWindow);
        return "0.5 * sum(" + selfRead(sc, ti, {{d, future ? n + " + 1:min(" + B + ", " + n + " + 1 + W)" : "max(0, " + n + " - W):" + n}}) + ", dim=0)";
      case 4: note(RandomFeature::Matmul); return "(" + selfRead(sc, ti, {{d, future ? n + " + 1" : n + " - 1"}}) + " @ " + leaf(sc, {t.shape[0], t.shape[0]}) + ")";
      default: note(RandomFeature::FloorMod); return selfRead(sc, ti, {{d, n + " // 2"}});
    }
  }

  /// `bounded(self terms + expr)` or a convex mix, of shape s.
  std::string stepValue(const std::string& self, Scope& sc, const Shape& s) {
    std::string e = expr(sc, s, depth() - 1);
    if (rng_.chance(0.3)) return "0.5 * " + self + " + 0.5 * tanh(" + e + ")";
    return bounded(self + " + " + e);
  }

  void makeRecurrence1D(bool future) {
    note(future ? RandomFeature::FutureRecurrence : RandomFeature::PastRecurrence);
    int d = rng_.range(0, static_cast<int>(dims_.size()) - 1);
    std::vector<int> dom = domainWith({d});
    Shape s = randomShape();
    if (s.size() == 2) s.pop_back();
    int ti = declareRecurrent(dom, s, future ? "g" : "h");
    Scope base = domainScope(dom);
    fix(base, d, future ? last(d) : "0");
    branch(ti, base, baseValue(base, s));
    std::string twoStep;  // with a second base branch at 1 (T-2), the step may read h[t-2] (g[t+2])
    if (rng_.chance(0.25)) {
      note(RandomFeature::TwoStepBase);
      Scope second = domainScope(dom);
      fix(second, d, future ? dims_[d].bound + " - 2" : "1");
      (future ? second.dims[d].leLast : second.dims[d].geOne) = true;
      std::string prev = selfRead(second, ti, {{d, future ? dims_[d].name + " + 1" : dims_[d].name + " - 1"}});
      branch(ti, second, stepValue(prev, second, s));
      twoStep = selfRead(second, ti, {{d, future ? dims_[d].name + " + 2" : dims_[d].name + " - 2"}});
    }
    Scope step = domainScope(dom);
    (future ? step.dims[d].leLast : step.dims[d].geOne) = true;
    std::string self = selfTerm1D(step, ti, d, future);
    if (!twoStep.empty()) self = "0.5 * (" + self + " + " + twoStep + ")";
    if (rng_.chance(0.3)) self = "(" + self + " + " + selfTerm1D(step, ti, d, future) + ")";
    branch(ti, step, stepValue(self, step, s));
    tensors_[static_cast<size_t>(ti)].available = true;
  }

  /// Two recurrence dims p (strictly into the past) and q (past or future), ordered p then q.
  void makeTwoDim() {
    note(RandomFeature::TwoDimRecurrence);
    int p = rng_.range(0, static_cast<int>(dims_.size()) - 1);
    int q = rng_.range(0, static_cast<int>(dims_.size()) - 2);
    if (q >= p) ++q;
    bool qFuture = rng_.chance(0.4);
    if (qFuture) note(RandomFeature::FutureRecurrence);
    else note(RandomFeature::PastRecurrence);
    std::vector<int> dom = domainWith({p, q});
    Shape s = randomShape();
    if (s.size() == 2) s.pop_back();
    int ti = declareRecurrent(dom, s, "h");
    const std::string& pn = dims_[p].name;
    const std::string& qn = dims_[q].name;
    std::string qEdge = qFuture ? last(q) : "0";
    std::string qNext = qFuture ? qn + " + 1" : qn + " - 1";

    Scope b1 = domainScope(dom);
    fix(b1, p, "0");
    branch(ti, b1, baseValue(b1, s));

    Scope b2 = domainScope(dom);
    fix(b2, q, qEdge);
    b2.dims[p].geOne = true;
    std::string v2 = rng_.chance(0.5) ? stepValue(selfRead(b2, ti, {{p, pn + " - 1"}}), b2, s) : baseValue(b2, s);
    branch(ti, b2, v2);

    Scope st = domainScope(dom);
    st.dims[p].geOne = true;
    (qFuture ? st.dims[q].leLast : st.dims[q].geOne) = true;
    std::vector<std::string> terms;
    switch (rng_.range(0, 3)) {
      case 0: terms = {selfRead(st, ti, {{p, pn + " - 1"}, {q, qn}}), selfRead(st, ti, {{p, pn}, {q, qNext}})}; break;
      case 1: terms = {selfRead(st, ti, {{p, pn + " - 1"}, {q, qNext}})}; break;
      case 2: terms = {selfRead(st, ti, {{p, pn + " - 1"}, {q, rng_.chance(0.5) ? "0" : last(q)}}), selfRead(st, ti, {{p, pn}, {q, qNext}})}; break;
      default: terms = {selfRead(st, ti, {{p, "max(0, " + pn + " - 2)"}, {q, qn}}), selfRead(st, ti, {{p, pn}, {q, qNext}})}; note(RandomFeature::Clamp);
    }
    std::string self = terms.size() == 1 ? terms[0] : "0.5 * (" + terms[0] + " + " + terms[1] + ")";
    branch(ti, st, stepValue(self, st, s));
    tensors_[static_cast<size_t>(ti)].available = true;
  }

  /// GPT-style: x[o, i] = y[o-1, I-1] when i == 0, else y[o, i-1], with the let y reading x.
  void makeLetCycle() {
    note(RandomFeature::LetCycle);
    int o = rng_.range(0, static_cast<int>(dims_.size()) - 1);
    int i = rng_.range(0, static_cast<int>(dims_.size()) - 2);
    if (i >= o) ++i;
    std::vector<int> dom = domainWith({o, i});
    Shape s = {size()};
    if (rng_.chance(0.25)) s.clear();
    int xi = declareRecurrent(dom, s, "z");

    Scope ys = domainScope(dom);
    std::string xr = selfReadAll(xi);
    std::string mixed = s.empty() ? "(" + xr + " * 0.8)" : "(" + xr + " @ " + leaf(ys, {s[0], s[0]}) + ")";
    if (!s.empty()) note(RandomFeature::Matmul);
    TensorInfo y;
    y.name = fresh("y");
    y.dims = dom;
    y.shape = s;
    y.available = false;
    y.computed = true;
    body_ << y.name << " = " << bounded(mixed + " + " + expr(ys, s, depth() - 1)) << "\n";
    int yi = addTensor(std::move(y));

    Scope b1 = domainScope(dom);
    fix(b1, o, "0");
    fix(b1, i, "0");
    branch(xi, b1, baseValue(b1, s));
    Scope b2 = domainScope(dom);
    fix(b2, i, "0");
    b2.dims[o].geOne = true;
    branch(xi, b2, cycleRead(yi, {{o, dims_[o].name + " - 1"}, {i, last(i)}}));
    Scope b3 = domainScope(dom);
    b3.dims[i].geOne = true;
    branch(xi, b3, cycleRead(yi, {{i, dims_[i].name + " - 1"}}));
    tensors_[static_cast<size_t>(xi)].available = true;
    tensors_[static_cast<size_t>(yi)].available = true;
    tensors_[static_cast<size_t>(yi)].reads += 2;
  }

  std::string selfReadAll(int ti) const {
    const TensorInfo& t = tensors_[static_cast<size_t>(ti)];
    std::vector<std::string> items;
    for (int d : t.dims) items.push_back(dims_[d].name);
    return t.name + "[" + joined(items) + "]";
  }

  std::string cycleRead(int ti, const std::map<int, std::string>& at) const {
    const TensorInfo& t = tensors_[static_cast<size_t>(ti)];
    std::vector<std::string> items;
    for (int d : t.dims) items.push_back(at.count(d) ? at.at(d) : dims_[d].name);
    return t.name + "[" + joined(items) + "]";
  }

  /// Branches at d == 0 and d == D-1, then a general branch reading something at d-1 and d+1.
  void makeStencil() {
    note(RandomFeature::Stencil);
    int d = rng_.range(0, static_cast<int>(dims_.size()) - 1);
    std::vector<int> over;
    for (size_t k = 0; k < tensors_.size(); ++k) {
      const TensorInfo& t = tensors_[k];
      if (t.available && t.ty == Ty::F32 && t.shape.size() <= 1 && std::count(t.dims.begin(), t.dims.end(), d)) over.push_back(static_cast<int>(k));
    }
    int src = over.empty() ? -1 : rng_.pick(over);
    Shape s = src >= 0 ? tensors_[static_cast<size_t>(src)].shape : randomShape();
    if (s.size() == 2) s.pop_back();
    std::vector<int> dom = domainWith({d});
    int ti = declareRecurrent(dom, s, "c");
    Scope b1 = domainScope(dom);
    fix(b1, d, "0");
    branch(ti, b1, baseValue(b1, s));
    Scope b2 = domainScope(dom);
    fix(b2, d, last(d));
    branch(ti, b2, baseValue(b2, s));
    Scope st = domainScope(dom);
    st.dims[d].geOne = st.dims[d].leLast = true;
    std::string e = expr(st, s, depth());
    if (src >= 0) {
      note(RandomFeature::ShiftedRead);
      std::string before = shiftedRead(st, src, d, " - 1"), after = shiftedRead(st, src, d, " + 1");
      e = "(" + before + " - " + after + ") * 0.5 + " + e;
    }
    branch(ti, st, bounded(e));
    tensors_[static_cast<size_t>(ti)].available = true;
  }

  /// h[d] reads g[d-1] and g[d] reads h[d]: a cycle through two recurrent tensors; g may also
  /// read h[0] in a first-step branch or at every step.
  void makeMutual() {
    note(RandomFeature::MutualRecurrence);
    note(RandomFeature::PastRecurrence);
    int d = rng_.range(0, static_cast<int>(dims_.size()) - 1);
    std::vector<int> dom = domainWith({d});
    Shape s = {size()};
    if (rng_.chance(0.3)) s.clear();
    int hi = declareRecurrent(dom, s, "h");
    int gi = declareRecurrent(dom, s, "g");
    Scope base = domainScope(dom);
    fix(base, d, "0");
    branch(hi, base, baseValue(base, s));
    Scope step = domainScope(dom);
    step.dims[d].geOne = true;
    std::map<int, std::string> prev = {{d, dims_[d].name + " - 1"}};
    std::string self = rng_.chance(0.5) ? cycleRead(gi, prev) : "0.5 * (" + cycleRead(gi, prev) + " + " + cycleRead(hi, prev) + ")";
    branch(hi, step, stepValue(self, step, s));
    // Coupled as an LSTM's cell and state are: g's first step may read h at the fixed 0 (a
    // branch live at one step), or every step may read h[0] as well (a fixed step read from all).
    int coupling = rng_.range(0, 2);
    if (coupling == 1) {
      Scope gb = domainScope(dom);
      fix(gb, d, "0");
      branch(gi, gb, bounded("0.5 * " + cycleRead(hi, {{d, "0"}}) + " + " + expr(gb, s, depth() - 1)));
    }
    Scope gs = domainScope(dom);
    std::string fixedStep = coupling == 2 ? " + 0.5 * " + cycleRead(hi, {{d, "0"}}) : "";
    branch(gi, gs, bounded(selfReadAll(hi) + fixedStep + " + " + expr(gs, s, depth() - 1)));
    tensors_[static_cast<size_t>(hi)].available = tensors_[static_cast<size_t>(gi)].available = true;
    tensors_[static_cast<size_t>(hi)].reads += 1;
  }

  /// A read of `ti` with dim d at d + offset and other dims by pointIndex.
  std::string shiftedRead(Scope& sc, int ti, int d, const std::string& offset) {
    TensorInfo& t = tensors_[static_cast<size_t>(ti)];
    ++t.reads;
    std::vector<std::string> items;
    for (int k : t.dims) items.push_back(k == d ? dims_[d].name + offset : pointIndex(sc, k));
    return t.name + "[" + joined(items) + "]";
  }

  // --- outputs -----------------------------------------------------------------------------------

  void addOutput(const std::string& name, const std::vector<int>& dims, const Shape& s) {
    GeneratedOutput o;
    o.name = name;
    for (int d : dims) o.domainBounds.push_back(dims_[d].bound);
    o.spatial.assign(s.begin(), s.end());
    out_.outputs.push_back(std::move(o));
  }

  void declareOutputs() {
    // Everything computed and never read is an output, so no statement is dead code.
    size_t n = tensors_.size();
    for (size_t k = 0; k < n; ++k) {
      const TensorInfo& t = tensors_[k];
      if (!t.computed || (t.reads > 0 && !(t.recurrent && rng_.chance(0.5)))) continue;
      outs_ << "out " << t.name << "\n";
      addOutput(t.name, t.dims, t.shape);
    }
    if (rng_.chance(0.15)) {
      note(RandomFeature::SourceOutput);
      const TensorInfo& t = tensors_[static_cast<size_t>(rng_.range(0, sourceCount_ - 1))];
      outs_ << "out " << t.name << "\n";
      addOutput(t.name, t.dims, t.shape);
    }
    for (int k = rng_.range(1, 2); k > 0; --k) {
      Scope sc = letScope();
      Shape s = randomShape();
      std::string e = opt_.windows && rng_.chance(0.6) ? window(sc, s, depth()) : expr(sc, s, depth());
      std::string name = fresh("o");
      outs_ << "out " << name << " = " << e << "\n";
      addOutput(name, std::vector<int>(sc.used.begin(), sc.used.end()), s);
    }
  }

  Rng rng_;
  /// Decides whether to use the constructs added after 2026-12-03 (spatial indices, gather,
  /// argmax), so a seed that uses none of them is the program it was before they existed
  /// (seeds named in docs and notes keep their meaning).
  Rng newFeatures_;
  RandomProgramOptions opt_;
  uint64_t seed_;
  std::vector<Dim> dims_;
  std::vector<TensorInfo> tensors_;
  std::ostringstream header_, sources_, body_, outs_;
  GeneratedProgram out_;
  std::vector<int> palette_ = {1};
  int counter_ = 0, keys_ = 0, window_ = 2, sourceCount_ = 0;
};

}  // namespace

const char* featureName(RandomFeature f) {
  static const char* const names[] = {
      "past_recurrence", "future_recurrence", "two_dim_recurrence", "let_cycle", "stencil", "shifted_read",
      "const_index", "clamp", "floor_mod", "growing_window", "sliding_window", "future_range", "full_slice",
      "exclusive_window", "self_window", "matmul", "softmax", "attention", "reduction", "reshape", "transpose",
      "permute", "cast", "where", "index_value", "elementwise", "int_or_bool_source", "named_read", "bare_read",
      "concat", "expand", "keepdim", "log_softmax", "source_output", "mutual_recurrence", "two_step_base",
      "logical", "spatial_index", "argmax", "gather", "topk", "until"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(RandomFeature::Count));
  return names[static_cast<size_t>(f)];
}

GeneratedProgram generateRandomProgramWithReport(uint64_t seed, const RandomProgramOptions& options) {
  return Generator(seed, options).run();
}

std::string generateRandomProgram(uint64_t seed, const RandomProgramOptions& options) {
  return generateRandomProgramWithReport(seed, options).text;
}

}  // namespace tempo::testing
