#include "iteration/BlockTilings.h"

namespace tempo {

std::vector<BlockTiling> blockTilings(const Graph& g) {
  std::vector<BlockTiling> out;
  for (const DimDecl& block : g.dims) {
    auto derived = g.derivedBounds.find(block.bound);
    if (derived == g.derivedBounds.end()) continue;
    auto guard = g.dimGuards.find(block.name);
    BlockTiling t;
    t.blockDim = block.name;
    t.blockCount = block.bound;
    t.count = derived->second;
    if (derived->second.kind() == IndexExpr::Kind::FloorDiv) t.blockSize = derived->second.divisor();
    else if (guard != g.dimGuards.end()) t.blockSize = 1;  // floor((N + 0) / 1) is just N
    else continue;
    if (guard != g.dimGuards.end()) t.guard = guard->second;
    const std::set<Symbol> inGuard = t.guard.symbols();
    for (const Symbol& s : t.count.symbols()) {
      if (s.kind != SymbolKind::Bound || g.isDerivedBound(s.name)) continue;
      for (const DimDecl& d : g.dims) {
        if (d.bound != s.name) continue;
        const bool guarded = inGuard.count({d.name, SymbolKind::Dim}) != 0;
        if (t.dim.empty() || guarded) t.dim = d.name;
      }
    }
    if (!t.dim.empty()) out.push_back(std::move(t));
  }
  return out;
}

}  // namespace tempo
