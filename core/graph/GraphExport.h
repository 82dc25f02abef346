// GraphExport: the SDG as Graphviz DOT and as JSON.
//
// DOT is for looking at a graph (`tempo graph --format dot | dot -Tsvg`):
// node shape and colour by op class, labels with op, name, spatial type and
// domain; edges labelled with their index atoms and conditions, temporal
// reads (any atom other than the consumer's own dimension) dashed and
// conditional edges coloured. JSON is for tools: every node and edge with all
// its fields, index expressions and conditions in their printed forms.
#pragma once

#include "graph/Graph.h"

#include <nlohmann/json.hpp>
#include <string>

namespace tempo {

std::string graphToDot(const Graph& g);
nlohmann::json graphToJson(const Graph& g);

/// True when some atom of `e` reads another point than the consumer's own
/// (a shift, a constant index or a slice).
bool isTemporalEdge(const Graph& g, const Edge& e);

}  // namespace tempo
