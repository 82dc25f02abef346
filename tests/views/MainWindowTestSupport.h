// MainWindowTestSupport: a MainWindow as the studio's Qt tests make it (the examples folder, no saved layout).
#pragma once

#include "DocumentTestSupport.h"

#include "common/MainWindow.h"

namespace tempo::views::testing {

inline MainWindow::Options testOptions() {
  MainWindow::Options options;
  options.exampleDirs = {examplesDir()};
  options.restoreSettings = false;  // the user's saved layout must not change what a test sees
  return options;
}

}  // namespace tempo::views::testing
