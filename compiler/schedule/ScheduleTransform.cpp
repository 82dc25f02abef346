// ScheduleTransform: apply to each statement's time map, check every dependence (the text: ScheduleTransformText.cpp).
#include "schedule/ScheduleTransform.h"

#include "schedule/IslPtr.h"

#include <cctype>
#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace tempo {

namespace {

// ---- applying ---------------------------------------------------------------------------

/// One statement's time map, split from the schedule.
struct StatementTime {
  NodeId node = -1;
  IslPtr<isl_map> map;
};

isl_stat collectTime(isl_map* map, void* user) {
  auto* out = static_cast<std::map<std::string, StatementTime>*>(user);
  const char* name = isl_map_get_tuple_name(map, isl_dim_in);
  std::optional<NodeId> node = nodeOfStatement(name ? name : "");
  if (!node) {
    isl_map_free(map);
    return isl_stat_ok;
  }
  (*out)[name] = {*node, IslPtr<isl_map>(map)};
  return isl_stat_ok;
}

struct CoefficientSearch {
  int dim = 0;
  bool depends = false;
};

isl_stat pieceDepends(isl_set* set, isl_aff* aff, void* user) {
  auto* search = static_cast<CoefficientSearch*>(user);
  IslPtr<isl_val> v(isl_aff_get_coefficient_val(aff, isl_dim_in, search->dim));
  search->depends = search->depends || (v && isl_val_is_zero(v.get()) == isl_bool_false);
  isl_set_free(set);
  isl_aff_free(aff);
  return isl_stat_ok;
}

/// The first time entry of `map` whose expression depends on input dimension `dim` (-1: none).
int carryingEntry(isl_map* map, int dim) {
  isl_ctx* ctx = isl_map_get_ctx(map);
  auto pma = islCheck(isl_pw_multi_aff_from_map(isl_map_copy(map)), ctx, "reading a statement's schedule");
  const int entries = static_cast<int>(isl_pw_multi_aff_dim(pma.get(), isl_dim_out));
  for (int j = 0; j < entries; ++j) {
    IslPtr<isl_pw_aff> entry(isl_pw_multi_aff_get_pw_aff(pma.get(), j));
    CoefficientSearch search{dim};
    if (isl_pw_aff_foreach_piece(entry.get(), pieceDepends, &search) == isl_stat_error)
      throw IslError("reading a statement's schedule: " + islLastError(ctx));
    if (search.depends) return j;
  }
  return -1;
}

/// `{ [i0, i1, i2] -> [<outputs>] }` applied to the time of `map`.
void applyToTime(IslPtr<isl_map>& map, const std::vector<std::string>& outputs) {
  std::string in, out;
  const isl_size entries = isl_map_dim(map.get(), isl_dim_out);
  for (isl_size j = 0; j < entries; ++j) in += (j ? ", " : "") + std::string("i") + std::to_string(j);
  for (size_t j = 0; j < outputs.size(); ++j) out += (j ? ", " : "") + outputs[j];
  isl_ctx* ctx = isl_map_get_ctx(map.get());
  auto change = islCheck(isl_map_read_from_str(ctx, ("{ [" + in + "] -> [" + out + "] }").c_str()), ctx,
                         "building a schedule transform");
  map = islCheck(isl_map_apply_range(map.release(), change.release()), ctx, "applying a schedule transform");
}

std::string entry(int j) { return "i" + std::to_string(j); }

/// The nodes a transform's statement names: `%4`, `S_4`, or every node of that tensor name.
std::set<NodeId> namedStatements(const Graph& g, const DependenceRelations& rel, const ScheduleTransform& t) {
  std::set<NodeId> out;
  const std::string& s = t.statement;
  std::optional<NodeId> id;
  if (s.size() > 1 && s.size() <= 10 && s[0] == '%' &&
      std::all_of(s.begin() + 1, s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    id = std::stoi(s.substr(1));  // `%4x` is no node: it is looked up as a name and reported
  if (!id) id = nodeOfStatement(s);
  if (id) {
    if (!rel.statementOf(*id)) throw ScheduleTransformError(t.column, "no statement " + s + " in the program");
    return {*id};
  }
  std::set<std::string> names;
  for (const ScheduleStatement& st : rel.statements) {
    const Node& n = g.node(st.node);
    if (n.name == s) out.insert(st.node);
    if (!n.name.empty()) names.insert(n.name);
  }
  if (out.empty()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw ScheduleTransformError(t.column, "no statement named '" + s + "'; the named ones are " + list +
                                               " (or write %N / S_N)");
  }
  return out;
}

int dimIndex(const ScheduleStatement& st, const std::string& dim) {
  for (size_t i = 0; i < st.dims.size(); ++i)
    if (st.dims[i] == dim) return static_cast<int>(i);
  return -1;
}

/// The value of time entry `j` of `map` when it is the same constant for every instance.
std::optional<int64_t> constantEntry(isl_map* map, int j) {
  IslPtr<isl_map> one(isl_map_project_out(isl_map_copy(map), isl_dim_out, j + 1,
                                          isl_map_dim(map, isl_dim_out) - static_cast<isl_size>(j) - 1));
  one.reset(isl_map_project_out(one.release(), isl_dim_out, 0, j));
  IslPtr<isl_set> values(isl_map_range(one.release()));
  IslPtr<isl_val> v(isl_set_plain_get_val_if_fixed(values.get(), isl_dim_set, 0));
  if (!v || isl_val_is_int(v.get()) != isl_bool_true) return std::nullopt;
  return isl_val_get_num_si(v.get());
}

/// Where one statement carries the transform's dimensions (-1: it does not have them).
struct Carry {
  int dim = -1, other = -1;
  bool inScope = false;  ///< named by the transform (or every statement) and has its dimensions
};

Carry carryOf(const DependenceRelations& rel, const ScheduleTransform& t, const std::set<NodeId>& scope,
              const StatementTime& time) {
  Carry c;
  const ScheduleStatement* st = rel.statementOf(time.node);
  if (!st) return c;
  const int d = dimIndex(*st, t.dim), o = t.other.empty() ? -1 : dimIndex(*st, t.other);
  if (d >= 0) c.dim = carryingEntry(time.map.get(), d);
  if (o >= 0) c.other = carryingEntry(time.map.get(), o);
  c.inScope = (t.statement.empty() || scope.count(time.node)) && c.dim >= 0 && (t.other.empty() || c.other >= 0);
  return c;
}

/// Interchange as a loop nest transform: the statements that have both dimensions (the
/// nest) swap the two entries; a statement in the outer loop but not in the inner one
/// (`s` over b after the loop over t) is distributed out of the nest, before or after it
/// as it was ordered in the outer loop's body, by a new entry in front of the outer one.
void interchange(const ScheduleTransform& t, std::map<std::string, StatementTime>& times,
                 const std::map<std::string, Carry>& carries) {
  int outer = -1, inner = -1;
  std::optional<int64_t> nestOrder;
  bool nestOrderKnown = true;
  for (auto& [name, time] : times) {
    const Carry& c = carries.at(name);
    if (!c.inScope) continue;
    const int lo = std::min(c.dim, c.other), hi = std::max(c.dim, c.other);
    if (outer >= 0 && (lo != outer || hi != inner))
      throw ScheduleTransformError(t.column, "the statements with both " + t.dim + " and " + t.other +
                                                 " carry them at different loop levels; interchange them one "
                                                 "statement at a time (`in S`)");
    outer = lo, inner = hi;
    std::optional<int64_t> order = constantEntry(time.map.get(), outer + 1);
    if (!order || (nestOrder && *order != *nestOrder)) nestOrderKnown = false;
    nestOrder = order;
  }
  if (outer < 0 || outer == inner) return;
  for (auto& [name, time] : times) {
    const Carry& c = carries.at(name);
    const int entries = static_cast<int>(isl_map_dim(time.map.get(), isl_dim_out));
    std::vector<std::string> outputs;
    for (int j = 0; j < entries; ++j) outputs.push_back(entry(j));
    std::string distributed = "0";
    if (c.inScope) {
      std::swap(outputs[outer], outputs[inner]);
    } else if (nestOrderKnown && nestOrder && (c.dim == outer || c.other == outer) && outer + 1 < entries) {
      // In the outer loop, not in the inner one: before or after the nest.
      std::optional<int64_t> order = constantEntry(time.map.get(), outer + 1);
      if (order && *order != *nestOrder) distributed = *order < *nestOrder ? "-1" : "1";
    }
    outputs.insert(outputs.begin() + outer, distributed);
    applyToTime(time.map, outputs);
  }
}

/// Applies one transform to the statements it names.
void applyOne(const Graph& g, const DependenceRelations& rel, const ScheduleTransform& t,
              std::map<std::string, StatementTime>& times) {
  std::set<NodeId> scope;
  if (!t.statement.empty()) scope = namedStatements(g, rel, t);
  std::map<std::string, Carry> carries;
  int inScope = 0;
  for (auto& [name, time] : times) inScope += (carries[name] = carryOf(rel, t, scope, time)).inScope;
  if (inScope == 0) {
    const std::string what = t.other.empty() ? "dimension " + t.dim : "both dimensions " + t.dim + " and " + t.other;
    throw ScheduleTransformError(t.column, (t.statement.empty() ? "no statement has " : t.statement + " does not have ") +
                                               what + " in its loops");
  }
  if (t.kind == ScheduleTransform::Kind::Interchange) return interchange(t, times, carries);
  for (auto& [name, time] : times) {
    const Carry& c = carries.at(name);
    if (!c.inScope) continue;
    const int entries = static_cast<int>(isl_map_dim(time.map.get(), isl_dim_out));
    std::vector<std::string> outputs;
    for (int j = 0; j < entries; ++j) outputs.push_back(entry(j));
    const std::string plus = (t.amount < 0 ? " - " : " + ") + std::to_string(t.amount < 0 ? -t.amount : t.amount);
    if (t.kind == ScheduleTransform::Kind::Shift) outputs[c.dim] = entry(c.dim) + plus;
    if (t.kind == ScheduleTransform::Kind::Reverse) outputs[c.dim] = "-" + entry(c.dim);
    if (t.kind == ScheduleTransform::Kind::Skew) {
      if (c.dim == c.other) continue;  // one entry carries both: nothing to skew
      outputs[c.dim] = entry(c.dim) + plus + "*" + entry(c.other);
    }
    applyToTime(time.map, outputs);
  }
}

// ---- checking ---------------------------------------------------------------------------

std::string nodeWords(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  std::string s = "%" + std::to_string(id) + (n.name.empty() ? "" : " '" + n.name + "'") + " (" +
                  std::string(opName(n.op)) + ")";
  return s;
}

/// `[b=0, t=1]` from point coordinates [first, first + dims.size()).
std::string pointWords(const std::vector<std::string>& dims, const std::vector<int64_t>& values, size_t first) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + dims[i] + "=" + std::to_string(values[first + i]);
  return s + "]";
}

/// The smallest violating pair of `bad` (bounds first), in words.
std::string examplePair(const Graph& g, const DependenceRelations& rel, const EdgeDependence& d, isl_map* bad) {
  isl_ctx* ctx = isl_map_get_ctx(bad);
  isl_set* pairs = isl_map_wrap(isl_map_copy(bad));
  const int params = static_cast<int>(isl_set_dim(pairs, isl_dim_param));
  pairs = isl_set_move_dims(pairs, isl_dim_set, 0, isl_dim_param, 0, params);
  IslPtr<isl_set> smallest(isl_set_lexmin(pairs));
  if (!smallest) return "";
  IslPtr<isl_point> point(isl_set_sample_point(isl_set_copy(smallest.get())));
  if (!point || isl_point_is_void(point.get()) == isl_bool_true) {
    isl_ctx_reset_error(ctx);
    return "";
  }
  const int n = static_cast<int>(isl_set_dim(smallest.get(), isl_dim_set));
  std::vector<int64_t> values;
  for (int i = 0; i < n; ++i) {
    IslPtr<isl_val> v(isl_point_get_coordinate_val(point.get(), isl_dim_set, i));
    values.push_back(v ? isl_val_get_num_si(v.get()) : 0);
  }
  IslPtr<isl_space> space(isl_map_get_space(bad));
  std::string boundsText;
  for (int i = 0; i < params; ++i) {
    const char* p = isl_space_get_dim_name(space.get(), isl_dim_param, i);
    auto bound = rel.boundOfParam.find(p ? p : "");
    if (bound == rel.boundOfParam.end()) continue;  // a derived bound
    boundsText += (boundsText.empty() ? "" : ", ") + bound->second + "=" + std::to_string(values[i]);
  }
  const ScheduleStatement* producer = rel.statementOf(d.producer);
  const ScheduleStatement* consumer = rel.statementOf(d.consumer);
  const size_t producerFirst = static_cast<size_t>(params);
  const size_t consumerFirst = producerFirst + producer->dims.size();
  return "e.g. " + nodeWords(g, d.producer) + " at " + pointWords(producer->dims, values, producerFirst) +
         " would run at or after its reader " + nodeWords(g, d.consumer) + " at " +
         pointWords(consumer->dims, values, consumerFirst) + (boundsText.empty() ? "" : " (" + boundsText + ")");
}

std::string sentenceFor(const Graph& g, const DependenceRelations& rel, const EdgeDependence& d, isl_map* bad) {
  const Edge& e = g.edge(d.edge);
  const Node& consumer = g.node(d.consumer);
  SourceRange where = e.loc.valid() ? e.loc : consumer.loc;
  std::string s = nodeWords(g, d.consumer) + " reads " + e.str();
  if (where.valid())
    s += " at " + (g.file.empty() ? std::string("line ") : g.file + ":") + std::to_string(where.begin.line) +
         (g.file.empty() ? "" : ":" + std::to_string(where.begin.col));
  std::string example = examplePair(g, rel, d, bad);
  return s + ": the transformed schedule runs the value after its reader" + (example.empty() ? "" : "; " + example);
}

}  // namespace

TransformedSchedule transformSchedule(const Graph& g, IslContext& context, const DependenceRelations& rel,
                                      const std::string& scheduleMap,
                                      const std::vector<ScheduleTransform>& transforms) {
  isl_ctx* ctx = context.get();
  auto schedule = islCheck(isl_union_map_read_from_str(ctx, scheduleMap.c_str()), ctx, "reading the schedule");
  std::map<std::string, StatementTime> times;
  if (isl_union_map_foreach_map(schedule.get(), collectTime, &times) == isl_stat_error)
    throw IslError("splitting the schedule: " + islLastError(ctx));
  for (const ScheduleTransform& t : transforms) applyOne(g, rel, t, times);

  TransformedSchedule out;
  IslPtr<isl_union_map> result(isl_union_map_empty(isl_union_map_get_space(schedule.get())));
  for (auto& [name, time] : times)
    result = islCheck(isl_union_map_add_map(result.release(), isl_map_copy(time.map.get())), ctx, "the schedule");
  out.map = islTakeString(isl_union_map_to_str(result.get()));

  auto derived = islCheck(isl_set_read_from_str(ctx, rel.paramContextWithDerived().c_str()), ctx, "the context");
  for (const EdgeDependence& d : rel.dependences) {
    if (d.validity.empty()) continue;
    auto producer = times.find(statementName(d.producer)), consumer = times.find(statementName(d.consumer));
    if (producer == times.end() || consumer == times.end()) continue;
    auto dep = islCheck(isl_map_read_from_str(ctx, d.validity.c_str()), ctx, "reading a dependence");
    if (isl_map_is_empty(dep.get()) == isl_bool_true) continue;
    // The pairs whose producer does not run strictly before its consumer.
    isl_map* late = isl_map_lex_ge_map(isl_map_copy(producer->second.map.get()), isl_map_copy(consumer->second.map.get()));
    auto bad = islCheck(isl_map_intersect(dep.release(), late), ctx, "checking a dependence");
    bad = islCheck(isl_map_intersect_params(bad.release(), isl_set_copy(derived.get())), ctx, "checking a dependence");
    const isl_bool empty = isl_map_is_empty(bad.get());
    if (empty == isl_bool_error) throw IslError("checking a dependence: " + islLastError(ctx));
    if (empty == isl_bool_true) continue;
    ViolatedDependence v;
    v.edge = d.edge;
    v.producer = d.producer;
    v.consumer = d.consumer;
    v.pairs = islTakeString(isl_map_to_str(bad.get()));
    v.sentence = sentenceFor(g, rel, d, bad.get());
    out.violations.push_back(std::move(v));
  }
  return out;
}

IllegalScheduleError::IllegalScheduleError(std::vector<ViolatedDependence> violations, LoopProgram loops)
    : std::runtime_error("the transformed schedule breaks " + std::to_string(violations.size()) + " dependence" +
                         (violations.size() == 1 ? "" : "s") +
                         (violations.empty() ? "" : ": " + violations.front().sentence)),
      violations_(std::move(violations)),
      loops_(std::move(loops)) {}

}  // namespace tempo
