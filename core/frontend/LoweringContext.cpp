#include "frontend/LoweringContext.h"

namespace tempo {

PointSet LoweringContext::box(const std::vector<std::string>& domain) {
  std::vector<IndexExpr> bounds;
  for (const std::string& d : domain) bounds.push_back(IndexExpr::bound(scope.boundOf(d)));
  return PointSet::box(isl, domain, bounds, params());
}

PointSet LoweringContext::sitePoints(const Site& site) {
  return box(site.domain).intersect(site.region.toPointSet(isl, site.domain, params()));
}

std::string tupleString(const std::vector<std::string>& names) {
  std::string s = "(";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s + ")";
}

}  // namespace tempo
