/* jsonl: a metrics logger. `plugin log = "jsonl"(path="train.jsonl", field="loss")`
 * opens (truncates) the file; each call of `write(value)` appends one line,
 * {"index": N, "<field>": V}, with N counting the calls from 0 and V the value as a
 * number or nested lists (any shape of f32, f64, i32, i64 or bool), and flushes it, so
 * a run that stops leaves every line written so far. Its calls are stateful: they run
 * in the program's order. */
#include "tempo_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct jsonl_instance {
  FILE* file;
  char field[64];
  int64_t index;
  tempo_port input;
  tempo_function functions[1];
} jsonl_instance;

static void fail(tempo_error* error, const char* message) {
  error->code = 1;
  snprintf(error->message, sizeof error->message, "%s", message);
}

static void* jsonl_open(const tempo_arg* args, int32_t n_args, int64_t instance, tempo_error* error) {
  const char* path = NULL;
  const char* field = "value";
  (void)instance;
  for (int32_t i = 0; i < n_args; ++i) {
    if (strcmp(args[i].key, "path") == 0) path = args[i].value;
    else if (strcmp(args[i].key, "field") == 0) field = args[i].value;
    else {
      char message[200];
      snprintf(message, sizeof message, "unknown argument '%s' (path, field)", args[i].key);
      fail(error, message);
      return NULL;
    }
  }
  if (!path || !*path) {
    fail(error, "needs path=\"FILE.jsonl\"");
    return NULL;
  }
  if (strlen(field) >= sizeof(((jsonl_instance*)0)->field)) {
    fail(error, "field name too long");
    return NULL;
  }
  jsonl_instance* self = calloc(1, sizeof *self);
  if (!self) {
    fail(error, "out of memory");
    return NULL;
  }
  self->file = fopen(path, "w");
  if (!self->file) {
    char message[256];
    snprintf(message, sizeof message, "cannot write %.200s", path);
    fail(error, message);
    free(self);
    return NULL;
  }
  snprintf(self->field, sizeof self->field, "%s", field);
  self->input.name = "value"; /* write(value): any dtype, any shape */
  self->input.type.dtype = TEMPO_ANY_DTYPE;
  self->input.type.rank = -1;
  self->functions[0].name = "write";
  self->functions[0].n_inputs = 1;
  self->functions[0].inputs = &self->input;
  self->functions[0].n_outputs = 0;
  self->functions[0].outputs = NULL;
  self->functions[0].stateful = 1;
  return self;
}

static int32_t jsonl_functions(void* instance, const tempo_function** table) {
  *table = ((jsonl_instance*)instance)->functions;
  return 1;
}

static void write_number(FILE* f, int32_t dtype, const void* data, int64_t at) {
  switch (dtype) {
    case TEMPO_F32: fprintf(f, "%.9g", (double)((const float*)data)[at]); break;
    case TEMPO_F64: fprintf(f, "%.17g", ((const double*)data)[at]); break;
    case TEMPO_I32: fprintf(f, "%d", ((const int32_t*)data)[at]); break;
    case TEMPO_I64: fprintf(f, "%lld", (long long)((const int64_t*)data)[at]); break;
    default: fprintf(f, "%s", ((const unsigned char*)data)[at] ? "true" : "false"); break;
  }
}

/* Writes dims [d, rank) of the value starting at element `at`; returns the elements written. */
static int64_t write_nested(FILE* f, const tempo_type* type, const void* data, int32_t d, int64_t at) {
  if (d == type->rank) {
    write_number(f, type->dtype, data, at);
    return 1;
  }
  int64_t written = 0;
  fputc('[', f);
  for (int64_t i = 0; i < type->shape[d]; ++i) {
    if (i) fputs(", ", f);
    written += write_nested(f, type, data, d + 1, at + written);
  }
  fputc(']', f);
  return written;
}

static int32_t jsonl_call(void* instance, int32_t function, const tempo_type* input_types, const void* const* inputs,
                          void* const* outputs, tempo_error* error) {
  jsonl_instance* self = instance;
  (void)outputs;
  if (function != 0) {
    fail(error, "no such function");
    return 1;
  }
  fprintf(self->file, "{\"index\": %lld, \"%s\": ", (long long)self->index++, self->field);
  write_nested(self->file, &input_types[0], inputs[0], 0, 0);
  fputs("}\n", self->file);
  if (fflush(self->file) != 0) {
    fail(error, "cannot write the log (disk full?)");
    return 1;
  }
  return 0;
}

static void jsonl_close(void* instance) {
  jsonl_instance* self = instance;
  if (self->file) fclose(self->file);
  free(self);
}

static const tempo_plugin jsonl_plugin = {TEMPO_PLUGIN_ABI, "jsonl", "1.0", jsonl_open, jsonl_functions, jsonl_call,
                                          jsonl_close};

TEMPO_PLUGIN_EXPORT const tempo_plugin* tempo_plugin_v1(void) { return &jsonl_plugin; }
