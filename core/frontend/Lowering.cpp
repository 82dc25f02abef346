#include "frontend/Lowering.h"

#include "ops/TensorNamePattern.h"

#include "frontend/DomainChecks.h"
#include "graph/ExtentDependence.h"
#include "frontend/ExprLowering.h"
#include "frontend/IndexLowering.h"
#include "frontend/OptimizeLowering.h"
#include "ops/TensorNamePattern.h"
#include "ops/TypeInference.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace tempo {

namespace {

class StatementLowering {
public:
  explicit StatementLowering(LoweringContext& cx) : cx_(cx), optimize_(cx) {}

  void run(const ast::Program& program) {
    for (const ast::Stmt& s : program.stmts) std::visit([&](const auto& n) { lower(s, n); }, s.node);
    // Statements with syntax errors were dropped: whole-program checks would only repeat them.
    if (cx_.diags.hasErrors()) return;
    checkDomains(cx_);
    if (!cx_.diags.hasErrors()) lowerUntils();
    if (cx_.diags.hasErrors() || !optimize_.given()) return;
    // optimize rewrites the checked program into one training loop; check its recurrences again.
    optimize_.apply();
    if (!cx_.diags.hasErrors()) checkDomains(cx_);
  }

private:
  bool declareFresh(const ast::Ident& name) {
    if (!cx_.scope.isDeclared(name.name)) return true;
    cx_.error(name.range, "'" + name.name + "' is already declared");
    SourceRange prev = cx_.scope.declaration(name.name);
    if (prev.valid()) cx_.note(prev, "'" + name.name + "' was declared here");
    return false;
  }

  void lower(const ast::Stmt&, const ast::DimDecl& d) {
    if (!declareFresh(d.name) || !declareFresh(d.bound)) return;
    if (d.name.name == d.bound.name) {
      cx_.error(d.bound.range, "a dimension and its bound need different names");
      return;
    }
    cx_.scope.addDim(d.name.name, d.bound.name, SourceRange::cover(d.name.range, d.bound.range));
    cx_.graph.dims.push_back({d.name.name, d.bound.name});
    if (d.until) untils_.push_back({d.name.name, *d.until});
  }

  /// `dim t < T until done`: `done` becomes the graph's until output of t, once every tensor is
  /// declared and the recurrences are checked (ExtentDependence: decided step by step).
  void lowerUntils() {
    for (const auto& [dim, name] : untils_) {
      const TensorSymbol* t = cx_.scope.tensor(name.name);
      if (!t) {
        cx_.error(name.range, cx_.scope.isDeclared(name.name) ? "'" + name.name + "' is not a tensor"
                                                              : "unknown tensor '" + name.name + "' after 'until'");
        continue;
      }
      if (t->poisoned) continue;
      if (optimize_.given()) {
        cx_.error(name.range, "'until' in a program with 'optimize' is not supported yet: each iteration would stop "
                              "at its own step");
        continue;
      }
      if (t->type.dtype != DType::Bool) {
        cx_.error(name.range, "until needs a bool condition, not " + std::string(dtypeName(t->type.dtype)));
        cx_.note(t->declRange, "'" + name.name + "' is declared here");
        continue;
      }
      if (std::find(t->domain.begin(), t->domain.end(), dim) == t->domain.end()) {
        cx_.error(name.range, "the until condition '" + name.name + "' is over " + tupleString(t->domain) +
                                  "; it needs the dimension " + dim + " to say at which step " + dim + " ends");
        continue;
      }
      if (!t->type.isStaticOverDims()) {
        cx_.error(name.range, "the until condition '" + name.name + "' has type " + t->type.str() +
                                  ", whose size changes from point to point");
        continue;
      }
      if (auto bad = firstUndecidableRead(cx_.graph, t->node, dim)) {
        cx_.error(bad->loc.valid() ? bad->loc : name.range,
                  "the until condition '" + name.name + "' must be decided at each step of " + dim + " by that step: " +
                      bad->why);
        cx_.note(name.range, dim + " ends at the first step where '" + name.name + "' holds");
        continue;
      }
      GraphOutput* existing = nullptr;
      for (GraphOutput& o : cx_.graph.outputs) existing = o.name == name.name && o.node == t->node ? &o : existing;
      if (existing) existing->untilDim = dim;
      else cx_.graph.outputs.push_back({name.name, t->node, name.range, dim});
    }
  }

  void lower(const ast::Stmt&, const ast::SetStmt& s) {
    for (const ast::SetItem& item : s.items) {
      if (cx_.scope.kindOf(item.name.name) != Scope::NameKind::Bound) {
        cx_.error(item.name.range, "'" + item.name.name + "' is not the bound of a dimension (declare it with `dim x < " +
                                       item.name.name + "` first)");
        continue;
      }
      if (item.value < 1) {
        cx_.error(item.valueRange, "bound '" + item.name.name + "' must be at least 1, not " + std::to_string(item.value));
        continue;
      }
      cx_.graph.boundDefaults[item.name.name] = item.value;
    }
  }

  void lower(const ast::Stmt&, const ast::ConstDecl& c) {
    for (const ast::ConstItem& item : c.items) {
      if (!declareFresh(item.name)) continue;
      auto v = foldConstant(cx_, *item.value);
      cx_.scope.addConst(item.name.name, v.value_or(ConstNumber{0, true}), item.name.range);
    }
  }

  std::optional<TensorType> lowerType(const ast::TypeExpr& t, const std::vector<std::string>& dims) {
    auto dt = parseDType(t.dtype.name);
    if (!dt) {
      cx_.error(t.dtype.range, "unknown dtype '" + t.dtype.name + "' (expected f32, f64, i32, i64 or bool)");
      return std::nullopt;
    }
    TensorType out{*dt, {}};
    bool ok = true;
    for (const ast::ExprPtr& s : t.shape) {
      auto e = lowerIndexExpr(cx_, *s, dims, "shape size");
      if (!e) { ok = false; continue; }
      if (auto c = e->constantValue(); c && *c < 0) {
        cx_.error(s->range, "a shape size cannot be negative");
        ok = false;
      }
      out.shape.push_back(*e);
    }
    return ok ? std::optional<TensorType>(out) : std::nullopt;
  }

  std::optional<std::vector<std::string>> lowerDomain(const std::vector<ast::Ident>& dims) {
    std::vector<std::string> out;
    for (const ast::Ident& d : dims) {
      if (cx_.scope.kindOf(d.name) != Scope::NameKind::Dim) {
        cx_.error(d.range, cx_.scope.isDeclared(d.name) ? "'" + d.name + "' is not a dimension"
                                                        : "unknown dimension '" + d.name + "'");
        return std::nullopt;
      }
      if (std::find(out.begin(), out.end(), d.name) != out.end()) {
        cx_.error(d.range, "dimension '" + d.name + "' is listed twice");
        return std::nullopt;
      }
      out.push_back(d.name);
    }
    std::vector<std::string> ordered = cx_.scope.inDeclarationOrder(out);
    if (ordered != out) {
      cx_.error(dims.front().range, "list the dimensions in the order they were declared: " + tupleString(ordered));
      return std::nullopt;
    }
    return out;
  }

  std::optional<double> numberArg(const ast::Call& call, const std::string& name, std::optional<double> dflt) {
    for (const ast::KeywordArg& k : call.kwargs)
      if (k.name.name == name) {
        auto v = foldConstant(cx_, *k.value);
        return v ? std::optional<double>(v->value) : std::nullopt;
      }
    if (!dflt) cx_.error(call.callee.range, call.callee.name + "() needs the argument " + name + "=");
    return dflt;
  }

  bool onlyKeywords(const ast::Call& call, const std::set<std::string>& allowed, size_t positional) {
    bool ok = call.args.size() == positional;
    if (!ok)
      cx_.error(call.callee.range, call.callee.name + "() takes " + std::to_string(positional) + " positional argument" +
                                       (positional == 1 ? "" : "s") + ", got " + std::to_string(call.args.size()));
    for (const ast::KeywordArg& k : call.kwargs)
      if (!allowed.count(k.name.name)) {
        cx_.error(k.name.range, call.callee.name + "() has no argument '" + k.name.name + "'");
        ok = false;
      }
    return ok;
  }

  /// load()'s tensor= (a .safetensors file's tensor, TensorNamePattern): required for such a
  /// file, refused for another; its placeholders must name the leading dimensions of `domain`.
  bool loadTensorName(const ast::Call& call, bool safetensors, const std::vector<std::string>& domain, OpAttrs& a) {
    const ast::KeywordArg* arg = nullptr;
    for (const ast::KeywordArg& k : call.kwargs)
      if (k.name.name == "tensor") arg = &k;
    if (!arg) {
      if (safetensors)
        cx_.error(call.callee.range, "load() of a .safetensors file needs the tensor's name: tensor=\"...\"");
      return !safetensors;
    }
    if (!safetensors) {
      cx_.error(arg->name.range, "tensor= names a tensor of a .safetensors file; '" + a.displayPath + "' is not one");
      return false;
    }
    const ast::StringLit* name = arg->value->as<ast::StringLit>();
    if (!name) {
      cx_.error(arg->value->range, "tensor= expects the tensor's name in quotes");
      return false;
    }
    std::string error;
    std::optional<TensorNamePattern> pattern = parseTensorNamePattern(name->value, error);
    if (!pattern) {
      cx_.error(arg->value->range, "tensor=\"" + name->value + "\": " + error);
      return false;
    }
    for (size_t i = 0; i < pattern->dims.size(); ++i) {
      const std::string& d = pattern->dims[i];
      if (std::find(domain.begin(), domain.end(), d) == domain.end()) {
        std::string dims;
        for (const std::string& x : domain) dims += (dims.empty() ? "" : ", ") + x;
        cx_.error(arg->value->range, "tensor=\"" + name->value + "\": {" + d + "} is not a dimension of the domain (" +
                                         dims + ")");
        return false;
      }
      if (i >= domain.size() || domain[i] != d) {
        cx_.error(arg->value->range, "tensor=\"" + name->value + "\": the dimensions named in {} must lead the domain, in its order (" +
                                         d + " is not dimension " + std::to_string(i + 1) + ")");
        return false;
      }
    }
    a.tensor = name->value;
    return true;
  }

  /// The source op and attributes of an initialiser call; nullopt after reporting.
  std::optional<std::pair<OpKind, OpAttrs>> lowerInitialiser(const ast::Expr& init,
                                                              const std::vector<std::string>& domain) {
    const ast::Call* call = init.as<ast::Call>();
    if (!call) {
      cx_.error(init.range, "expected an initialiser: load(\"file.npy\"), zeros(), ones(), normal(...), uniform(...) or hash(...)");
      return std::nullopt;
    }
    const std::string& f = call->callee.name;
    OpAttrs a;
    if (f == "load") {
      if (!onlyKeywords(*call, {"tensor"}, 1)) return std::nullopt;
      const ast::StringLit* s = call->args[0]->as<ast::StringLit>();
      if (!s) {
        cx_.error(call->args[0]->range, "load() expects a file path in quotes");
        return std::nullopt;
      }
      std::filesystem::path p(s->value);
      a.displayPath = s->value;
      a.path = p.is_absolute() ? p.string() : (std::filesystem::path(cx_.baseDir) / p).lexically_normal().string();
      if (!loadTensorName(*call, p.extension() == ".safetensors", domain, a)) return std::nullopt;
      return std::make_pair(OpKind::Load, a);
    }
    if (f == "zeros" || f == "ones") {
      if (!onlyKeywords(*call, {}, 0)) return std::nullopt;
      a.value = f == "ones" ? 1 : 0;
      return std::make_pair(OpKind::Constant, a);
    }
    auto seedArg = [&](const std::string& key) -> std::optional<uint64_t> {
      auto s = numberArg(*call, key, std::nullopt);
      if (!s) return std::nullopt;
      if (*s < 0 || *s != static_cast<double>(static_cast<uint64_t>(*s))) {
        cx_.error(call->callee.range, key + "= must be a non-negative integer");
        return std::nullopt;
      }
      return static_cast<uint64_t>(*s);
    };
    if (f == "normal") {
      if (!onlyKeywords(*call, {"seed", "std", "mean"}, 0)) return std::nullopt;
      auto seed = seedArg("seed");
      auto sd = numberArg(*call, "std", 1.0), mean = numberArg(*call, "mean", 0.0);
      if (!seed || !sd || !mean) return std::nullopt;
      a.seed = *seed; a.a = *mean; a.b = *sd;
      return std::make_pair(OpKind::RandomNormal, a);
    }
    if (f == "uniform") {
      if (!onlyKeywords(*call, {"seed", "low", "high"}, 0)) return std::nullopt;
      auto seed = seedArg("seed");
      auto lo = numberArg(*call, "low", 0.0), hi = numberArg(*call, "high", 1.0);
      if (!seed || !lo || !hi) return std::nullopt;
      a.seed = *seed; a.a = *lo; a.b = *hi;
      return std::make_pair(OpKind::RandomUniform, a);
    }
    if (f == "hash") {
      if (!onlyKeywords(*call, {"key", "scale"}, 0)) return std::nullopt;
      auto scale = numberArg(*call, "scale", 1.0);
      if (!scale) return std::nullopt;
      const ast::Expr* keyExpr = nullptr;
      for (const ast::KeywordArg& k : call->kwargs)
        if (k.name.name == "key") keyExpr = k.value.get();
      if (keyExpr && !foldConstant(cx_, *keyExpr, false)) {
        // A key that varies over the domain (`key=2000 + i`): the flat index then
        // counts the other dimensions only (runtime/init/SourceArray).
        auto key = lowerIndexExpr(cx_, *keyExpr, domain, "hash key");
        if (!key) return std::nullopt;
        if (key->dependsOnKind(SymbolKind::Bound)) {
          cx_.error(keyExpr->range, "a hash key may use the source's dimensions and integer constants, not bounds");
          return std::nullopt;
        }
        a.index = *key;
        a.b = *scale;
        return std::make_pair(OpKind::HashInit, a);
      }
      auto key = seedArg("key");
      if (!key) return std::nullopt;
      a.seed = *key; a.b = *scale;
      return std::make_pair(OpKind::HashInit, a);
    }
    cx_.error(call->callee.range, "unknown initialiser '" + f + "' (expected load, zeros, ones, normal, uniform or hash)");
    return std::nullopt;
  }

  TensorSymbol poisoned(const ast::Ident& name, TensorSymbol::Kind kind, SourceRange range) {
    TensorSymbol t;
    t.kind = kind;
    t.name = name.name;
    t.declRange = range;
    t.poisoned = true;
    return t;
  }

  void lower(const ast::Stmt& stmt, const ast::SourceDecl& s) {
    if (!declareFresh(s.name)) return;
    auto kind = s.kind == ast::SourceKind::Input ? TensorSymbol::Kind::Input : TensorSymbol::Kind::Param;
    auto domain = lowerDomain(s.domain);
    auto type = lowerType(s.type, {});
    auto init = lowerInitialiser(*s.init, domain ? *domain : std::vector<std::string>{});
    if (!domain || !type || !init) {
      cx_.scope.addTensor(poisoned(s.name, kind, stmt.range));
      return;
    }
    Node n;
    n.op = init->first;
    n.attrs = init->second;
    n.domain = *domain;
    n.type = *type;
    n.loc = stmt.range;
    n.name = s.name.name;
    TensorSymbol t;
    t.kind = kind;
    t.name = s.name.name;
    t.domain = *domain;
    t.type = *type;
    t.declRange = stmt.range;
    t.node = cx_.graph.addNode(std::move(n));
    cx_.scope.addTensor(std::move(t));
  }

  void lower(const ast::Stmt& stmt, const ast::TensorDecl& d) {
    if (!declareFresh(d.name)) return;
    auto domain = lowerDomain(d.domain);
    auto type = domain ? lowerType(d.type, *domain) : std::nullopt;
    if (!domain || !type) {
      cx_.scope.addTensor(poisoned(d.name, TensorSymbol::Kind::Recurrent, stmt.range));
      return;
    }
    Node n;
    n.op = OpKind::Merge;
    n.domain = *domain;
    n.type = *type;
    n.loc = stmt.range;
    n.name = d.name.name;
    TensorSymbol t;
    t.kind = TensorSymbol::Kind::Recurrent;
    t.name = d.name.name;
    t.domain = *domain;
    t.type = *type;
    t.declRange = stmt.range;
    t.node = cx_.graph.addNode(std::move(n));
    cx_.scope.addTensor(std::move(t));
  }

  /// The guard of a branch's left side (`h[b, 0]` -> t == 0); nullopt after reporting.
  std::optional<Condition> branchGuard(const TensorSymbol& t, const ast::Branch& b) {
    if (b.indices.size() != t.domain.size()) {
      cx_.error(b.target.range, "'" + t.name + "' has " + std::to_string(t.domain.size()) + " dimension" +
                                    (t.domain.size() == 1 ? "" : "s") + " " + tupleString(t.domain) +
                                    " but its branch gives " + std::to_string(b.indices.size()) + " indices");
      return std::nullopt;
    }
    std::vector<Constraint> guard;
    bool ok = true;
    for (size_t i = 0; i < b.indices.size(); ++i) {
      const ast::IndexItem& item = b.indices[i];
      if (item.kind != ast::IndexItem::Kind::Point || item.dim) {
        cx_.error(item.range, "the left side of a branch indexes each dimension by itself or by a constant");
        ok = false;
        continue;
      }
      if (auto* n = item.point->as<ast::Name>(); n && n->name == t.domain[i]) continue;
      auto e = lowerIndexExpr(cx_, *item.point, {}, "index on the left side of a branch");
      if (!e) { ok = false; continue; }
      guard.push_back({IndexExpr::dim(t.domain[i]), Constraint::Rel::Eq, *e});
    }
    if (!ok) return std::nullopt;
    return guard.empty() ? Condition::always() : Condition::of(guard);
  }

  void lower(const ast::Stmt& stmt, const ast::Branch& b) {
    TensorSymbol* t = cx_.scope.tensor(b.target.name);
    if (!t) {
      if (cx_.scope.isDeclared(b.target.name))
        cx_.error(b.target.range, "'" + b.target.name + "' is not a tensor");
      else
        cx_.error(b.target.range, "unknown tensor '" + b.target.name + "': declare it first, e.g. `" + b.target.name +
                                      " : f32[] over (...)`");
      return;
    }
    if (t->kind != TensorSymbol::Kind::Recurrent) {
      cx_.error(b.target.range, "'" + t->name + "' is not a recurrent tensor; only tensors declared as `" + t->name +
                                    " : type over (...)` are defined by branches");
      return;
    }
    if (t->poisoned) return;
    auto guard = branchGuard(*t, b);
    if (!guard) return;
    Condition earlier = Condition::never();
    for (const auto& br : t->branches) earlier = earlier || br.guard;
    Site site{t->domain, *guard && !earlier};
    if (cx_.sitePoints(site).isEmpty())
      cx_.warning(stmt.range, "this branch is never used: earlier branches of '" + t->name + "' cover all of its points");
    ExprLowering low(cx_, site);
    Value v = low.lower(*b.value);
    int slot = static_cast<int>(t->branches.size());
    t->branches.push_back({*guard, stmt.range});
    if (v.isError()) {
      t->poisoned = true;  // the merge would lack an input; its readers are not checked further
      return;
    }
    TensorType vt = low.typeOf(v, t->type.dtype);
    if (vt.dtype != t->type.dtype) {
      cx_.error(b.value->range, "this branch of '" + t->name + "' has type " + vt.str() + ", but '" + t->name +
                                    "' is declared " + t->type.str());
      t->poisoned = true;
      return;
    }
    if (!(vt.shape == t->type.shape)) {
      auto bc = broadcastShapes(vt.shape, t->type.shape);
      if (!bc || *bc != t->type.shape) {
        cx_.error(b.value->range, "this branch of '" + t->name + "' has shape " + vt.shapeStr() + ", but '" + t->name +
                                      "' is declared " + t->type.str());
        t->poisoned = true;
        return;
      }
      OpAttrs a;
      a.shape = t->type.shape;
      v = low.makeOp(OpKind::Expand, a, {v}, b.value->range);
      if (v.isError()) { t->poisoned = true; return; }
    }
    low.connect(t->node, slot, v, t->type.dtype, *guard);
  }

  /// Dimensions an expression varies over: those its indices and same-point reads use.
  void collectDims(const ast::Expr& e, std::set<std::string>& dims) {
    if (auto* n = e.as<ast::Name>()) {
      if (cx_.scope.kindOf(n->name) == Scope::NameKind::Dim) dims.insert(n->name);
      if (const TensorSymbol* t = cx_.scope.tensor(n->name)) dims.insert(t->domain.begin(), t->domain.end());
      return;
    }
    if (auto* ix = e.as<ast::Index>()) {
      const ast::Name* base = ix->base->as<ast::Name>();
      const TensorSymbol* t = base ? cx_.scope.tensor(base->name) : nullptr;
      bool named = !ix->items.empty() && ix->items[0].dim.has_value();
      if (t && (named || ix->items.empty())) {
        for (const std::string& d : t->domain) {
          bool mentioned = std::any_of(ix->items.begin(), ix->items.end(),
                                       [&](const ast::IndexItem& it) { return it.dim && it.dim->name == d; });
          if (!mentioned) dims.insert(d);
        }
      }
      for (const ast::IndexItem& it : ix->items)
        for (const ast::ExprPtr* p : {&it.point, &it.lo, &it.hi})
          if (*p) collectDims(**p, dims);
      return;
    }
    if (auto* u = e.as<ast::Unary>()) return collectDims(*u->operand, dims);
    if (auto* b = e.as<ast::Binary>()) {
      collectDims(*b->lhs, dims);
      collectDims(*b->rhs, dims);
      return;
    }
    if (auto* c = e.as<ast::Call>()) {
      // grad(loss, W) varies as W does: the loss is summed over its domain.
      if (c->callee.name == "grad" && c->args.size() == 2) return collectDims(*c->args[1], dims);
      for (const ast::ExprPtr& a : c->args) collectDims(*a, dims);
      for (const ast::KeywordArg& k : c->kwargs) collectDims(*k.value, dims);
      return;
    }
    if (auto* t = e.as<ast::Tuple>())
      for (const ast::ExprPtr& x : t->elems) collectDims(*x, dims);
  }

  /// Lowers a let's value into one named node; nullopt after reporting.
  std::optional<TensorSymbol> lowerLetValue(const ast::Ident& name, const ast::Expr& value, SourceRange range,
                                            bool isOutput) {
    std::set<std::string> used;
    collectDims(value, used);
    Site site{cx_.scope.inDeclarationOrder({used.begin(), used.end()}), Condition::always()};
    ExprLowering low(cx_, site);
    Value v = low.lower(value);
    if (v.isError()) return std::nullopt;
    if (v.kind == Value::Kind::Number && !isOutput) {
      cx_.scope.addConst(name.name, v.number, name.range);
      return std::nullopt;
    }
    NodeId id;
    TensorType type;
    if (v.kind == Value::Kind::Node) {
      id = v.node;
      type = v.type;
    } else {
      // Numbers, index values and plain reads get a node of their own (an identity copy).
      Value copy = low.makeOp(OpKind::Identity, {}, {v}, range);
      if (copy.isError()) return std::nullopt;
      id = copy.node;
      type = copy.type;
    }
    Node& n = cx_.graph.node(id);
    n.name = name.name;
    n.loc = range;
    TensorSymbol t;
    t.kind = TensorSymbol::Kind::Let;
    t.name = name.name;
    t.node = id;
    t.domain = n.domain;
    t.type = type;
    t.declRange = range;
    return t;
  }

  void lower(const ast::Stmt& stmt, const ast::Let& l) {
    if (!declareFresh(l.name)) return;
    auto t = lowerLetValue(l.name, *l.value, stmt.range, false);
    if (t) cx_.scope.addTensor(std::move(*t));
    else if (!cx_.scope.isDeclared(l.name.name))
      cx_.scope.addTensor(poisoned(l.name, TensorSymbol::Kind::Let, stmt.range));
  }

  void lower(const ast::Stmt& stmt, const ast::Optimize& o) { optimize_.lower(stmt, o); }

  void lower(const ast::Stmt& stmt, const ast::Out& o) {
    const TensorSymbol* t = nullptr;
    if (o.value) {
      if (!declareFresh(o.name)) return;
      auto sym = lowerLetValue(o.name, *o.value, stmt.range, true);
      if (!sym) {
        cx_.scope.addTensor(poisoned(o.name, TensorSymbol::Kind::Let, stmt.range));
        return;
      }
      t = &cx_.scope.addTensor(std::move(*sym));
    } else {
      t = cx_.scope.tensor(o.name.name);
      if (!t) {
        cx_.error(o.name.range, cx_.scope.isDeclared(o.name.name) ? "'" + o.name.name + "' is not a tensor"
                                                                  : "unknown tensor '" + o.name.name + "'");
        return;
      }
      if (t->poisoned) return;
    }
    for (const GraphOutput& prev : cx_.graph.outputs)
      if (prev.name == o.name.name) {
        cx_.error(o.name.range, "'" + o.name.name + "' is already an output");
        return;
      }
    if (!t->type.isStaticOverDims()) {
      cx_.error(stmt.range, "output '" + o.name.name + "' has type " + t->type.str() +
                                ", whose size changes from point to point; an output needs one shape (reduce or slice it first)");
      return;
    }
    cx_.graph.outputs.push_back({o.name.name, t->node, stmt.range});
  }

  LoweringContext& cx_;
  OptimizeLowering optimize_;
  std::vector<std::pair<std::string, ast::Ident>> untils_;  ///< (dim, condition) of each `until`
};

}  // namespace

void lowerProgram(const ast::Program& program, LoweringContext& cx) { StatementLowering(cx).run(program); }

}  // namespace tempo
