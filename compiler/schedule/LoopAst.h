// LoopAst: the program as loops, the compiler's output and the executor's input.
//
// The isl scheduler orders every statement instance (one node at one point of
// its domain) and its AST generator produces loops; we convert that into this
// small AST of our own so the rest of the system never touches isl types:
// `For` loops over a variable between symbolic bounds (bounds stay
// parameters, so one schedule runs at any `--set T=...`), `If` guards, `Exec`
// of one node at a point given as index expressions over the loop variables,
// and memory statements `Alloc`/`Free` (and `SwapOut`/`SwapIn` under a memory
// budget) naming a node's store. Every statement prints as readable
// pseudo-code with the bytes it allocates or frees.
#pragma once

#include "graph/Condition.h"
#include "graph/Graph.h"
#include "schedule/StoreBytes.h"

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tempo {

struct LoopStmt;
using LoopBody = std::vector<LoopStmt>;

/// `for var in [lower, upper) step step`; bounds may use outer loop variables and bounds.
struct ForStmt {
  std::string var;
  IndexExpr lower;
  IndexExpr upper;  ///< exclusive
  int64_t step = 1;
  LoopBody body;
};

struct IfStmt {
  Condition condition;  ///< over loop variables and bounds
  LoopBody thenBody;
  LoopBody elseBody;
};

/// Evaluate `node` at `point` (one index expression per domain dimension,
/// over the enclosing loop variables and bounds).
struct ExecStmt {
  NodeId node = -1;
  std::vector<IndexExpr> point;
};

/// Allocate / release the store of `node`; `bytes` is symbolic in the bounds
/// and the enclosing loop variables (MemoryPlacement emits them). An Alloc
/// marked `recompute` (a memory budget's rematerialisation) allocates a store
/// freed earlier again; the exec after it computes its value a second time.
struct AllocStmt {
  NodeId node = -1;
  StoreBytes bytes;
  bool recompute = false;
};
struct FreeStmt {
  NodeId node = -1;
  StoreBytes bytes;
};
/// Move a store's values to host swap space and back (only under --memory-budget).
struct SwapOutStmt {
  NodeId node = -1;
  StoreBytes bytes;
};
struct SwapInStmt {
  NodeId node = -1;
  StoreBytes bytes;
};

struct LoopStmt {
  std::variant<ForStmt, IfStmt, ExecStmt, AllocStmt, FreeStmt, SwapOutStmt, SwapInStmt> node;
  template <class T> const T* as() const { return std::get_if<T>(&node); }
  template <class T> T* as() { return std::get_if<T>(&node); }
};

/// A whole schedule: the loop nest plus the graph it runs.
struct LoopProgram {
  LoopBody body;
};

/// Readable pseudo-code, one statement per line, indented by nesting:
///   for t in 0..T:
///     exec %4 h[b, t]
///   alloc %4 h  (32*B*T bytes)
std::string printLoopProgram(const Graph& g, const LoopProgram& p);
/// How the printed loops name a node: `%4 h`, or `%4 add` for an intermediate.
std::string statementLabel(const Graph& g, NodeId id);

/// `e - d` when `e` is the dimension (or loop variable) `d` plus a constant or
/// an expression of bounds (`t - W + 1`: 1 - W); nullopt otherwise.
inline std::optional<IndexExpr> offsetFromDim(const IndexExpr& e, const std::string& d) {
  auto lin = e.linear();
  if (!lin) return std::nullopt;
  IndexExpr offset = lin->constant;
  bool hasDim = false;
  for (const auto& [sym, coeff] : lin->coeffs) {
    if (sym.name == d && sym.kind == SymbolKind::Dim && coeff == 1) hasDim = true;
    else if (sym.kind == SymbolKind::Bound) offset = offset + IndexExpr::symbol(sym) * coeff;
    else return std::nullopt;
  }
  if (!hasDim) return std::nullopt;
  return offset;
}

/// The offset of `e` from loop `f`'s variable (isl may run t at c0 = t + B:
/// still one coordinate per iteration, in the loop's order).
inline std::optional<IndexExpr> offsetFromLoopVar(const IndexExpr& e, const ForStmt& f) { return offsetFromDim(e, f.var); }

/// A coordinate that moves with a loop: sign * the loop's variable + offset.
struct LoopOffset {
  int sign = 1;  ///< -1 where the coordinate runs against the variable (the backward pass's t = -c1)
  IndexExpr offset;
  bool operator==(const LoopOffset&) const = default;
};

/// `e` as +-(loop f's variable) + an offset of constants and bounds; nullopt otherwise.
inline std::optional<LoopOffset> alongLoop(const IndexExpr& e, const ForStmt& f) {
  if (auto o = offsetFromLoopVar(e, f)) return LoopOffset{1, *o};
  if (auto o = offsetFromLoopVar(IndexExpr(0) - e, f)) return LoopOffset{-1, IndexExpr(0) - *o};
  return std::nullopt;
}

/// The variables of the loops not inside another loop (those in top-level `if`s included, then-branch
/// first), in program order: the executor numbers these loops so, and a trace's steps name them by it.
inline void topLevelLoopVars(const LoopBody& body, std::vector<std::string>& out) {
  for (const LoopStmt& s : body) {
    if (const auto* f = s.as<ForStmt>()) out.push_back(f->var);
    else if (const auto* i = s.as<IfStmt>()) topLevelLoopVars(i->thenBody, out), topLevelLoopVars(i->elseBody, out);
  }
}

}  // namespace tempo
