// StudioInfo: names and versions the studio shows about itself.
//
// The application and organisation names (used for QSettings), the Tempo
// Studio version (the CMake project version, as `tempo --version` prints it)
// and an HTML "About" text that lists the versions of the libraries the
// studio runs on (Qt, and the isl the engine actually linked).
#pragma once

#include <QString>

namespace tempo::views {

inline constexpr const char* kStudioVersion = TEMPO_VERSION;  ///< CMake PROJECT_VERSION
inline constexpr const char* kOrganizationName = "TempoStudio";
inline constexpr const char* kApplicationName = "Tempo Studio";

/// Rich text for Help → About.
QString aboutText();

}  // namespace tempo::views
