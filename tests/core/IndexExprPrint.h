// Lets GoogleTest print IndexExprs (and optionals of them) in failure messages.
#pragma once

#include "symbolic/IndexExpr.h"

#include <ostream>

namespace tempo {

inline void PrintTo(const IndexExpr& e, std::ostream* os) { *os << "`" << e.str() << "`"; }

}  // namespace tempo
