// Background: where the studio's work off the UI thread runs and its large
// results are freed.
//
// runInBackground(f) runs `f` through QtConcurrent on the studio's own thread
// pool (a check, a layout, the pass pipeline, a schedule, an iteration space,
// a run); the application waits for it before it goes away. Never the global
// pool: Qt's raster paint engine splits large fills across the global pool's
// threads and waits for them on the UI thread, so seconds of isl there froze
// painting (measured: 1.7 s UI stalls with 10 ms of UI CPU).
// freedInBackground(value) shares a large result (a checked program, a
// pipeline's snapshots, a compiled schedule, an iteration space) so that
// whoever drops the last reference, freeing it never costs the UI thread:
// from there the delete is queued on the pool. The UI thread keeps only the
// work of showing a result, never of computing or tearing one down.
#pragma once

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>
#include <utility>

namespace tempo::views {

/// The pool every background task of the studio runs on.
QThreadPool* backgroundPool();

/// Runs `f()` on the background pool; the QFuture carries its result.
template <class F>
auto runInBackground(F&& f) {
  return QtConcurrent::run(backgroundPool(), std::forward<F>(f));
}

/// Runs `free` now, or on the pool when called on the UI thread.
void freeOffUiThread(std::function<void()> free);

/// `value`, shared; deleted off the UI thread whoever holds it last.
template <class T>
std::shared_ptr<const T> freedInBackground(T value) {
  return std::shared_ptr<const T>(new T(std::move(value)), [](const T* p) { freeOffUiThread([p] { delete p; }); });
}

}  // namespace tempo::views
