/* npy: a data loader. `plugin data = "npy"(path="x.npy")` reads a NumPy .npy file
 * (format 1.0-3.0, little-endian f4, f8, i4 or i8, C order, rank 1 to 8) of shape
 * [N, rest...]; `data.row(i)` is row i, of the file's dtype and shape [rest...], and
 * `data.count()` is N. A file that is not such an .npy, or a row outside [0, N), is an
 * error value naming the file. Its calls are not stateful: any order gives the same rows. */
#include "tempo_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct npy_instance {
  unsigned char* data; /* the array, row-major */
  int32_t dtype;
  int64_t item; /* bytes of one element */
  int32_t rank;
  int64_t shape[TEMPO_PLUGIN_MAX_RANK];
  int64_t row_bytes;
  tempo_port row_in, row_out, count_out;
  tempo_function functions[2];
} npy_instance;

static void fail(tempo_error* error, const char* what, const char* path) {
  error->code = 1;
  snprintf(error->message, sizeof error->message, "%.150s: %s", path, what);
}

/* Parses the header dictionary: descr, fortran_order, shape. 0 when it is one this reader takes. */
static int parse_header(const char* header, npy_instance* self) {
  const char* descr = strstr(header, "'descr':");
  const char* order = strstr(header, "'fortran_order':");
  const char* shape = strstr(header, "'shape':");
  if (!descr || !order || !shape) return 1;
  descr = strchr(descr + 8, '\'');
  if (!descr) return 1;
  static const struct { const char* code; int32_t dtype; int64_t item; } kinds[] = {
      {"'<f4'", TEMPO_F32, 4}, {"'<f8'", TEMPO_F64, 8}, {"'<i4'", TEMPO_I32, 4}, {"'<i8'", TEMPO_I64, 8}};
  int found = 0;
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k)
    if (strncmp(descr, kinds[k].code, 5) == 0) self->dtype = kinds[k].dtype, self->item = kinds[k].item, found = 1;
  if (!found) return 1;
  order += 16;
  while (*order == ' ') ++order;
  if (strncmp(order, "False", 5) != 0) return 1;
  shape = strchr(shape, '(');
  if (!shape) return 1;
  ++shape;
  self->rank = 0;
  while (*shape && *shape != ')') {
    while (*shape == ' ' || *shape == ',') ++shape;
    if (*shape == ')') break;
    char* end = NULL;
    long long n = strtoll(shape, &end, 10);
    if (end == shape || n < 0 || self->rank == TEMPO_PLUGIN_MAX_RANK) return 1;
    self->shape[self->rank++] = n;
    shape = end;
  }
  return self->rank >= 1 ? 0 : 1;
}

static void* npy_open(const tempo_arg* args, int32_t n_args, int64_t instance, tempo_error* error) {
  const char* path = NULL;
  (void)instance;
  for (int32_t i = 0; i < n_args; ++i) {
    if (strcmp(args[i].key, "path") == 0) path = args[i].value;
    else {
      fail(error, "unknown argument (the npy plugin takes path=)", args[i].key);
      return NULL;
    }
  }
  if (!path) {
    error->code = 1;
    snprintf(error->message, sizeof error->message, "needs path=\"FILE.npy\"");
    return NULL;
  }
  FILE* f = fopen(path, "rb");
  if (!f) {
    fail(error, "cannot be read", path);
    return NULL;
  }
  npy_instance* self = calloc(1, sizeof *self);
  unsigned char magic[10];
  char* header = NULL;
  int ok = self && fread(magic, 1, 8, f) == 8 && memcmp(magic, "\x93NUMPY", 6) == 0;
  uint32_t header_len = 0;
  if (ok && magic[6] == 1) {
    unsigned char b[2];
    ok = fread(b, 1, 2, f) == 2;
    header_len = (uint32_t)b[0] | ((uint32_t)b[1] << 8);
  } else if (ok && (magic[6] == 2 || magic[6] == 3)) {
    unsigned char b[4];
    ok = fread(b, 1, 4, f) == 4;
    header_len = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
  } else {
    ok = 0;
  }
  if (ok && header_len < (1u << 20)) {
    header = calloc(header_len + 1, 1);
    ok = header && fread(header, 1, header_len, f) == header_len && parse_header(header, self) == 0;
  } else {
    ok = 0;
  }
  free(header);
  if (ok) {
    int64_t count = 1;
    for (int32_t d = 1; d < self->rank; ++d) count *= self->shape[d];
    self->row_bytes = count * self->item;
    self->data = malloc((size_t)(self->row_bytes * self->shape[0]) + 1);
    ok = self->data && fread(self->data, 1, (size_t)(self->row_bytes * self->shape[0]), f) == (size_t)(self->row_bytes * self->shape[0]);
    if (!ok) {
      fclose(f);
      fail(error, "is shorter than its header says", path);
      free(self->data);
      free(self);
      return NULL;
    }
  }
  fclose(f);
  if (!ok) {
    fail(error, "is not an .npy of little-endian f4, f8, i4 or i8 in C order", path);
    free(self);
    return NULL;
  }
  self->row_in.name = "i";
  self->row_in.type.dtype = TEMPO_I64;
  self->row_in.type.rank = 0;
  self->row_out.name = "row";
  self->row_out.type.dtype = self->dtype;
  self->row_out.type.rank = self->rank - 1;
  for (int32_t d = 1; d < self->rank; ++d) self->row_out.type.shape[d - 1] = self->shape[d];
  self->count_out.name = "count";
  self->count_out.type.dtype = TEMPO_I64;
  self->count_out.type.rank = 0;
  self->functions[0] = (tempo_function){"row", 1, &self->row_in, 1, &self->row_out, 0};
  self->functions[1] = (tempo_function){"count", 0, NULL, 1, &self->count_out, 0};
  return self;
}

static int32_t npy_functions(void* instance, const tempo_function** table) {
  *table = ((npy_instance*)instance)->functions;
  return 2;
}

static int32_t npy_call(void* instance, int32_t function, const tempo_type* input_types, const void* const* inputs,
                        void* const* outputs, tempo_error* error) {
  npy_instance* self = instance;
  (void)input_types;
  if (function == 1) {
    *(int64_t*)outputs[0] = self->shape[0];
    return 0;
  }
  const int64_t i = *(const int64_t*)inputs[0];
  if (i < 0 || i >= self->shape[0]) {
    error->code = 2;
    snprintf(error->message, sizeof error->message, "row %lld is outside [0, %lld)", (long long)i, (long long)self->shape[0]);
    return 2;
  }
  memcpy(outputs[0], self->data + i * self->row_bytes, (size_t)self->row_bytes);
  return 0;
}

static void npy_close(void* instance) {
  npy_instance* self = instance;
  free(self->data);
  free(self);
}

static const tempo_plugin npy_plugin = {TEMPO_PLUGIN_ABI, "npy", "1.0", npy_open, npy_functions, npy_call, npy_close};

TEMPO_PLUGIN_EXPORT const tempo_plugin* tempo_plugin_v1(void) { return &npy_plugin; }
