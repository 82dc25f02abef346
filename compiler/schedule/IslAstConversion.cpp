// IslAstConversion: a recursive walk over isl_ast_node with owned handles.
#include "schedule/IslAstConversion.h"

#include "schedule/IslPtr.h"

#include <set>

namespace tempo {

namespace {

class AstConverter {
public:
  AstConverter(const DependenceRelations& rel, const Graph& g) : rel_(rel), g_(g) {}

  LoopBody body(isl_ast_node* node) {
    LoopBody out;
    append(node, out);
    return out;
  }

private:
  const DependenceRelations& rel_;
  const Graph& g_;
  std::set<std::string> iterators_;

  [[noreturn]] static void fail(const std::string& what) { throw IslError("converting the isl AST: " + what); }

  template <class T> IslPtr<T> own(T* p, isl_ast_node* context) {
    if (!p) fail(islLastError(isl_ast_node_get_ctx(context)));
    return IslPtr<T>(p);
  }

  void append(isl_ast_node* node, LoopBody& out) {
    switch (isl_ast_node_get_type(node)) {
      case isl_ast_node_block: {
        auto list = own(isl_ast_node_block_get_children(node), node);
        isl_size n = isl_ast_node_list_size(list.get());
        for (isl_size i = 0; i < n; ++i) {
          auto child = own(isl_ast_node_list_get_at(list.get(), i), node);
          append(child.get(), out);
        }
        return;
      }
      case isl_ast_node_mark: {
        auto child = own(isl_ast_node_mark_get_node(node), node);
        append(child.get(), out);
        return;
      }
      case isl_ast_node_for: out.push_back(LoopStmt{forStmt(node)}); return;
      case isl_ast_node_if: out.push_back(LoopStmt{ifStmt(node)}); return;
      case isl_ast_node_user: out.push_back(LoopStmt{execStmt(node)}); return;
      default: fail("unexpected AST node type");
    }
  }

  ForStmt forStmt(isl_ast_node* node) {
    auto iterator = own(isl_ast_node_for_get_iterator(node), node);
    auto id = own(isl_ast_expr_id_get_id(iterator.get()), node);
    ForStmt f;
    f.var = isl_id_get_name(id.get());
    auto init = own(isl_ast_node_for_get_init(node), node);
    f.lower = expr(init.get());
    bool added = iterators_.insert(f.var).second;
    if (isl_ast_node_for_is_degenerate(node) == isl_bool_true) {
      f.upper = f.lower + 1;
    } else {
      auto cond = own(isl_ast_node_for_get_cond(node), node);
      f.upper = upperBound(cond.get(), f.var);
      auto inc = own(isl_ast_node_for_get_inc(node), node);
      IndexExpr step = expr(inc.get());
      if (!step.constantValue() || *step.constantValue() < 1) fail("loop step `" + step.str() + "` is not a positive constant");
      f.step = *step.constantValue();
    }
    auto bodyNode = own(isl_ast_node_for_get_body(node), node);
    f.body = body(bodyNode.get());
    if (added) iterators_.erase(f.var);
    return f;
  }

  IfStmt ifStmt(isl_ast_node* node) {
    IfStmt s;
    auto cond = own(isl_ast_node_if_get_cond(node), node);
    s.condition = condition(cond.get());
    auto thenNode = own(isl_ast_node_if_get_then_node(node), node);
    s.thenBody = body(thenNode.get());
    if (isl_ast_node_if_has_else_node(node) == isl_bool_true) {
      auto elseNode = own(isl_ast_node_if_get_else_node(node), node);
      s.elseBody = body(elseNode.get());
    }
    return s;
  }

  ExecStmt execStmt(isl_ast_node* node) {
    auto call = own(isl_ast_node_user_get_expr(node), node);
    if (isl_ast_expr_get_type(call.get()) != isl_ast_expr_op ||
        isl_ast_expr_op_get_type(call.get()) != isl_ast_expr_op_call)
      fail("a user statement is not a call");
    isl_size n = isl_ast_expr_op_get_n_arg(call.get());
    auto callee = own(isl_ast_expr_op_get_arg(call.get(), 0), node);
    auto id = own(isl_ast_expr_id_get_id(callee.get()), node);
    std::string name = isl_id_get_name(id.get());
    std::optional<NodeId> statement = nodeOfStatement(name);
    if (!statement || !g_.hasNode(*statement)) fail("unknown statement " + name);
    ExecStmt s;
    s.node = *statement;
    for (isl_size i = 1; i < n; ++i) {
      auto arg = own(isl_ast_expr_op_get_arg(call.get(), i), node);
      s.point.push_back(expr(arg.get()));
    }
    if (s.point.size() != g_.node(s.node).domain.size())
      fail(name + " is called with " + std::to_string(s.point.size()) + " coordinates");
    return s;
  }

  /// `c <= e` -> e + 1; `c < e` -> e; a conjunction -> the min of its parts.
  IndexExpr upperBound(isl_ast_expr* cond, const std::string& var) {
    if (isl_ast_expr_get_type(cond) != isl_ast_expr_op) fail("loop condition is not a comparison");
    auto type = isl_ast_expr_op_get_type(cond);
    auto arg = [&](int i) {
      isl_ast_expr* a = isl_ast_expr_op_get_arg(cond, i);
      if (!a) fail("loop condition without operands");
      return IslPtr<isl_ast_expr>(a);
    };
    if (type == isl_ast_expr_op_and || type == isl_ast_expr_op_and_then) {
      auto a = arg(0), b = arg(1);
      return IndexExpr::min(upperBound(a.get(), var), upperBound(b.get(), var));
    }
    if (type != isl_ast_expr_op_le && type != isl_ast_expr_op_lt) fail("unsupported loop condition");
    auto lhs = arg(0), rhs = arg(1);
    IndexExpr l = expr(lhs.get());
    if (l != IndexExpr::dim(var)) fail("loop condition does not bound `" + var + "` on its left");
    IndexExpr r = expr(rhs.get());
    return type == isl_ast_expr_op_le ? r + 1 : r;
  }

  IndexExpr expr(isl_ast_expr* e) {
    isl_ctx* ctx = isl_ast_expr_get_ctx(e);
    switch (isl_ast_expr_get_type(e)) {
      case isl_ast_expr_int: {
        auto v = islCheck(isl_ast_expr_int_get_val(e), ctx, "reading an AST integer");
        if (isl_val_is_int(v.get()) != isl_bool_true) fail("non-integer constant");
        return IndexExpr(static_cast<int64_t>(isl_val_get_num_si(v.get())));
      }
      case isl_ast_expr_id: {
        auto id = islCheck(isl_ast_expr_id_get_id(e), ctx, "reading an AST identifier");
        std::string name = isl_id_get_name(id.get());
        if (iterators_.count(name)) return IndexExpr::dim(name);
        auto bound = rel_.boundOfParam.find(name);
        if (bound != rel_.boundOfParam.end()) return IndexExpr::bound(bound->second);
        fail("unknown identifier `" + name + "`");
      }
      case isl_ast_expr_op: return opExpr(e);
      default: fail("unexpected expression");
    }
  }

  std::vector<IndexExpr> args(isl_ast_expr* e) {
    std::vector<IndexExpr> out;
    isl_size n = isl_ast_expr_op_get_n_arg(e);
    for (isl_size i = 0; i < n; ++i) {
      auto a = islCheck(isl_ast_expr_op_get_arg(e, i), isl_ast_expr_get_ctx(e), "reading an operand");
      out.push_back(expr(a.get()));
    }
    return out;
  }

  static int64_t positiveConstant(const IndexExpr& e) {
    if (!e.constantValue() || *e.constantValue() < 1) fail("divisor `" + e.str() + "` is not a positive constant");
    return *e.constantValue();
  }

  IndexExpr opExpr(isl_ast_expr* e) {
    auto type = isl_ast_expr_op_get_type(e);
    std::vector<IndexExpr> a = args(e);
    switch (type) {
      case isl_ast_expr_op_add: return a.at(0) + a.at(1);
      case isl_ast_expr_op_sub: return a.at(0) - a.at(1);
      case isl_ast_expr_op_minus: return -a.at(0);
      case isl_ast_expr_op_mul: {
        std::optional<IndexExpr> p = IndexExpr::multiply(a.at(0), a.at(1));
        if (!p) fail("product of two non-constant expressions");
        return *p;
      }
      case isl_ast_expr_op_min:
      case isl_ast_expr_op_max: {
        IndexExpr acc = a.at(0);
        for (size_t i = 1; i < a.size(); ++i)
          acc = type == isl_ast_expr_op_min ? IndexExpr::min(acc, a[i]) : IndexExpr::max(acc, a[i]);
        return acc;
      }
      case isl_ast_expr_op_div:
      case isl_ast_expr_op_fdiv_q:
      case isl_ast_expr_op_pdiv_q: return IndexExpr::floorDiv(a.at(0), positiveConstant(a.at(1)));
      case isl_ast_expr_op_pdiv_r:
      case isl_ast_expr_op_zdiv_r: return IndexExpr::mod(a.at(0), positiveConstant(a.at(1)));
      default: fail("unsupported operation in an index expression");
    }
  }

  Condition condition(isl_ast_expr* e) {
    if (isl_ast_expr_get_type(e) != isl_ast_expr_op) fail("a condition is not an operation");
    auto type = isl_ast_expr_op_get_type(e);
    auto operand = [&](int i) {
      return islCheck(isl_ast_expr_op_get_arg(e, i), isl_ast_expr_get_ctx(e), "reading a condition");
    };
    switch (type) {
      case isl_ast_expr_op_and:
      case isl_ast_expr_op_and_then:
      case isl_ast_expr_op_or:
      case isl_ast_expr_op_or_else: {
        auto l = operand(0), r = operand(1);
        Condition a = condition(l.get()), b = condition(r.get());
        bool conj = type == isl_ast_expr_op_and || type == isl_ast_expr_op_and_then;
        return conj ? (a && b) : (a || b);
      }
      default: break;
    }
    Constraint::Rel rel;
    switch (type) {
      case isl_ast_expr_op_eq: rel = Constraint::Rel::Eq; break;
      case isl_ast_expr_op_le: rel = Constraint::Rel::Le; break;
      case isl_ast_expr_op_lt: rel = Constraint::Rel::Lt; break;
      case isl_ast_expr_op_ge: rel = Constraint::Rel::Ge; break;
      case isl_ast_expr_op_gt: rel = Constraint::Rel::Gt; break;
      default: fail("unsupported condition");
    }
    std::vector<IndexExpr> a = args(e);
    return Condition::of({Constraint{a.at(0), rel, a.at(1)}});
  }
};

}  // namespace

LoopBody convertIslAst(isl_ast_node* root, const DependenceRelations& rel, const Graph& g) {
  return AstConverter(rel, g).body(root);
}

}  // namespace tempo
