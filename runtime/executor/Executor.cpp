#include "executor/Executor.h"

#include "init/SourceArray.h"
#include "trace/KernelTimer.h"

#include <algorithm>
#include <chrono>

namespace tempo {

struct Executor::Stmt {
  // The first seven in the order of LoopStmt's alternatives (memory statements are cast from it).
  enum class Kind { For, If, Exec, Alloc, Free, SwapOut, SwapIn, ArrayBox } kind = Kind::Exec;
  int varSlot = -1;                    ///< For
  CompiledIndex lower, upper;          ///< For
  int64_t step = 1;                    ///< For
  CompiledCondition condition;         ///< If
  std::vector<Stmt> body, elseBody;    ///< For, If
  int node = -1;                       ///< Exec and memory statements
  int statement = -1;                  ///< Exec: its number, in program order (traces name it)
  std::vector<CompiledIndex> point;    ///< Exec
  bool recompute = false;              ///< Alloc: of a value computed again (a memory budget's)
  int32_t topLoop = -1;                ///< For not inside another loop: its index (traces mark its iterations)
  /// ArrayBox: a nest of loops that only records the points of a whole-array source (body: the
  /// nest itself, run where the box cannot be): per point coordinate the box's [lo, hi), and per
  /// loop of the nest, outermost first, the coordinate it runs along.
  std::vector<CompiledIndex> boxLo, boxHi;
  std::vector<size_t> loopDims;
  int until = -1;  ///< For: the until loop it is (an index into untilLoops_), else -1
};

namespace {

int64_t product(const std::vector<int64_t>& v) {
  int64_t n = 1;
  for (int64_t x : v) n *= x;
  return n;
}

/// A nest of loops of step 1 or -1 around one exec, each loop's variable one coordinate of the
/// exec's point and mentioned nowhere else in the point or the nest's bounds: the exec runs at
/// every point of a box, whatever the loops' order.
struct BoxNest {
  const ExecStmt* exec = nullptr;
  std::vector<const ForStmt*> loops;  ///< outermost first
  std::vector<size_t> loopDims;       ///< per loop: the coordinate its variable is
};

std::optional<BoxNest> boxNest(const ForStmt& outer) {
  BoxNest nest;
  std::vector<const ForStmt*>& loops = nest.loops;
  loops.push_back(&outer);
  while (!nest.exec) {
    const ForStmt& f = *loops.back();
    if (f.body.size() != 1 || (f.step != 1 && f.step != -1)) return std::nullopt;
    if (const auto* inner = f.body.front().as<ForStmt>()) loops.push_back(inner);
    else if (const auto* e = f.body.front().as<ExecStmt>()) nest.exec = e;
    else return std::nullopt;
  }
  for (const ForStmt* f : loops) {
    for (const ForStmt* g : loops)
      if (f->lower.dependsOn(g->var) || f->upper.dependsOn(g->var)) return std::nullopt;
    std::optional<size_t> dim;
    for (size_t i = 0; i < nest.exec->point.size(); ++i) {
      const IndexExpr& x = nest.exec->point[i];
      if (!x.dependsOn(f->var)) continue;
      const std::optional<Symbol> var = x.asSymbol();
      if (dim || !var || var->name != f->var) return std::nullopt;
      dim = i;
    }
    if (!dim) return std::nullopt;  // the loop repeats the same points
    nest.loopDims.push_back(*dim);
  }
  return nest;
}

}  // namespace

Executor::Executor(const Graph& g, const LoopProgram& program, ExecutorOptions options)
    : graph_(g), bounds_(std::move(options.bounds)), plan_(std::move(options.storage)), cancel_(options.cancel),
      progress_(options.progress), budget_(options.memoryBudget), givenSources_(options.sourceArrays) {
  trace_ = options.trace;
  for (const auto& [name, value] : g.boundDefaults) bounds_.emplace(name, value);  // options win
  try {
    bounds_ = g.withDerivedBounds(std::move(bounds_));
  } catch (const std::out_of_range& e) {
    throw ExecError(std::string("cannot compute a derived bound: ") + e.what());
  }
  for (const std::string& b : g.boundNames())
    if (!bounds_.count(b)) throw ExecError("no value for bound '" + b + "': pass it in the executor options");
  for (const auto& [name, value] : bounds_) loopSlots_.push_back(value), loopLayout_.add(name);
  givenBounds_ = bounds_;
  kernels_ = options.kernels;
  native_ = options.native;
  windowReads_ = std::move(options.windowReads);
  for (UntilLoop& u : options.untilLoops)
    if (u.topStatement >= 0 && !budget_) untilLoops_.push_back(std::move(u));  // a pager follows the bounds it was given
  makePrograms();
  std::vector<std::string> scope;
  topBody_ = &program.body;
  compile(program.body, body_, scope);
  loopSlots_.resize(loopLayout_.size(), 0);
  resetStores();
}

void Executor::makePrograms() {
  int maxId = graph_.nodes().empty() ? -1 : graph_.nodes().rbegin()->first;
  programs_.clear();
  programs_.resize(maxId + 1);
  stores_.resize(maxId + 1);
  for (const auto& [id, node] : graph_.nodes()) {
    programs_[id] = std::make_unique<NodeProgram>(graph_, node, bounds_, kernels_);
    if (native_) programs_[id]->useNative(native_->forNode(id), &nativeCalls_);
  }
  for (const WindowRead& w : windowReads_)
    if (w.holder >= 0 && w.holder < static_cast<int>(programs_.size()) && programs_[w.holder])
      programs_[w.holder]->keepWindowsOf(w.producer);
}

Executor::~Executor() {
  stores_.clear();  // stores release into the tracker, which must still exist
}

void Executor::compile(const LoopBody& body, std::vector<Stmt>& out, std::vector<std::string>& scope) {
  for (const LoopStmt& s : body) {
    Stmt c;
    auto checkNode = [&](int node, const char* what) {
      if (node < 0 || node >= static_cast<int>(programs_.size()) || !programs_[node])
        throw ExecError(std::string(what) + " names node %" + std::to_string(node) + ", which is not in the graph");
    };
    // Variables not in scope must not resolve: compile against a layout of the visible names
    // whose slots are the global ones (bounds first, then loop variables in first-use order).
    SlotLayout visible;
    for (const std::string& name : loopLayout_.names())
      if (bounds_.count(name) || std::find(scope.begin(), scope.end(), name) != scope.end())
        visible.add(name);
      else
        visible.add("\x01" + name);  // keeps slot numbers aligned; never matches a symbol
    if (const auto* f = s.as<ForStmt>()) {
      if (bounds_.count(f->var) || std::find(scope.begin(), scope.end(), f->var) != scope.end())
        throw ExecError("loop variable '" + f->var + "' shadows a bound or an enclosing loop variable");
      if (f->step == 0) throw ExecError("loop over '" + f->var + "' has step 0");
      c.kind = Stmt::Kind::For;
      std::string what = "the bounds of loop " + f->var;
      c.lower = CompiledIndex(f->lower, visible, what);
      c.upper = CompiledIndex(f->upper, visible, what);
      c.step = f->step;
      c.varSlot = loopLayout_.add(f->var);
      if (scope.empty()) c.topLoop = topLoopCount_++;  // the order of topLevelLoopVars (LoopAst.h)
      if (&body == topBody_)
        for (size_t u = 0; u < untilLoops_.size(); ++u)
          if (untilLoops_[u].topStatement == &s - body.data()) c.until = static_cast<int>(u);
      scope.push_back(f->var);
      compile(f->body, c.body, scope);
      scope.pop_back();
      if (std::optional<BoxNest> nest = boxNest(*f); nest && programs_[nest->exec->node]->isArraySource()) {
        Stmt box;  // compiled against the scope around the nest: the box's corners do not mention its variables
        box.kind = Stmt::Kind::ArrayBox;
        box.node = nest->exec->node;
        box.loopDims = nest->loopDims;
        const std::string what = "the box of exec " + nodeLabel(graph_.node(box.node));
        for (size_t i = 0; i < nest->exec->point.size(); ++i) {
          const IndexExpr& x = nest->exec->point[i];
          IndexExpr lo = x, hi = x + IndexExpr(1);
          for (size_t k = 0; k < nest->loops.size(); ++k)
            if (nest->loopDims[k] == i) lo = nest->loops[k]->lower, hi = nest->loops[k]->upper;
          box.boxLo.emplace_back(lo, visible, what);
          box.boxHi.emplace_back(hi, visible, what);
        }
        box.body.push_back(std::move(c));
        out.push_back(std::move(box));
        continue;
      }
    } else if (const auto* i = s.as<IfStmt>()) {
      c.kind = Stmt::Kind::If;
      c.condition = CompiledCondition(i->condition, visible, "the guard `" + i->condition.str() + "`");
      compile(i->thenBody, c.body, scope);
      compile(i->elseBody, c.elseBody, scope);
    } else if (const auto* e = s.as<ExecStmt>()) {
      checkNode(e->node, "exec");
      c.kind = Stmt::Kind::Exec;
      c.node = e->node;
      c.statement = static_cast<int>(execStatements_.size());
      execStatements_.push_back(e->node);
      const Node& n = graph_.node(e->node);
      if (e->point.size() != n.domain.size())
        throw ExecError("exec of " + nodeLabel(n) + " gives " + std::to_string(e->point.size()) +
                            " coordinates for a domain of " + std::to_string(n.domain.size()) + " dims",
                        n.id);
      for (const IndexExpr& x : e->point) c.point.emplace_back(x, visible, "the point of exec " + nodeLabel(n));
    } else {
      static const char* names[] = {"", "", "", "alloc", "free", "swap_out", "swap_in"};
      size_t k = s.node.index();
      c.kind = static_cast<Stmt::Kind>(k);
      std::visit(
          [&](const auto& m) {
            if constexpr (requires { m.bytes; }) {
              checkNode(m.node, names[k]);
              c.node = m.node;
              if (c.kind == Stmt::Kind::Alloc) allocated_.insert(m.node);
            }
            if constexpr (requires { m.recompute; }) c.recompute = m.recompute;
          },
          s.node);
    }
    out.push_back(std::move(c));
  }
}

void Executor::resetStores() {
  for (auto& s : stores_) s.reset();
  for (size_t id = 0; id < programs_.size(); ++id) {
    if (!programs_[id]) continue;
    const NodeProgram& p = *programs_[id];
    const StoreSpec* spec = nullptr;
    if (plan_)
      if (auto it = plan_->find(static_cast<int>(id)); it != plan_->end()) spec = &it->second;
    stores_[id] = makeStore(spec, {static_cast<int>(id), nodeLabel(p.node()), p.node().domain, p.domainBounds(),
                                   memory_.get()}, bounds_);
    if (allocated_.count(static_cast<int>(id))) stores_[id]->markUnallocated();
    if (isWholeArraySource(p.node().op)) stores_[id]->readViewsOf(sources_.get());
  }
}

void Executor::run() {
  if (!reached_.empty()) {  // an until loop stopped the last run: start again from the given bounds
    bounds_ = givenBounds_;
    for (const auto& [name, value] : bounds_) loopSlots_[loopLayout_.find(name)] = value;
    for (auto& p : programs_)
      if (p) p->rebind(bounds_);
    reached_.clear();
  }
  stores_.clear();
  stores_.resize(programs_.size());
  memory_ = std::make_unique<MemoryTracker>();
  for (const GraphOutput& o : graph_.outputs) memory_->markOutput(o.node);
  sources_ = std::make_unique<SourceArrays>(memory_.get(), givenSources_);
  timeline_ = MemoryTimeline();
  keepLargeBuffersOutOfTheHeap();
  resetStores();
  pager_.reset();
  if (budget_) {
    std::vector<int64_t> sourceBytes(programs_.size(), 0);  // a whole-array source's array, built by its first exec
    for (size_t id = 0; id < programs_.size(); ++id)
      if (programs_[id] && isWholeArraySource(programs_[id]->node().op)) {
        const Node& n = programs_[id]->node();
        try {
          int64_t numel = product(programs_[id]->domainBounds());
          for (int64_t s : n.type.evaluateShape(bounds_)) numel *= s;
          sourceBytes[id] = numel * static_cast<int64_t>(dtypeSize(n.type.dtype));
        } catch (const std::exception&) {
          // an element shape the bounds do not give: its exec reports it
        }
      }
    pager_ = std::make_unique<MemoryPager>(graph_, bounds_, *budget_, std::move(sourceBytes), stores_, *sources_, *memory_,
                                           [this](MemoryEvent::Kind kind, int node) { recordMemoryStatement(kind, node); });
  }
  stats_ = ExecStats{};
  nativeCalls_ = 0;
  if (trace_) trace_->begin();
  std::optional<KernelTimer> kernelTimer;  // the generated kernels' time inside each traced statement
  if (trace_ && native_) kernelTimer.emplace(*native_, *trace_);
  auto start = std::chrono::steady_clock::now();
  execute(body_);
  kernelTimer.reset();
  if (pager_) pager_->bringInOutputs();
  if (trace_) trace_->end();
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stats_.nativeCalls = nativeCalls_;
  stats_.peakBytes = memory_->peakBytes();
  stats_.peakNonOutputBytes = memory_->peakNonOutputBytes();
  stats_.peakSwappedBytes = memory_->peakSwappedBytes();
}

TensorStore& Executor::storeOf(int node, const char* what) {
  TensorStore* s = stores_.at(node).get();
  if (!s) throw ExecError(std::string(what) + ": no store for node %" + std::to_string(node));
  return *s;
}

void Executor::execute(const std::vector<Stmt>& body) {
  int64_t* slots = loopSlots_.data();
  for (const Stmt& s : body) {
    switch (s.kind) {
      case Stmt::Kind::For: {
        int64_t lo = s.lower.eval(slots), hi = s.upper.eval(slots);
        // A traced run marks each iteration of a top-level loop (a step: the trace aggregates per step).
        const int32_t loop = trace_ ? s.topLoop : -1;
        if (s.step > 0) {
          for (int64_t v = lo; v < hi; v += s.step) {
            slots[s.varSlot] = v;
            ++stats_.loopIterations;
            if (loop >= 0) trace_->beginStep(loop, v);
            execute(s.body);
            if (s.until >= 0 && stopsAfter(untilLoops_[s.until], v)) break;
          }
        } else {  // a backwards loop: from upper - 1 down to lower
          for (int64_t v = hi - 1; v >= lo; v += s.step) {
            slots[s.varSlot] = v;
            ++stats_.loopIterations;
            if (loop >= 0) trace_->beginStep(loop, v);
            execute(s.body);
          }
        }
        if (loop >= 0) trace_->endSteps();
        break;
      }
      case Stmt::Kind::If: execute(s.condition.holds(slots) ? s.body : s.elseBody); break;
      case Stmt::Kind::Exec: {
        point_.resize(s.point.size());
        for (size_t i = 0; i < s.point.size(); ++i) point_[i] = s.point[i].eval(slots);
        NodeProgram& program = *programs_[s.node];
        const int64_t start = trace_ ? trace_->now() : 0, generatedBefore = nativeCalls_;
        if (program.isArraySource() && !pager_) {  // nothing to compute: the point is a window of the array
          const int64_t bytes = program.prepareArrayPoint(point_, *sources_);
          storeOf(s.node, "exec").writeArrayPoint(point_);
          if (trace_) trace_->record(s.statement, s.node, start, trace_->now(), point_, false, bytes);
          countExecs(1);
          break;
        }
        if (pager_) pager_->beforeExec(s.node);
        std::optional<Tensor> value = program.compute(point_, stores_, *sources_);
        const int64_t bytes = trace_ && value ? static_cast<int64_t>(value->nbytes()) : 0;
        if (pager_ && value) pager_->beforeWrite(s.node, point_, *value);
        if (value) {
          storeOf(s.node, "exec").write(point_, std::move(*value));
        } else {
          storeOf(s.node, "exec").writeUndefined(point_);
          ++stats_.undefinedExecs;
        }
        if (trace_) trace_->record(s.statement, s.node, start, trace_->now(), point_, nativeCalls_ > generatedBefore, bytes);
        countExecs(1);
        break;
      }
      case Stmt::Kind::ArrayBox:
        if (!runArrayBox(s)) execute(s.body);
        break;
      case Stmt::Kind::Alloc:
        storeOf(s.node, "alloc").allocate();
        recordMemoryStatement(s.recompute ? MemoryEvent::Kind::Recompute : MemoryEvent::Kind::Alloc, s.node);
        break;
      case Stmt::Kind::Free:
        storeOf(s.node, "free").free();
        sources_->release(s.node);
        recordMemoryStatement(MemoryEvent::Kind::Free, s.node);
        break;
      case Stmt::Kind::SwapOut:
        storeOf(s.node, "swap_out").swapOut();
        sources_->swapOut(s.node);
        recordMemoryStatement(MemoryEvent::Kind::SwapOut, s.node);
        break;
      case Stmt::Kind::SwapIn:
        if (pager_) pager_->beforeSwapIn(s.node);
        sources_->swapIn(s.node);
        storeOf(s.node, "swap_in").swapIn();
        recordMemoryStatement(MemoryEvent::Kind::SwapIn, s.node);
        break;
    }
  }
}

bool Executor::runArrayBox(const Stmt& s) {
  if (trace_ || pager_) return false;  // both follow every point
  const int64_t* slots = loopSlots_.data();
  const size_t rank = s.boxLo.size();
  boxLo_.resize(rank), boxHi_.resize(rank);
  const std::vector<int64_t>& domain = programs_[s.node]->domainBounds();
  int64_t points = 1;
  for (size_t i = 0; i < rank; ++i) {
    boxLo_[i] = s.boxLo[i].eval(slots), boxHi_[i] = s.boxHi[i].eval(slots);
    points *= std::max<int64_t>(0, boxHi_[i] - boxLo_[i]);
    if (boxLo_[i] < 0 || boxHi_[i] > domain[i]) return false;  // the points in turn, to fail at the first outside
  }
  if (points == 0) return false;
  TensorStore& store = storeOf(s.node, "exec");
  if (!store.slotsDistinctIn(boxLo_, boxHi_)) return false;  // the order of the points matters
  programs_[s.node]->prepareArrayPoint(boxLo_, *sources_);
  store.writeArrayBox(boxLo_, boxHi_);
  int64_t iterations = 0, along = 1;  // what the loops count
  for (size_t d : s.loopDims) along *= boxHi_[d] - boxLo_[d], iterations += along;
  stats_.loopIterations += iterations;
  stats_.boxedExecs += points;
  countExecs(points);
  return true;
}

bool Executor::stopsAfter(const UntilLoop& u, int64_t v) {
  const int64_t step = v + u.offset, most = bounds_.at(u.bound);
  if (step < 0 || step >= most) return false;
  const std::vector<int64_t>& domain = programs_[u.condition]->domainBounds();
  const TensorStore& store = storeOf(u.condition, "until");
  std::vector<int64_t> lo(domain.size(), 0), hi = domain, p;
  lo[u.axis] = step, hi[u.axis] = step + 1;
  p = lo;
  do {
    std::optional<Tensor> value = store.holds(p) ? store.readIfDefined(p) : std::nullopt;
    if (!value || !holdsEverywhere(*value)) return false;
  } while (nextPointInBox(p, lo, hi));
  reached_.push_back(ReachedExtent{u.dim, u.bound, givenBounds_.at(u.bound), step + 1, true});
  bounds_ = boundsAsRun(graph_, bounds_, {reached_.back()});
  for (const auto& [name, value] : bounds_) loopSlots_[loopLayout_.find(name)] = value;
  for (auto& p : programs_)
    if (p) p->rebind(bounds_);
  return true;
}

void Executor::countExecs(int64_t n) {
  const int64_t before = stats_.execs;
  stats_.execs += n;
  if ((before >> 8) != (stats_.execs >> 8)) {  // crossed a multiple of 256
    if (progress_) progress_->store(static_cast<size_t>(stats_.execs));
    if (cancel_ && cancel_->load()) throw ExecCancelled();
  }
}

void Executor::recordMemoryStatement(MemoryEvent::Kind kind, int node) {
  ++stats_.memoryStatements;
  timeline_.add(kind, node, memory_->liveBytes(), memory_->takeWindowPeak(), trace_ ? trace_->now() : -1);
}

const TensorStore& Executor::store(int node) const {
  if (node < 0 || node >= static_cast<int>(stores_.size()) || !stores_[node])
    throw ExecError("no store for node %" + std::to_string(node));
  return *stores_[node];
}

Tensor Executor::valueAt(int node, const std::vector<int64_t>& point) const {
  return store(node).read(point);
}

Tensor Executor::output(const GraphOutput& out) const {
  const NodeProgram& p = *programs_.at(out.node);
  const std::vector<int64_t>& bounds = p.domainBounds();
  const TensorStore& s = store(out.node);
  std::vector<Tensor> parts;
  if (product(bounds) > 0) {
    std::vector<int64_t> pt(bounds.size(), 0);
    const std::vector<int64_t> origin(bounds.size(), 0);
    do parts.push_back(s.read(pt));
    while (nextPointInBox(pt, origin, bounds));
  }
  std::vector<int64_t> spatial;
  if (!parts.empty()) {
    spatial = parts.front().shape();
  } else {
    try {
      spatial = p.node().type.evaluateShape(bounds_);
    } catch (const std::exception&) {
      throw ExecError("output '" + out.name + "': its domain is empty and its element shape depends on a dimension",
                      out.node);
    }
  }
  for (const Tensor& t : parts)
    if (t.shape() != spatial)
      throw ExecError("output '" + out.name + "': its element shape varies over the domain", out.node);
  std::vector<int64_t> shape = bounds;
  shape.insert(shape.end(), spatial.begin(), spatial.end());
  return Tensor::stack(parts, p.node().type.dtype, spatial).reshaped(shape);
}

std::vector<std::pair<std::string, Tensor>> Executor::outputs() const {
  std::vector<std::pair<std::string, Tensor>> result;
  for (const GraphOutput& out : graph_.outputs) result.emplace_back(out.name, output(out));
  return result;
}

}  // namespace tempo
