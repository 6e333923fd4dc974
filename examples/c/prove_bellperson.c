/* Example: a synthesizer's side of the cuzk C ABI (include/cuzk/cuzk.h).
 *
 *   prove_bellperson <circuit.params> <proofs.out> <assignment-0.bin> [<assignment-1.bin> …]
 *
 * Each assignment file stands for one partition's synthesis output, laid out as a synthesizer holds it in
 * memory (docs/filecoin.md, "Binary assignments"): "CZKA", u32 version 1, u64 abc_size, u64 inputs_size,
 * u64 aux_size, then a, b, c, inputs, aux as 32-byte Montgomery scalars, then the a_aux, b_inputs and
 * b_aux density words. The program proves all partitions in one call, writes 192 bytes per partition,
 * and verifies each proof again through the ABI. Exit status 0 on success. */
#include <cuzk/cuzk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  cuzk_assignment view;
  void* storage;
} loaded_assignment;

static size_t popcount_words(const uint64_t* w, size_t bits) {
  size_t n = 0;
  for (size_t i = 0; i < bits; ++i) n += (w[i / 64] >> (i % 64)) & 1u;
  return n;
}

/* Returns 0 on success; the view points into `storage`. */
static int load_assignment(const char* path, loaded_assignment* out) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: cannot open\n", path);
    return 1;
  }
  char magic[4];
  uint32_t version;
  uint64_t n[3];
  if (fread(magic, 1, 4, f) != 4 || memcmp(magic, "CZKA", 4) != 0 || fread(&version, 4, 1, f) != 1 ||
      version != 1 || fread(n, 8, 3, f) != 3) {
    fprintf(stderr, "%s: not a version-1 binary assignment\n", path);
    fclose(f);
    return 1;
  }
  const size_t abc = n[0], inputs = n[1], aux = n[2];
  const size_t scalars = 3 * abc + inputs + aux;
  const size_t words = 2 * ((aux + 63) / 64) + (inputs + 63) / 64;
  const size_t bytes = scalars * sizeof(cuzk_fr) + words * sizeof(uint64_t);
  unsigned char* buf = malloc(bytes ? bytes : 1);
  if (!buf || fread(buf, 1, bytes, f) != bytes) {
    fprintf(stderr, "%s: truncated\n", path);
    free(buf);
    fclose(f);
    return 1;
  }
  fclose(f);
  const cuzk_fr* fr = (const cuzk_fr*)buf;
  const uint64_t* w = (const uint64_t*)(buf + scalars * sizeof(cuzk_fr));
  cuzk_assignment* v = &out->view;
  v->a = fr;
  v->b = fr + abc;
  v->c = fr + 2 * abc;
  v->abc_size = abc;
  v->inputs = fr + 3 * abc;
  v->inputs_size = inputs;
  v->aux = fr + 3 * abc + inputs;
  v->aux_size = aux;
  v->a_aux.words = w;
  v->a_aux.bit_len = aux;
  v->b_inputs.words = w + (aux + 63) / 64;
  v->b_inputs.bit_len = inputs;
  v->b_aux.words = w + (aux + 63) / 64 + (inputs + 63) / 64;
  v->b_aux.bit_len = aux;
  v->a_aux.popcount = popcount_words(v->a_aux.words, aux);
  v->b_inputs.popcount = popcount_words(v->b_inputs.words, inputs);
  v->b_aux.popcount = popcount_words(v->b_aux.words, aux);
  out->storage = buf;
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s <circuit.params> <proofs.out> <assignment.bin>...\n", argv[0]);
    return 2;
  }
  const size_t count = (size_t)(argc - 3);
  loaded_assignment* parts = calloc(count, sizeof *parts);
  cuzk_assignment* views = calloc(count, sizeof *views);
  uint8_t* proofs = malloc(192 * count);
  cuzk_engine* engine = NULL;
  cuzk_params* params = NULL;
  char* error = NULL;
  int rc = 1;
  if (!parts || !views || !proofs) goto done;
  for (size_t k = 0; k < count; ++k) {
    if (load_assignment(argv[3 + k], &parts[k])) goto done;
    views[k] = parts[k].view;
  }
  printf("%s\n", cuzk_version());
  if (cuzk_engine_create("cpu", &engine, &error) != CUZK_OK) goto fail;
  if (cuzk_params_load(engine, argv[1], 0, &params, &error) != CUZK_OK) goto fail;
  if (cuzk_prove(engine, params, views, count, NULL, NULL, proofs, &error) != CUZK_OK) goto fail;
  for (size_t k = 0; k < count; ++k) {
    /* The public inputs are the input assignment without ONE. */
    if (cuzk_verify(params, views[k].inputs + 1, views[k].inputs_size - 1, proofs + 192 * k, &error) !=
        CUZK_OK)
      goto fail;
  }
  FILE* out = fopen(argv[2], "wb");
  if (!out || fwrite(proofs, 1, 192 * count, out) != 192 * count) {
    fprintf(stderr, "cannot write %s\n", argv[2]);
    if (out) fclose(out);
    goto done;
  }
  fclose(out);
  printf("%zu partition proofs written to %s and verified\n", count, argv[2]);
  rc = 0;
  goto done;
fail:
  fprintf(stderr, "cuzk: %s\n", error ? error : "(no message)");
  cuzk_string_free(error);
done:
  cuzk_params_free(params);
  cuzk_engine_destroy(engine);
  if (parts)
    for (size_t k = 0; k < count; ++k) free(parts[k].storage);
  free(parts);
  free(views);
  free(proofs);
  return rc;
}
