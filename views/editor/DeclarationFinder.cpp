#include "editor/DeclarationFinder.h"

#include "frontend/Parser.h"

namespace tempo::views {

namespace {

/// The identifier `stmt` declares with the spelling `name`, if it declares it.
std::optional<SourceRange> declaredIn(const ast::Stmt& stmt, const std::string& name) {
  auto match = [&](const ast::Ident& id) -> std::optional<SourceRange> {
    if (id.name == name) return id.range;
    return std::nullopt;
  };
  if (const auto* d = stmt.as<ast::DimDecl>()) {
    if (auto r = match(d->name)) return r;
    return match(d->bound);
  }
  if (const auto* c = stmt.as<ast::ConstDecl>()) {
    for (const ast::ConstItem& item : c->items)
      if (auto r = match(item.name)) return r;
    return std::nullopt;
  }
  if (const auto* s = stmt.as<ast::SourceDecl>()) return match(s->name);
  if (const auto* t = stmt.as<ast::TensorDecl>()) return match(t->name);
  if (const auto* l = stmt.as<ast::Let>()) return match(l->name);
  if (const auto* o = stmt.as<ast::Out>()) return o->value ? match(o->name) : std::nullopt;
  return std::nullopt;
}

}  // namespace

std::optional<SourceRange> findDeclaration(std::string_view source, const std::string& name) {
  if (name.empty()) return std::nullopt;
  DiagnosticBag ignored;
  ast::Program program = parseProgram(source, "", ignored);
  for (const ast::Stmt& stmt : program.stmts)
    if (auto range = declaredIn(stmt, name)) return range;
  return std::nullopt;
}

}  // namespace tempo::views
