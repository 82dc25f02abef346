#include "frontend/AstPrinter.h"

#include <charconv>
#include <cstdio>

namespace tempo {
namespace {

using namespace ast;

/// Writes the tree into one string; each `print` appends.
class Printer {
public:
  std::string out;

  void expr(const Expr& e) { std::visit([&](const auto& node) { print(node); }, e.node); }

  void stmt(const Stmt& s) { std::visit([&](const auto& node) { print(node); }, s.node); }

private:
  void print(const IntLit& n) { out += std::to_string(n.value); }

  void print(const FloatLit& n) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, n.value);
    std::string text(buf, ec == std::errc() ? end : buf);
    if (text.find_first_of(".en") == std::string::npos) text += ".0";
    out += text;
  }

  void print(const StringLit& n) {
    out += '"';
    for (char c : n.value) {
      unsigned char u = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (u < 0x20 || u == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", u);
        out += buf;
      } else {
        out += c;
      }
    }
    out += '"';
  }

  void print(const BoolLit& n) { out += n.value ? "true" : "false"; }
  void print(const Name& n) { out += n.name; }

  void print(const Unary& n) {
    out += n.op == UnaryOp::Not ? "(not " : "(neg ";
    expr(*n.operand);
    out += ')';
  }

  void print(const Binary& n) {
    out += '(';
    out += binaryOpSpelling(n.op);
    out += ' ';
    expr(*n.lhs);
    out += ' ';
    expr(*n.rhs);
    out += ')';
  }

  void optionalExpr(const ExprPtr& e) {
    if (e) expr(*e);
    else out += '_';
  }

  void item(const IndexItem& it) {
    if (it.dim) out += it.dim->name + "=";
    if (it.kind == IndexItem::Kind::Point) {
      expr(*it.point);
      return;
    }
    out += "(: ";
    optionalExpr(it.lo);
    out += ' ';
    optionalExpr(it.hi);
    out += ')';
  }

  void items(const std::vector<IndexItem>& list) {
    out += '[';
    for (size_t i = 0; i < list.size(); ++i) {
      if (i) out += ' ';
      item(list[i]);
    }
    out += ']';
  }

  void print(const Index& n) {
    out += "(index ";
    expr(*n.base);
    out += ' ';
    items(n.items);
    if (n.hasSpatial) {
      out += " ; ";
      items(n.spatial);
    }
    out += ')';
  }

  void print(const Call& n) {
    out += "(call " + n.callee.name;
    for (const ExprPtr& a : n.args) {
      out += ' ';
      expr(*a);
    }
    for (const KeywordArg& k : n.kwargs) {
      out += ' ' + k.name.name + '=';
      expr(*k.value);
    }
    out += ')';
  }

  void print(const Tuple& n) {
    out += "(tuple";
    for (const ExprPtr& e : n.elems) {
      out += ' ';
      expr(*e);
    }
    out += ')';
  }

  void type(const TypeExpr& t) {
    out += "(type " + t.dtype.name + " [";
    for (size_t i = 0; i < t.shape.size(); ++i) {
      if (i) out += ' ';
      expr(*t.shape[i]);
    }
    out += "])";
  }

  void domain(const std::vector<Ident>& dims) {
    if (dims.empty()) return;
    out += " (over";
    for (const Ident& d : dims) out += ' ' + d.name;
    out += ')';
  }

  void print(const DimDecl& s) {
    out += "(dim " + s.name.name + ' ' + s.bound.name + (s.until ? " (until " + s.until->name + ")" : "") + ')';
  }

  void print(const SetStmt& s) {
    out += "(set";
    for (const SetItem& it : s.items) out += ' ' + it.name.name + '=' + std::to_string(it.value);
    out += ')';
  }

  void print(const ConstDecl& s) {
    out += "(const";
    for (const ConstItem& it : s.items) {
      out += ' ' + it.name.name + '=';
      expr(*it.value);
    }
    out += ')';
  }

  void print(const SourceDecl& s) {
    out += s.kind == SourceKind::Input ? "(input " : "(param ";
    out += s.name.name + ' ';
    type(s.type);
    domain(s.domain);
    out += ' ';
    expr(*s.init);
    out += ')';
  }

  void print(const TensorDecl& s) {
    out += "(tensor " + s.name.name + ' ';
    type(s.type);
    domain(s.domain);
    out += ')';
  }

  void print(const Branch& s) {
    out += "(branch " + s.target.name + ' ';
    items(s.indices);
    out += ' ';
    expr(*s.value);
    out += ')';
  }

  void print(const Let& s) {
    out += "(let " + s.name.name + ' ';
    expr(*s.value);
    out += ')';
  }

  void print(const Optimize& s) {
    out += "(optimize " + s.loss.name + ' ' + s.dim.name + ' ';
    expr(*s.optimizer);
    out += ')';
  }

  void print(const Out& s) {
    out += "(out " + s.name.name;
    if (s.value) {
      out += ' ';
      expr(*s.value);
    }
    out += ')';
  }
};

}  // namespace

std::string printAst(const ast::Program& program) {
  Printer p;
  for (const ast::Stmt& s : program.stmts) {
    p.stmt(s);
    p.out += '\n';
  }
  return std::move(p.out);
}

std::string printStmt(const ast::Stmt& stmt) {
  Printer p;
  p.stmt(stmt);
  return std::move(p.out);
}

std::string printExpr(const ast::Expr& expr) {
  Printer p;
  p.expr(expr);
  return std::move(p.out);
}

}  // namespace tempo
