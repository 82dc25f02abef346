// LoadCheck: checking a program's load("file.npy") arrays before running it.
//
// The front end checks a program without touching its data files; the
// interpreter only notices a bad file when it first evaluates the node. This
// check sits in between: for every Load node of a checked graph it reads the
// .npy file and reports, as ordinary diagnostics at the declaration's source
// range, a file that cannot be read, a dtype other than the declared one, or
// a shape other than the bounds of the node's domain followed by its declared
// element shape (under the given bound values). A load of a .safetensors file's
// tensors reads only the file's header: a missing tensor, or one of the wrong
// shape or of a dtype that does not convert exactly (SafetensorsLoad). The CLI runs it in `check`
// (with the default bounds) and before `run` (with the resolved bounds).
#pragma once

#include "diag/Diagnostics.h"
#include "graph/Graph.h"

namespace tempo {

/// Reports every Load node of `g` whose file is unreadable or whose dtype or
/// shape disagrees with the declaration under `bounds` (values of the bounds).
void checkLoadedArrays(const Graph& g, const SymbolEnv& bounds, DiagnosticBag& diags);

}  // namespace tempo
