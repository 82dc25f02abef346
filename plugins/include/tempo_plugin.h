/* tempo_plugin.h: the C ABI between Tempo and its plugins, version 1.
 *
 * A plugin is a shared library (libtempo_plugin_NAME.so) that exports one function,
 * `tempo_plugin_v1`, returning a static table: its name, its version and four entry
 * points. `open` makes an instance from the program's arguments (`path="log.jsonl"`);
 * `functions` lists what an instance offers — each function's typed input and output
 * ports, and whether its calls on one instance must run in order (an environment's
 * state, a log's lines) — and may depend on the arguments (a data file's shape);
 * `call` runs one function on dense, row-major buffers the host owns; `close` ends the
 * instance. Errors are values: an entry point that fails fills a tempo_error (a non-zero
 * code and a message) and returns null or non-zero; a plugin never throws or exits.
 * Nothing else of Tempo's is visible to a plugin: this header is the whole contract
 * (docs/plugins.md). */
#ifndef TEMPO_PLUGIN_H
#define TEMPO_PLUGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TEMPO_PLUGIN_ABI 1
#define TEMPO_PLUGIN_MAX_RANK 8

typedef enum tempo_dtype { TEMPO_F32 = 0, TEMPO_F64 = 1, TEMPO_I32 = 2, TEMPO_I64 = 3, TEMPO_BOOL = 4 } tempo_dtype;

#define TEMPO_ANY_DTYPE (-1)

/* A port's type. For an input only, dtype TEMPO_ANY_DTYPE takes any dtype and rank -1 any
 * shape; the call gives the actual type (input_types). */
typedef struct tempo_type {
  int32_t dtype; /* a tempo_dtype, or TEMPO_ANY_DTYPE */
  int32_t rank;
  int64_t shape[TEMPO_PLUGIN_MAX_RANK];
} tempo_type;

typedef struct tempo_port {
  const char* name;
  tempo_type type;
} tempo_port;

typedef struct tempo_function {
  const char* name;
  int32_t n_inputs;
  const tempo_port* inputs;
  int32_t n_outputs;
  const tempo_port* outputs;
  int32_t stateful; /* 1: calls on one instance run in the program's order */
} tempo_function;

typedef struct tempo_error {
  int32_t code; /* 0: no error */
  char message[256];
} tempo_error;

typedef struct tempo_arg {
  const char* key;
  const char* value; /* as written in the program: numbers as text */
} tempo_arg;

typedef struct tempo_plugin {
  uint32_t abi; /* TEMPO_PLUGIN_ABI */
  const char* name;
  const char* version;
  /* A new instance, or null with *error set. `instance` numbers the instances of one run. */
  void* (*open)(const tempo_arg* args, int32_t n_args, int64_t instance, tempo_error* error);
  /* The instance's functions; the table lives as long as the instance. Returns their count. */
  int32_t (*functions)(void* instance, const tempo_function** table);
  /* Runs function `function` (an index into the table). `input_types` gives each input's
   * actual type (the declared one, or the shape of an any-shape port). Returns 0, or
   * non-zero with *error set. */
  int32_t (*call)(void* instance, int32_t function, const tempo_type* input_types, const void* const* inputs,
                  void* const* outputs, tempo_error* error);
  void (*close)(void* instance);
} tempo_plugin;

typedef const tempo_plugin* (*tempo_plugin_entry)(void);

/* Marks the entry point exported when a plugin hides its other symbols. */
#if defined(__GNUC__)
#define TEMPO_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define TEMPO_PLUGIN_EXPORT
#endif

#ifdef __cplusplus
}
#endif

#endif /* TEMPO_PLUGIN_H */
