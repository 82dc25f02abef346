#include "common/StudioInfo.h"

#include "symbolic/PointSet.h"

#include <QtGlobal>

namespace tempo::views {

QString aboutText() {
  return QStringLiteral(
             "<h3>Tempo Studio %1</h3>"
             "<p>A compiler and IDE for dynamic deep-learning programs: write a <code>.tpo</code> program "
             "and see what the compiler makes of it.</p>"
             "<table><tr><td>Qt</td><td>%2 (built with %3)</td></tr>"
             "<tr><td>isl</td><td>%4</td></tr></table>")
      .arg(QLatin1String(kStudioVersion), QLatin1String(qVersion()), QLatin1String(QT_VERSION_STR),
           QString::fromStdString(IslContext::version()).toHtmlEscaped());
}

}  // namespace tempo::views
