// RelationReader: shapes parsed once, named per statement and edge.
#include "schedule/RelationReader.h"

namespace tempo {

namespace {

/// `[B, T] -> { }`: the empty union over `rel`'s parameters.
std::string emptyUnion(const DependenceRelations& rel) {
  std::string params;
  for (size_t i = 0; i < rel.params.size(); ++i) params += (i ? ", " : "") + rel.params[i];
  return "[" + params + "] -> { }";
}

}  // namespace

IslPtr<isl_map> RelationReader::map(const std::string& text, const std::string& producer, const std::string& consumer) {
  std::string shape = renamedTuples(renamedTuples(text, producer, kShapeProducer), consumer, kShapeConsumer);
  if (shape.find(std::string(kShapeProducer) + "[") == std::string::npos) return nullptr;  // `[..] -> { }`
  auto it = maps_.find(shape);
  if (it == maps_.end())
    it = maps_.emplace(shape, islCheck(isl_map_read_from_str(ctx_, shape.c_str()), ctx_, "parsing `" + shape + "`"))
             .first;
  isl_map* named = isl_map_set_tuple_name(isl_map_copy(it->second.get()), isl_dim_in, producer.c_str());
  named = isl_map_set_tuple_name(named, isl_dim_out, consumer.c_str());
  return islCheck(named, ctx_, "naming a dependence");
}

IslPtr<isl_union_set> RelationReader::domains(const DependenceRelations& rel) {
  auto out = islCheck(isl_union_set_read_from_str(ctx_, emptyUnion(rel).c_str()), ctx_, "reading domains");
  for (const ScheduleStatement& s : rel.statements) {
    std::string shape = renamedTuples(s.domain, s.name, kShapeProducer);
    if (shape.find(std::string(kShapeProducer) + "[") == std::string::npos) continue;
    auto it = sets_.find(shape);
    if (it == sets_.end())
      it = sets_.emplace(shape, islCheck(isl_set_read_from_str(ctx_, shape.c_str()), ctx_, "parsing `" + shape + "`"))
               .first;
    isl_set* named = isl_set_set_tuple_name(isl_set_copy(it->second.get()), s.name.c_str());
    out.reset(isl_union_set_add_set(out.release(), named));
    out = islCheck(out.release(), ctx_, "reading domains");
  }
  return out;
}

template <class Pick>
IslPtr<isl_union_map> RelationReader::dependences(const DependenceRelations& rel, Pick pick) {
  auto out = islCheck(isl_union_map_read_from_str(ctx_, emptyUnion(rel).c_str()), ctx_, "reading dependences");
  for (const EdgeDependence& d : rel.dependences) {
    IslPtr<isl_map> m = map(pick(d), statementName(d.producer), statementName(d.consumer));
    if (!m) continue;
    out = islCheck(isl_union_map_add_map(out.release(), m.release()), ctx_, "reading dependences");
  }
  return out;
}

IslPtr<isl_union_map> RelationReader::validity(const DependenceRelations& rel) {
  return dependences(rel, [](const EdgeDependence& d) -> const std::string& { return d.validity; });
}

IslPtr<isl_union_map> RelationReader::proximity(const DependenceRelations& rel, TimeDirection newest) {
  return dependences(rel, [&](const EdgeDependence& d) -> const std::string& {
    return newest == TimeDirection::Forward ? d.newestForward : d.newestBackward;
  });
}

}  // namespace tempo
