// IslPtr: owning smart pointers for isl objects and error checking.
//
// isl hands out reference-counted C objects that must be freed exactly once
// (`__isl_give` results are ours, `__isl_take` arguments consume one
// reference). `IslPtr<isl_union_map>` is a std::unique_ptr whose deleter calls
// the matching `isl_*_free`, so every object the scheduler creates is released
// on every path, exceptions included; pass `isl_*_copy(p.get())` to a function
// that takes a reference and `p.release()` to hand ours over. `islCheck`
// turns a null result (isl reports errors that way when the context is set to
// continue on error) into an IslError carrying isl's last message.
#pragma once

#include "schedule/IslError.h"

#include <isl/ast.h>
#include <isl/aff.h>
#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/printer.h>
#include <isl/schedule.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

namespace tempo {

template <class T> struct IslDeleter;
#define TEMPO_ISL_DELETER(T) \
  template <> struct IslDeleter<T> { void operator()(T* p) const { T##_free(p); } };
TEMPO_ISL_DELETER(isl_set)
TEMPO_ISL_DELETER(isl_map)
TEMPO_ISL_DELETER(isl_union_set)
TEMPO_ISL_DELETER(isl_union_map)
TEMPO_ISL_DELETER(isl_schedule)
TEMPO_ISL_DELETER(isl_schedule_constraints)
TEMPO_ISL_DELETER(isl_ast_build)
TEMPO_ISL_DELETER(isl_ast_node)
TEMPO_ISL_DELETER(isl_ast_expr)
TEMPO_ISL_DELETER(isl_id)
TEMPO_ISL_DELETER(isl_val)
TEMPO_ISL_DELETER(isl_id_list)
TEMPO_ISL_DELETER(isl_ast_node_list)
TEMPO_ISL_DELETER(isl_multi_union_pw_aff)
TEMPO_ISL_DELETER(isl_union_pw_multi_aff)
TEMPO_ISL_DELETER(isl_printer)
TEMPO_ISL_DELETER(isl_pw_multi_aff)
TEMPO_ISL_DELETER(isl_pw_aff)
TEMPO_ISL_DELETER(isl_point)
TEMPO_ISL_DELETER(isl_space)
#undef TEMPO_ISL_DELETER

template <class T> using IslPtr = std::unique_ptr<T, IslDeleter<T>>;

/// isl's last error message on `ctx` (and clears it).
inline std::string islLastError(isl_ctx* ctx) {
  const char* msg = isl_ctx_last_error_msg(ctx);
  std::string text = msg ? msg : "unknown isl error";
  isl_ctx_reset_error(ctx);
  return text;
}

/// Wraps a freshly given isl object; throws IslError naming `what` if it is null.
template <class T> IslPtr<T> islCheck(T* p, isl_ctx* ctx, const std::string& what) {
  if (!p) throw IslError(what + ": " + islLastError(ctx));
  return IslPtr<T>(p);
}

/// Text of an isl-printed C string (which the caller must free).
inline std::string islTakeString(char* s) {
  std::string out = s ? s : "";
  std::free(s);
  return out;
}

}  // namespace tempo
