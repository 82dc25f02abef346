#include "common/Background.h"

#include <QCoreApplication>
#include <QThread>

namespace tempo::views {

QThreadPool* backgroundPool() {
  static QThreadPool* pool = [] {
    auto* p = new QThreadPool;  // never deleted: a static's destructor could run after the application's
    p->setObjectName(QStringLiteral("tempo-background"));
    // The application finishes what is queued before its objects go away.
    qAddPostRoutine([] { backgroundPool()->waitForDone(); });
    return p;
  }();
  return pool;
}

void freeOffUiThread(std::function<void()> free) {
  const QCoreApplication* app = QCoreApplication::instance();
  if (!app || QThread::currentThread() != app->thread()) return free();
  backgroundPool()->start(std::move(free));
}

}  // namespace tempo::views
