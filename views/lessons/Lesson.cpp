#include "lessons/Lesson.h"

#include "trace/ProfileSummary.h"
#include "types/ByteSize.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace tempo::views {

namespace {

const char* const kViews[] = {"graph", "passes", "schedule", "run", "profiler", "problems"};
const char* const kTransformKinds[] = {"shift", "interchange", "skew", "reverse"};

bool isOneOf(const std::string& word, const auto& words) {
  return std::find(std::begin(words), std::end(words), word) != std::end(words);
}

std::string trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

/// Drops blank lines at both ends of a block of text.
std::string trimLines(const std::string& s) {
  const size_t begin = s.find_first_not_of("\n");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of("\n") - begin + 1);
}

/// `verb rest` -> {verb, rest}.
std::pair<std::string, std::string> splitVerb(const std::string& text) {
  const size_t space = text.find(' ');
  if (space == std::string::npos) return {text, ""};
  return {text.substr(0, space), trim(text.substr(space + 1))};
}

class Reader {
public:
  Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& message) const { throw LessonError(path_, line_, message); }
  void setLine(int line) { line_ = line; }

  int64_t bytes(const std::string& text) const {
    std::optional<int64_t> b = parseByteSize(text);
    if (!b) fail("'" + text + "' is not a byte size (4096, 64k, 1.5M)");
    return *b;
  }

  LessonAction action(const std::string& text) const {
    auto [verb, rest] = splitVerb(text);
    LessonAction a;
    a.line = line_;
    a.text = rest;
    auto needs = [&](const char* what) {
      if (rest.empty()) fail("'" + verb + "' needs " + what);
    };
    if (verb == "view") {
      a.kind = LessonActionKind::View;
      if (!isOneOf(rest, kViews)) fail("unknown view '" + rest + "' (graph, passes, schedule, run, profiler, problems)");
    } else if (verb == "select") {
      a.kind = LessonActionKind::Select, needs("a node's name");
    } else if (verb == "bounds") {
      a.kind = LessonActionKind::Bounds;
      static const std::regex kBounds(R"(\s*[A-Za-z_]\w*\s*=\s*\d+\s*(,\s*[A-Za-z_]\w*\s*=\s*\d+\s*)*)");
      if (!std::regex_match(rest, kBounds)) fail("bounds are written 'B=2, T=6', not '" + rest + "'");
    } else if (verb == "engine") {
      a.kind = LessonActionKind::Engine;
      if (rest != "compiled" && rest != "reference") fail("the engine is 'compiled' or 'reference', not '" + rest + "'");
    } else if (verb == "transform") {
      a.kind = LessonActionKind::Transform, needs("a transform");
    } else if (verb == "block") {
      a.kind = LessonActionKind::Block;
      if (rest.empty() || rest.find_first_not_of("0123456789") != std::string::npos || rest.size() > 6)
        fail("'block' needs a block size (0 for the cost model's), not '" + rest + "'");
      a.number = std::stoll(rest);
    } else if (verb == "budget") {
      a.kind = LessonActionKind::Budget, needs("a byte size");
      a.number = bytes(rest);
    } else if (verb == "run") {
      a.kind = LessonActionKind::Run;
      if (!rest.empty()) fail("'run' takes nothing after it");
    } else if (verb == "answer") {
      a.kind = LessonActionKind::Answer, needs("the answer");
    } else if (verb == "replace") {
      a.kind = LessonActionKind::Replace;
      static const std::regex kReplace(R"re("([^"]+)"\s+with\s+"([^"]*)")re");
      std::smatch m;
      if (!std::regex_match(rest, m, kReplace)) fail("replace is written: replace \"OLD\" with \"NEW\"");
      a.text = m[1], a.replacement = m[2];
    } else {
      fail("unknown action '" + verb + "' (view, select, bounds, engine, transform, block, budget, run, answer, replace)");
    }
    return a;
  }

  LessonGoal goal(const std::string& text) const {
    auto [verb, rest] = splitVerb(text);
    LessonGoal g;
    g.line = line_;
    if (text == "program ok") g.kind = LessonGoalKind::ProgramOk;
    else if (text == "run ok") g.kind = LessonGoalKind::RunOk;
    else if (text == "run compiled") g.kind = LessonGoalKind::RunCompiled;
    else if (text == "schedule legal") g.kind = LessonGoalKind::ScheduleLegal;
    else if (text == "illegal shown") g.kind = LessonGoalKind::IllegalShown;
    else if (verb == "peak" && rest.rfind("below ", 0) == 0) {
      g.kind = LessonGoalKind::PeakBelow;
      g.bytes = bytes(trim(rest.substr(6)));
    } else if (verb == "applied" && isOneOf(rest, kTransformKinds)) {
      g.kind = LessonGoalKind::Applied, g.text = rest;
    } else if (verb == "block" && !rest.empty() && rest.size() < 7 && rest.find_first_not_of("0123456789") == std::string::npos) {
      g.kind = LessonGoalKind::BlockSize, g.bytes = std::stoll(rest);
    } else if (verb == "answer" && !rest.empty()) {
      g.kind = LessonGoalKind::Answer, g.text = rest;
    } else if (verb == "selected" && !rest.empty()) {
      g.kind = LessonGoalKind::Selected, g.text = rest;
    } else if (verb == "view" && isOneOf(rest, kViews)) {
      g.kind = LessonGoalKind::ViewShown, g.text = rest;
    } else {
      fail("unknown goal '" + text + "' (program ok, run ok, run compiled, peak below BYTES, schedule legal, "
           "applied shift|interchange|skew|reverse, illegal shown, block N, answer TEXT[ | TEXT], , selected NODE, view NAME)");
    }
    return g;
  }

private:
  std::string path_;
  int line_ = 0;
};

}  // namespace

LessonError::LessonError(const std::string& file, int line, const std::string& message)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + message), file(file), line(line) {}

std::string Lesson::programPath() const {
  return (std::filesystem::path(path).parent_path() / program).string();
}

Lesson parseLesson(const std::string& text, const std::string& path) {
  static const std::regex kDirective(R"(^\s*<!--\s*([a-z]+)\s*:\s*(.*?)\s*-->\s*$)");
  Reader reader(path);
  Lesson lesson;
  lesson.path = path;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  LessonStep* step = nullptr;
  while (std::getline(in, line)) {
    reader.setLine(++number);
    std::smatch m;
    if (std::regex_match(line, m, kDirective)) {
      const std::string key = m[1], value = m[2];
      if (key == "program") {
        if (value.empty() || value.find('/') != std::string::npos) reader.fail("'program' names a .tpo file next to the lesson");
        lesson.program = value;
        continue;
      }
      if (key != "do" && key != "goal" && key != "solution") reader.fail("unknown directive '" + key + "' (program, do, goal, solution)");
      if (!step) reader.fail("'" + key + "' before the first step (a '## ' heading)");
      if (key == "do") step->actions.push_back(reader.action(value));
      else if (key == "goal") step->goals.push_back(reader.goal(value));
      else step->solution.push_back(reader.action(value));
      continue;
    }
    if (line.rfind("## ", 0) == 0) {
      lesson.steps.push_back({trim(line.substr(3)), "", {}, {}, {}});
      step = &lesson.steps.back();
    } else if (line.rfind("# ", 0) == 0 && lesson.title.empty() && !step) {
      lesson.title = trim(line.substr(2));
    } else {
      (step ? step->markdown : lesson.intro) += line + "\n";
    }
  }
  reader.setLine(1);
  if (lesson.title.empty()) reader.fail("a lesson starts with its title ('# ...')");
  if (lesson.program.empty()) reader.fail("no '<!-- program: FILE.tpo -->' line");
  if (lesson.steps.empty()) reader.fail("a lesson has at least one step ('## ...')");
  lesson.intro = trimLines(lesson.intro);
  for (LessonStep& s : lesson.steps) {
    s.markdown = trimLines(s.markdown);
    if (!s.goals.empty() && s.solution.empty()) {
      reader.setLine(s.goals.front().line);
      reader.fail("step '" + s.title + "' has goals but no solution");
    }
  }
  return lesson;
}

Lesson loadLesson(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw LessonError(path, 0, "cannot read the lesson");
  std::ostringstream text;
  text << file.rdbuf();
  return parseLesson(text.str(), path);
}

std::vector<Lesson> loadLessons(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".md" && entry.path().filename() != "README.md") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Lesson> lessons;
  for (const std::string& f : files) lessons.push_back(loadLesson(f));
  return lessons;
}

std::string describeGoal(const LessonGoal& goal) {
  switch (goal.kind) {
    case LessonGoalKind::ProgramOk: return "the program checks without errors";
    case LessonGoalKind::RunOk: return "a run finishes without an error";
    case LessonGoalKind::RunCompiled: return "a run on the compiled engine finishes";
    case LessonGoalKind::PeakBelow: return "a compiled run's measured peak is below " + formatBytes(goal.bytes);
    case LessonGoalKind::ScheduleLegal: return "the schedule is legal";
    case LessonGoalKind::Applied: return "a legal schedule with a " + goal.text + " applied";
    case LessonGoalKind::IllegalShown: return "an illegal transform has been tried";
    case LessonGoalKind::BlockSize: return "the schedule's block size is " + std::to_string(goal.bytes);
    case LessonGoalKind::Answer: return "the right answer is given";
    case LessonGoalKind::Selected: return "node '" + goal.text + "' is selected in the graph";
    case LessonGoalKind::ViewShown: return "the " + goal.text + " view is shown";
  }
  return "";
}

std::string printAction(const LessonAction& action) {
  switch (action.kind) {
    case LessonActionKind::View: return "view " + action.text;
    case LessonActionKind::Select: return "select " + action.text;
    case LessonActionKind::Bounds: return "bounds " + action.text;
    case LessonActionKind::Engine: return "engine " + action.text;
    case LessonActionKind::Transform: return "transform " + action.text;
    case LessonActionKind::Block: return "block " + std::to_string(action.number);
    case LessonActionKind::Budget: return "budget " + action.text;
    case LessonActionKind::Run: return "run";
    case LessonActionKind::Answer: return "answer " + action.text;
    case LessonActionKind::Replace: return "replace \"" + action.text + "\" with \"" + action.replacement + "\"";
  }
  return "";
}

}  // namespace tempo::views
