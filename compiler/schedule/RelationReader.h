// RelationReader: DependenceRelations read into isl objects, each shape parsed once.
//
// The relations are kept as text (so a schedule computed in another isl
// context can use them), and reading hundreds of statements and edges back
// is a large part of scheduling. Most of them share a shape: the same
// constraints up to their statements' names (`S_4[c0] -> S_9[c0] : ...`
// and `S_5[c0] -> S_10[c0] : ...`). The reader replaces a text's tuple names
// by the placeholders kShapeProducer / kShapeConsumer, parses each distinct
// shape once in its context, and names a copy of it for each statement or
// edge. The result equals isl's parse of the whole union text.
#pragma once

#include "schedule/DependenceRelations.h"
#include "schedule/IslPtr.h"

#include <map>
#include <string>

namespace tempo {

class RelationReader {
public:
  explicit RelationReader(isl_ctx* ctx) : ctx_(ctx) {}

  /// Every statement's domain (DependenceRelations::domainUnion).
  IslPtr<isl_union_set> domains(const DependenceRelations& rel);
  /// Every edge's validity relation (DependenceRelations::validityUnion).
  IslPtr<isl_union_map> validity(const DependenceRelations& rel);
  /// Every edge's proximity relation (DependenceRelations::proximityUnion).
  IslPtr<isl_union_map> proximity(const DependenceRelations& rel, TimeDirection newest);

private:
  /// The relation `text` between statements `producer` and `consumer`, or null when it is empty text.
  IslPtr<isl_map> map(const std::string& text, const std::string& producer, const std::string& consumer);
  template <class Pick> IslPtr<isl_union_map> dependences(const DependenceRelations& rel, Pick pick);

  isl_ctx* ctx_;
  std::map<std::string, IslPtr<isl_map>> maps_;  ///< by shape text
  std::map<std::string, IslPtr<isl_set>> sets_;  ///< by shape text
};

}  // namespace tempo
