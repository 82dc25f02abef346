#include "frontend/CallArgs.h"

namespace tempo {

bool CallArgs::expect(size_t minArgs, size_t maxArgs, const std::set<std::string>& allowed) {
  const std::string& f = call.callee.name;
  bool ok = true;
  if (call.args.size() < minArgs || call.args.size() > maxArgs) {
    std::string n = minArgs == maxArgs ? std::to_string(minArgs) : std::to_string(minArgs) + " to " + std::to_string(maxArgs);
    low.context().error(range, f + "() takes " + n + " positional argument" + (maxArgs == 1 ? "" : "s") + ", got " +
                                   std::to_string(call.args.size()));
    ok = false;
  }
  for (const ast::KeywordArg& k : call.kwargs) {
    if (!allowed.count(k.name.name)) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      low.context().error(k.name.range, f + "() has no argument '" + k.name.name + "'" +
                                            (list.empty() ? "" : " (it accepts: " + list + ")"));
      ok = false;
    }
  }
  return ok;
}

const ast::Expr* CallArgs::kw(const std::string& name) const {
  for (const ast::KeywordArg& k : call.kwargs)
    if (k.name.name == name) return k.value.get();
  return nullptr;
}

Value CallArgs::fail(const std::string& message) {
  low.context().error(range, message);
  return Value::error(range);
}

std::vector<const ast::Expr*> tupleItems(const ast::Expr& e) {
  std::vector<const ast::Expr*> items;
  if (auto* t = e.as<ast::Tuple>()) {
    for (const ast::ExprPtr& x : t->elems) items.push_back(x.get());
  } else {
    items.push_back(&e);
  }
  return items;
}

}  // namespace tempo
