// Lexer: turns `.tpo` source text into Tokens.
//
// `lex` reads the whole source at once and returns its tokens, always ending
// with an End token. It skips spaces, tabs, carriage returns and `#` comments,
// joins a line ending in a backslash with the next, and emits one Newline
// token per line break otherwise. Literals are decoded here: integers (which
// must fit in int64), floats (`0.9`, `1e-3`, `1.`, `.5`) and strings (with the
// escapes \" \\ \n \t). Problems (a bad character, an unterminated string, a
// malformed number) are reported to the DiagnosticBag and leave an Error
// token, so the lexer accepts any bytes at all, NUL and invalid UTF-8 included.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diag/Diagnostics.h"
#include "frontend/Token.h"

namespace tempo {

/// Tokenizes `source`; token texts are views into `source`.
std::vector<Token> lex(std::string_view source, const std::string& fileName, DiagnosticBag& diags);

}  // namespace tempo
