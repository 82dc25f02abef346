#include "schedule/StoreBytes.h"

#include <algorithm>
#include <optional>

namespace tempo {

namespace {

using DimRanges = std::vector<std::pair<std::string, IndexExpr>>;

bool usedByFactors(const std::vector<IndexExpr>& factors, const std::string& dim) {
  return std::any_of(factors.begin(), factors.end(), [&](const IndexExpr& f) { return f.dependsOn(dim); });
}

int64_t product(const StoreBytesTerm& t, const SymbolEnv& env) {
  int64_t p = t.scale;
  for (const IndexExpr& f : t.factors) p *= std::max<int64_t>(0, f.evaluate(env));
  return p;
}

/// Max over the maxed dims from index k on (env holds the others).
int64_t maximum(const StoreBytesTerm& t, SymbolEnv& env, size_t k) {
  if (k == t.maxed.size()) return product(t, env);
  const auto& [dim, extent] = t.maxed[k];
  int64_t n = extent.evaluate(env), best = 0;
  for (int64_t v = 0; v < n; ++v) {
    env[dim] = v;
    best = std::max(best, maximum(t, env, k + 1));
  }
  env.erase(dim);
  return best;
}

/// Sum over the summed dims from index k on of the max over the maxed dims.
int64_t total(const StoreBytesTerm& t, SymbolEnv& env, size_t k) {
  if (k == t.summed.size()) return maximum(t, env, 0);
  const auto& [dim, extent] = t.summed[k];
  int64_t n = extent.evaluate(env), sum = 0;
  for (int64_t v = 0; v < n; ++v) {
    env[dim] = v;
    sum += total(t, env, k + 1);
  }
  env.erase(dim);
  return sum;
}

std::string factorString(const IndexExpr& f) {
  bool bare = f.asSymbol().has_value() || f.kind() == IndexExpr::Kind::Min || f.kind() == IndexExpr::Kind::Max ||
              f.kind() == IndexExpr::Kind::FloorDiv;
  return bare ? f.str() : "(" + f.str() + ")";
}

std::string ranges(const DimRanges& r) {
  std::string out;
  for (size_t i = 0; i < r.size(); ++i) out += (i ? ", " : "") + r[i].first + " < " + r[i].second.str();
  return out;
}

std::string termString(const StoreBytesTerm& t) {
  std::string body = t.scale == 1 && !t.factors.empty() ? "" : std::to_string(t.scale);
  for (const IndexExpr& f : t.factors) body += (body.empty() ? "" : "*") + factorString(f);
  if (!t.maxed.empty()) body = "max(" + ranges(t.maxed) + ": " + body + ")";
  if (!t.summed.empty()) body = "sum(" + ranges(t.summed) + ": " + body + ")";
  return body;
}

}  // namespace

StoreBytes::StoreBytes(IndexExpr bytes) { *this = term(1, {std::move(bytes)}); }

StoreBytes StoreBytes::term(int64_t scale, std::vector<IndexExpr> factors, DimRanges summed, DimRanges maxed) {
  StoreBytesTerm t;
  t.scale = scale;
  for (IndexExpr& f : factors) {
    auto lin = f.linear();
    if (auto c = f.constantValue()) {
      t.scale *= std::max<int64_t>(0, *c);
    } else if (lin && lin->constant == 0 && lin->coeffs.size() == 1 && lin->coeffs.begin()->second > 0) {
      t.scale *= lin->coeffs.begin()->second;  // 32*T: the coefficient joins the scale
      t.factors.push_back(IndexExpr::symbol(lin->coeffs.begin()->first));
    } else {
      t.factors.push_back(std::move(f));
    }
  }
  for (auto& [dim, extent] : maxed)
    if (usedByFactors(t.factors, dim)) t.maxed.emplace_back(dim, extent);
  // A summed dim no factor (nor a maximised dim's extent, nor a later summed
  // dim's extent: a guarded dim such as ds < floor(t / 8) + 1) uses
  // multiplies by its extent. Innermost first, so that a folded extent that
  // names an outer dim keeps that dim summed.
  for (auto it = summed.rbegin(); it != summed.rend(); ++it) {
    auto& [dim, extent] = *it;
    auto names = [&](const auto& r) { return r.second.dependsOn(dim); };
    bool used = usedByFactors(t.factors, dim) || std::any_of(t.maxed.begin(), t.maxed.end(), names) ||
                std::any_of(t.summed.begin(), t.summed.end(), names);
    if (used) {
      t.summed.insert(t.summed.begin(), {dim, extent});
    } else if (auto c = extent.constantValue()) {
      t.scale *= std::max<int64_t>(0, *c);
    } else {
      t.factors.push_back(extent);
    }
  }
  std::stable_sort(t.factors.begin(), t.factors.end());
  StoreBytes out;
  if (t.scale != 0) out.terms_.push_back(std::move(t));
  return out;
}

StoreBytes& StoreBytes::operator+=(const StoreBytes& other) {
  for (const StoreBytesTerm& t : other.terms_) {
    auto same = std::find_if(terms_.begin(), terms_.end(), [&](const StoreBytesTerm& u) {
      return u.factors == t.factors && u.summed == t.summed && u.maxed == t.maxed;
    });
    if (same != terms_.end()) same->scale += t.scale;  // 160 + 160 -> 320
    else terms_.push_back(t);
  }
  return *this;
}

int64_t StoreBytes::evaluate(const SymbolEnv& env) const {
  std::optional<SymbolEnv> scratch;  // copied only for a term that enumerates dims
  int64_t sum = 0;
  for (const StoreBytesTerm& t : terms_) {
    if (t.summed.empty() && t.maxed.empty()) {
      sum += product(t, env);
    } else {
      if (!scratch) scratch = env;
      sum += total(t, *scratch, 0);
    }
  }
  return sum;
}

std::string StoreBytes::str() const {
  if (terms_.empty()) return "0";
  std::string out;
  for (size_t i = 0; i < terms_.size(); ++i) out += (i ? " + " : "") + termString(terms_[i]);
  return out;
}

}  // namespace tempo
