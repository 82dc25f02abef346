#include "iteration/ScheduleTimeline.h"

#include <stdexcept>

namespace tempo {

namespace {

class Walker {
public:
  Walker(const SymbolEnv& bounds, size_t limit) : env_(bounds), limit_(limit) {}

  std::vector<ScheduleEvent> run(const LoopBody& body) {
    walk(body);
    return std::move(out_);
  }

private:
  SymbolEnv env_;
  size_t limit_;
  std::vector<ScheduleEvent> out_;

  void push(ScheduleEvent e) {
    if (out_.size() >= limit_) throw std::runtime_error("the schedule has more than " + std::to_string(limit_) + " events at these bounds");
    out_.push_back(std::move(e));
  }

  void memory(ScheduleEvent::Kind kind, NodeId node, const StoreBytes& bytes) {
    push({kind, node, {}, bytes.evaluate(env_)});
  }

  void walk(const LoopBody& body) {
    for (const LoopStmt& s : body) walk(s);
  }

  void walk(const LoopStmt& s) {
    using K = ScheduleEvent::Kind;
    if (const auto* f = s.as<ForStmt>()) {
      if (f->step <= 0) throw std::runtime_error("loop " + f->var + " has a non-positive step");
      int64_t lo = f->lower.evaluate(env_), hi = f->upper.evaluate(env_);
      for (int64_t v = lo; v < hi; v += f->step) {
        env_[f->var] = v;
        walk(f->body);
      }
      env_.erase(f->var);
    } else if (const auto* i = s.as<IfStmt>()) {
      walk(i->condition.holds(env_) ? i->thenBody : i->elseBody);
    } else if (const auto* e = s.as<ExecStmt>()) {
      ScheduleEvent x{K::Exec, e->node, {}, 0};
      for (const IndexExpr& p : e->point) x.point.push_back(p.evaluate(env_));
      push(std::move(x));
    } else if (const auto* a = s.as<AllocStmt>()) {
      memory(K::Alloc, a->node, a->bytes);
    } else if (const auto* fr = s.as<FreeStmt>()) {
      memory(K::Free, fr->node, fr->bytes);
    } else if (const auto* so = s.as<SwapOutStmt>()) {
      memory(K::SwapOut, so->node, so->bytes);
    } else if (const auto* si = s.as<SwapInStmt>()) {
      memory(K::SwapIn, si->node, si->bytes);
    }
  }
};

}  // namespace

const char* scheduleEventWord(ScheduleEvent::Kind kind) {
  switch (kind) {
    case ScheduleEvent::Kind::Exec: return "exec";
    case ScheduleEvent::Kind::Alloc: return "alloc";
    case ScheduleEvent::Kind::Free: return "free";
    case ScheduleEvent::Kind::SwapOut: return "swap_out";
    case ScheduleEvent::Kind::SwapIn: return "swap_in";
  }
  return "?";
}

std::vector<ScheduleEvent> enumerateSchedule(const LoopProgram& program, const SymbolEnv& bounds, size_t limit) {
  return Walker(bounds, limit).run(program.body);
}

}  // namespace tempo
