// QsciIncludes: the QScintilla headers, usable with QT_NO_KEYWORDS.
//
// The project builds with QT_NO_KEYWORDS (Qt's `emit` breaks the LLVM ORC
// headers), but QScintilla's headers still spell `signals:` and `slots:`.
// Include QScintilla only through this header: it maps those two words to
// Q_SIGNALS / Q_SLOTS while the QScintilla headers are read, then removes
// the mapping again so our own code keeps to the Q_ macros.
#pragma once

#ifndef signals
#define signals Q_SIGNALS
#define TEMPO_QSCI_UNDEF_SIGNALS
#endif
#ifndef slots
#define slots Q_SLOTS
#define TEMPO_QSCI_UNDEF_SLOTS
#endif

#include <Qsci/qscilexercustom.h>
#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#ifdef TEMPO_QSCI_UNDEF_SIGNALS
#undef signals
#undef TEMPO_QSCI_UNDEF_SIGNALS
#endif
#ifdef TEMPO_QSCI_UNDEF_SLOTS
#undef slots
#undef TEMPO_QSCI_UNDEF_SLOTS
#endif
