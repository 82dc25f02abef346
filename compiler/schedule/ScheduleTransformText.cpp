// ScheduleTransform's text: the parser (tokens with their columns) and the printer.
#include "schedule/ScheduleTransform.h"

#include <cctype>

namespace tempo {

namespace {

struct Token {
  std::string text;  ///< "" at the end
  int column = 1;
  bool isNumber = false;
};

std::vector<Token> tokenize(const std::string& text) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const int column = static_cast<int>(i) + 1;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == ',' || c == ';') {
      out.push_back({std::string(1, c), column});
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      size_t j = i + 1;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      out.push_back({text.substr(i, j - i), column, true});
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '%') {
      size_t j = i + 1;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      out.push_back({text.substr(i, j - i), column});
      i = j;
    } else {
      throw ScheduleTransformError(column, std::string("unexpected character '") + c + "'");
    }
  }
  out.push_back({"", static_cast<int>(text.size()) + 1});
  return out;
}

class Parser {
public:
  explicit Parser(const std::string& text) : tokens_(tokenize(text)) {}

  std::vector<ScheduleTransform> all() {
    std::vector<ScheduleTransform> out;
    while (!atEnd()) {
      if (peek().text == ";") {
        next();
        continue;
      }
      out.push_back(one());
      if (!atEnd() && peek().text != ";") fail("expected ';' between transforms, found '" + peek().text + "'");
    }
    if (out.empty()) throw ScheduleTransformError(1, "no transform given (e.g. `interchange t, b`)");
    return out;
  }

private:
  ScheduleTransform one() {
    ScheduleTransform t;
    t.column = peek().column;
    const std::string verb = word("a transform: shift, interchange, skew or reverse");
    if (verb == "shift") {
      t.kind = ScheduleTransform::Kind::Shift;
      t.statement = word("the statement to shift (a tensor name, %N or S_N)");
      keyword("by");
      t.amount = number("the distance");
      keyword("along");
      t.dim = word("a dimension");
      if (t.amount == 0) fail("a shift by 0 changes nothing", t.column);
    } else if (verb == "interchange") {
      t.kind = ScheduleTransform::Kind::Interchange;
      t.dim = word("a dimension");
      keyword(",");
      t.other = word("a second dimension");
      if (t.dim == t.other) fail("interchange needs two different dimensions", t.column);
      optionalStatement(t);
    } else if (verb == "skew") {
      t.kind = ScheduleTransform::Kind::Skew;
      t.dim = word("the dimension to skew");
      keyword("by");
      t.other = word("the dimension it is skewed by");
      if (peek().text == "factor") {
        next();
        t.amount = number("the factor");
        if (t.amount == 0) fail("a skew by factor 0 changes nothing", t.column);
      }
      if (t.dim == t.other) fail("a dimension cannot be skewed by itself", t.column);
      optionalStatement(t);
    } else if (verb == "reverse") {
      t.kind = ScheduleTransform::Kind::Reverse;
      t.dim = word("the dimension to reverse");
      optionalStatement(t);
    } else {
      fail("unknown transform '" + verb + "' (expected shift, interchange, skew or reverse)", t.column);
    }
    return t;
  }
  void optionalStatement(ScheduleTransform& t) {
    if (peek().text != "in") return;
    next();
    t.statement = word("the statement (a tensor name, %N or S_N)");
  }
  bool atEnd() const { return tokens_[pos_].text.empty(); }
  const Token& peek() const { return tokens_[pos_]; }
  const Token& next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  std::string word(const std::string& what) {
    const Token& t = peek();
    if (t.text.empty() || t.isNumber || t.text == "," || t.text == ";")
      fail("expected " + what + (t.text.empty() ? " at the end" : ", found '" + t.text + "'"));
    return next().text;
  }
  int64_t number(const std::string& what) {
    const Token& t = peek();
    if (!t.isNumber) fail("expected " + what + " (an integer)" + (t.text.empty() ? " at the end" : ", found '" + t.text + "'"));
    try {
      return std::stoll(next().text);
    } catch (const std::exception&) {
      fail(what + " '" + t.text + "' is out of range");
    }
  }
  void keyword(const std::string& k) {
    if (peek().text != k) fail("expected '" + k + "'" + (peek().text.empty() ? " at the end" : ", found '" + peek().text + "'"));
    next();
  }
  [[noreturn]] void fail(const std::string& message, int column = 0) const {
    throw ScheduleTransformError(column ? column : peek().column, message);
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<ScheduleTransform> parseScheduleTransforms(const std::string& text) { return Parser(text).all(); }

std::string printScheduleTransform(const ScheduleTransform& t) {
  const std::string in = t.statement.empty() ? "" : " in " + t.statement;
  switch (t.kind) {
    case ScheduleTransform::Kind::Shift:
      return "shift " + t.statement + " by " + std::to_string(t.amount) + " along " + t.dim;
    case ScheduleTransform::Kind::Interchange: return "interchange " + t.dim + ", " + t.other + in;
    case ScheduleTransform::Kind::Skew:
      return "skew " + t.dim + " by " + t.other + (t.amount == 1 ? "" : " factor " + std::to_string(t.amount)) + in;
    case ScheduleTransform::Kind::Reverse: return "reverse " + t.dim + in;
  }
  return "";
}

std::string printScheduleTransforms(const std::vector<ScheduleTransform>& ts) {
  std::string s;
  for (const ScheduleTransform& t : ts) s += (s.empty() ? "" : "; ") + printScheduleTransform(t);
  return s;
}

}  // namespace tempo
