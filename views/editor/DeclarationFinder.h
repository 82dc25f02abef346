// DeclarationFinder: where a name of a `.tpo` program is declared.
//
// "Go to declaration" for the editor. The source is parsed with the engine's
// own parser (tempo::parseProgram, which recovers from syntax errors) and
// the statements are searched for the one that introduces the name: a `dim`
// (for a dimension or its bound), a `const` item, an `input`/`param`, a
// recurrent tensor declaration, a let, or an `out NAME = ...`. Qt-free.
#pragma once

#include "diag/Diagnostics.h"

#include <optional>
#include <string>
#include <string_view>

namespace tempo::views {

/// The range of the declaring identifier of `name` in `source`, if any.
std::optional<SourceRange> findDeclaration(std::string_view source, const std::string& name);

}  // namespace tempo::views
