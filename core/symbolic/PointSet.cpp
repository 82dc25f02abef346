// PointSet: isl-backed integer point sets built from IndexExpr constraints.
//
// Sets are built by printing constraints in isl's syntax and parsing them with
// isl_set_read_from_str. Vars and params are spelled internally as `v0, v1,
// ...` and `p0, p1, ...` (so a user name can never clash with an isl keyword
// such as `mod` or `and`) and renamed to the caller's names right after
// parsing; isl aligns parameters by name, so sets with the same params combine.
// isl errors never abort: the context continues on error and every failure
// becomes a std::invalid_argument carrying isl's message.
#include "symbolic/PointSet.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>
#include <isl/version.h>

#include <cctype>
#include <cstdlib>
#include <stdexcept>

namespace tempo {

namespace {

std::string lastIslError(isl_ctx* ctx) {
  const char* msg = isl_ctx_last_error_msg(ctx);
  std::string text = msg ? msg : "unknown isl error";
  isl_ctx_reset_error(ctx);
  return text;
}

void checkIdentifier(const std::string& name) {
  bool ok = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!ok) throw std::invalid_argument("invalid variable name '" + name + "'");
}

/// Validates names and maps each var/param name to its internal isl spelling.
std::map<std::string, IndexExpr> internalNames(const std::vector<std::string>& vars,
                                               const std::vector<std::string>& params) {
  std::map<std::string, IndexExpr> renaming;
  auto add = [&](const std::string& name, const std::string& internal) {
    checkIdentifier(name);
    if (!renaming.emplace(name, IndexExpr::dim(internal)).second)
      throw std::invalid_argument("name '" + name + "' is declared twice");
  };
  for (size_t i = 0; i < vars.size(); ++i) add(vars[i], "v" + std::to_string(i));
  for (size_t i = 0; i < params.size(); ++i) add(params[i], "p" + std::to_string(i));
  return renaming;
}

std::string relationText(Constraint::Rel rel) {
  switch (rel) {
    case Constraint::Rel::Eq: return "==";
    case Constraint::Rel::Ne: return "!=";
    case Constraint::Rel::Lt: return "<";
    case Constraint::Rel::Le: return "<=";
    case Constraint::Rel::Gt: return ">";
    case Constraint::Rel::Ge: return ">=";
  }
  return "?";
}

/// A constraint in isl syntax over internal names; Ne is the union of < and >.
std::string islConstraint(const Constraint& c, const std::map<std::string, IndexExpr>& renaming) {
  for (const IndexExpr* side : {&c.lhs, &c.rhs})
    for (const Symbol& s : side->symbols())
      if (!renaming.count(s.name))
        throw std::invalid_argument("constraint `" + c.str() + "` mentions unknown name '" +
                                    s.name + "'");
  std::string l = "(" + c.lhs.substitute(renaming).toIsl() + ")";
  std::string r = "(" + c.rhs.substitute(renaming).toIsl() + ")";
  if (c.rel == Constraint::Rel::Ne) return "(" + l + " < " + r + " or " + l + " > " + r + ")";
  std::string op = c.rel == Constraint::Rel::Eq ? "=" : relationText(c.rel);
  return l + " " + op + " " + r;
}

std::string joinNames(const std::string& prefix, size_t count) {
  std::string s;
  for (size_t i = 0; i < count; ++i) s += (i ? ", " : "") + prefix + std::to_string(i);
  return s;
}

isl_set* parseSet(isl_ctx* ctx, const std::string& text) {
  isl_set* set = isl_set_read_from_str(ctx, text.c_str());
  if (!set) throw std::invalid_argument("isl could not build `" + text + "`: " + lastIslError(ctx));
  return set;
}

void renameDims(isl_set*& set, const std::vector<std::string>& vars,
                const std::vector<std::string>& params) {
  for (size_t i = 0; i < vars.size(); ++i)
    set = isl_set_set_dim_name(set, isl_dim_set, static_cast<unsigned>(i), vars[i].c_str());
  for (size_t i = 0; i < params.size(); ++i)
    set = isl_set_set_dim_name(set, isl_dim_param, static_cast<unsigned>(i), params[i].c_str());
}

bool checkedBool(isl_ctx* ctx, isl_bool value, const char* what) {
  if (value == isl_bool_error)
    throw std::invalid_argument(std::string("isl failed in ") + what + ": " + lastIslError(ctx));
  return value == isl_bool_true;
}

/// Coordinates of a single point of `set` (all of its set dimensions).
std::vector<int64_t> pointCoordinates(isl_ctx* ctx, isl_set* set, int count) {
  isl_point* pt = isl_set_sample_point(set);
  if (!pt) throw std::invalid_argument("isl failed to sample: " + lastIslError(ctx));
  std::vector<int64_t> coords;
  for (int i = 0; i < count; ++i) {
    isl_val* v = isl_point_get_coordinate_val(pt, isl_dim_set, i);
    coords.push_back(isl_val_get_num_si(v));
    isl_val_free(v);
  }
  isl_point_free(pt);
  return coords;
}

}  // namespace

// ---- IslContext --------------------------------------------------------------

IslContext::IslContext() : ctx_(isl_ctx_alloc()) {
  if (!ctx_) throw std::runtime_error("isl_ctx_alloc failed");
  isl_options_set_on_error(ctx_, ISL_ON_ERROR_CONTINUE);
}

IslContext::~IslContext() {
  for (auto& [text, set] : parsed_) isl_set_free(set);
  isl_ctx_free(ctx_);
}

isl_set* IslContext::parsedSet(const std::string& text) {
  auto it = parsed_.find(text);
  if (it == parsed_.end()) {
    isl_set* set = isl_set_remove_redundancies(isl_set_coalesce(parseSet(ctx_, text)));
    it = parsed_.emplace(text, set).first;
  }
  return isl_set_copy(it->second);
}

std::string IslContext::version() { return isl_version(); }

std::string Constraint::str() const {
  return lhs.str() + " " + relationText(rel) + " " + rhs.str();
}

// ---- construction --------------------------------------------------------------

PointSet::PointSet(IslContext* ctx, isl_set* set, std::vector<std::string> vars,
                   std::vector<std::string> params)
    : ctx_(ctx), set_(set), vars_(std::move(vars)), params_(std::move(params)) {
  if (!set_) throw std::invalid_argument("isl operation failed: " + lastIslError(ctx_->get()));
}

PointSet PointSet::universe(IslContext& ctx, std::vector<std::string> vars,
                            std::vector<std::string> params) {
  return fromConstraints(ctx, std::move(vars), std::move(params), {});
}

PointSet PointSet::fromConstraints(IslContext& ctx, std::vector<std::string> vars,
                                   std::vector<std::string> params,
                                   const std::vector<Constraint>& conjunction) {
  auto renaming = internalNames(vars, params);
  std::string body;
  for (size_t i = 0; i < params.size(); ++i)
    body += (body.empty() ? "" : " and ") + ("p" + std::to_string(i)) + " >= 1";
  for (const auto& c : conjunction)
    body += (body.empty() ? "" : " and ") + islConstraint(c, renaming);
  std::string text = "[" + joinNames("p", params.size()) + "] -> { [" +
                     joinNames("v", vars.size()) + "]" + (body.empty() ? "" : " : " + body) + " }";
  isl_set* set = ctx.parsedSet(text);
  renameDims(set, vars, params);
  return PointSet(&ctx, set, std::move(vars), std::move(params));
}

PointSet PointSet::box(IslContext& ctx, std::vector<std::string> vars,
                       const std::vector<IndexExpr>& bounds, std::vector<std::string> params) {
  if (bounds.size() != vars.size())
    throw std::invalid_argument("box needs one bound per variable");
  std::vector<Constraint> constraints;
  for (size_t i = 0; i < vars.size(); ++i) {
    checkIdentifier(vars[i]);
    IndexExpr v = IndexExpr::dim(vars[i]);
    constraints.push_back({v, Constraint::Rel::Ge, IndexExpr(0)});
    constraints.push_back({v, Constraint::Rel::Lt, bounds[i]});
  }
  return fromConstraints(ctx, std::move(vars), std::move(params), constraints);
}

// ---- set algebra and questions ----------------------------------------------

namespace {

void checkCompatible(const PointSet& a, const PointSet& b, const char* op) {
  if (a.vars() != b.vars() || a.params() != b.params())
    throw std::invalid_argument(std::string("PointSet::") + op +
                                " needs the same vars and params on both sides");
}

}  // namespace

PointSet PointSet::intersect(const PointSet& other) const {
  checkCompatible(*this, other, "intersect");
  return PointSet(ctx_, isl_set_intersect(isl_set_copy(set_), isl_set_copy(other.set_)), vars_,
                  params_);
}

PointSet PointSet::unite(const PointSet& other) const {
  checkCompatible(*this, other, "unite");
  return PointSet(ctx_, isl_set_union(isl_set_copy(set_), isl_set_copy(other.set_)), vars_,
                  params_);
}

PointSet PointSet::subtract(const PointSet& other) const {
  checkCompatible(*this, other, "subtract");
  return PointSet(ctx_, isl_set_subtract(isl_set_copy(set_), isl_set_copy(other.set_)), vars_,
                  params_);
}

bool PointSet::isEmpty() const {
  return checkedBool(ctx_->get(), isl_set_is_empty(set_), "isEmpty");
}

bool PointSet::isSubsetOf(const PointSet& other) const {
  checkCompatible(*this, other, "isSubsetOf");
  return checkedBool(ctx_->get(), isl_set_is_subset(set_, other.set_), "isSubsetOf");
}

/// Params become leading set dimensions; the lexicographically least param
/// values (all >= 1, so the minimum exists) are fixed first, then the vars
/// take their least values when bounded, or any sample point otherwise.
std::optional<SymbolEnv> PointSet::sample() const {
  if (isEmpty()) return std::nullopt;
  isl_ctx* ctx = ctx_->get();
  const int np = static_cast<int>(params_.size());
  const int nv = static_cast<int>(vars_.size());
  isl_set* all = isl_set_move_dims(isl_set_copy(set_), isl_dim_set, 0, isl_dim_param, 0, np);
  isl_set* paramsOnly = isl_set_project_out(isl_set_copy(all), isl_dim_set, np, nv);
  std::vector<int64_t> paramValues = pointCoordinates(ctx, isl_set_lexmin(paramsOnly), np);
  for (int i = 0; i < np; ++i)
    all = isl_set_fix_val(all, isl_dim_set, i, isl_val_int_from_si(ctx, paramValues[i]));
  if (!all) throw std::invalid_argument("isl failed to sample: " + lastIslError(ctx));
  bool bounded = checkedBool(ctx, isl_set_is_bounded(all), "sample");
  std::vector<int64_t> values = pointCoordinates(ctx, bounded ? isl_set_lexmin(all) : all, np + nv);
  SymbolEnv env;
  for (int i = 0; i < np; ++i) env[params_[i]] = values[i];
  for (int i = 0; i < nv; ++i) env[vars_[i]] = values[np + i];
  return env;
}

std::string PointSet::str() const {
  char* text = isl_set_to_str(set_);
  std::string out = text ? text : "";
  free(text);
  return out;
}

// ---- value semantics -----------------------------------------------------------

PointSet::PointSet(const PointSet& other)
    : ctx_(other.ctx_), set_(isl_set_copy(other.set_)), vars_(other.vars_),
      params_(other.params_) {}

PointSet& PointSet::operator=(const PointSet& other) {
  if (this != &other) {
    isl_set* copy = isl_set_copy(other.set_);
    isl_set_free(set_);
    set_ = copy;
    ctx_ = other.ctx_;
    vars_ = other.vars_;
    params_ = other.params_;
  }
  return *this;
}

PointSet::PointSet(PointSet&& other) noexcept
    : ctx_(other.ctx_), set_(other.set_), vars_(std::move(other.vars_)),
      params_(std::move(other.params_)) {
  other.set_ = nullptr;
}

PointSet& PointSet::operator=(PointSet&& other) noexcept {
  if (this != &other) {
    isl_set_free(set_);
    set_ = other.set_;
    other.set_ = nullptr;
    ctx_ = other.ctx_;
    vars_ = std::move(other.vars_);
    params_ = std::move(other.params_);
  }
  return *this;
}

PointSet::~PointSet() { isl_set_free(set_); }

}  // namespace tempo
