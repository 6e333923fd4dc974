/* cuzk C ABI: Groth16 proofs with Filecoin's bellperson conventions, for external synthesizers.
 *
 * A synthesizer (bellperson's, or any other) hands over, per partition, what bellperson's prover takes:
 * a, b, c (one value per constraint, the `input_i * 0 = 0` constraints included), the input assignment
 * (ONE first), the aux assignment and the structural density bitmaps. cuzk returns 192-byte proofs
 * (A || B || C compressed), each checked against the verifying key before it is returned.
 *
 * Field elements are BLS12-381 scalars as bellperson holds them in memory (blstrs Scalar / blst_fr):
 * 4 little-endian 64-bit limbs in Montgomery form (x * 2^256 mod r). Density bitmaps are 64-bit words, bit i
 * = word[i / 64] >> (i % 64) & 1, as bitvec's BitVec<u64, Lsb0>; popcount is given separately and checked.
 *
 * Errors: every call returns a cuzk_status; on failure, when `error` is not NULL, *error receives a
 * message to release with cuzk_string_free (NULL on success). No call aborts the process or throws.
 *
 * Threads: an engine and loaded parameters may be used from many threads at once (cuzk_prove and
 * cuzk_verify concurrently, with the same or different parameters). Destroy or free an object only when
 * no call is using it.
 */
#ifndef CUZK_CUZK_H
#define CUZK_CUZK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CUZK_OK = 0,
  CUZK_ERR_INVALID_ARGUMENT = 1, /* NULL where an object is needed, sizes that disagree with the key */
  CUZK_ERR_FORMAT = 2,           /* a parameter file or proof that cannot be read */
  CUZK_ERR_UNSATISFIED = 3,      /* the proof did not verify: the assignment does not satisfy the circuit */
  CUZK_ERR_INVALID_PROOF = 4,    /* cuzk_verify: the proof is well formed but does not verify */
  CUZK_ERR_OUT_OF_MEMORY = 5,
  CUZK_ERR_INTERNAL = 6,
  CUZK_ERR_NO_DEVICE = 7 /* backend "cuda": this build has no CUDA backend, or no usable GPU is visible */
} cuzk_status;

typedef struct cuzk_engine cuzk_engine;
typedef struct cuzk_params cuzk_params;

typedef struct {
  uint64_t limbs[4]; /* Montgomery form, little-endian limbs */
} cuzk_fr;

typedef struct {
  const uint64_t* words;
  size_t bit_len;
  size_t popcount;
} cuzk_density;

/* One partition's synthesis output. */
typedef struct {
  cuzk_density a_aux;    /* bit_len = aux_size: aux variables with an A polynomial */
  cuzk_density b_inputs; /* bit_len = inputs_size: inputs with a B polynomial */
  cuzk_density b_aux;    /* bit_len = aux_size: aux variables with a B polynomial */
  const cuzk_fr* a;
  const cuzk_fr* b;
  const cuzk_fr* c;
  size_t abc_size; /* constraints, input constraints included; not padded */
  const cuzk_fr* inputs;
  size_t inputs_size; /* ONE included */
  const cuzk_fr* aux;
  size_t aux_size;
} cuzk_assignment;

/* "cuzk 0.1.0" */
const char* cuzk_version(void);

/* backend: "cpu" (NULL means "cpu"), "cuda" (GPU 0; CUZK_ERR_NO_DEVICE when there is none) or "auto" (the GPU
 * when one is usable, else the CPU). On "cuda" a partition the GPU cannot take (out of device memory, a
 * lost CUDA context) is proved on the CPU instead; every proof is verified before it is returned either way. */
cuzk_status cuzk_engine_create(const char* backend, cuzk_engine** out, char** error);
void cuzk_engine_destroy(cuzk_engine* engine);

/* Loads a bellperson .params file (memory-mapped, decoded in parallel; the verifying key is always checked
 * to be in the prime-order subgroup, the big vectors when check_subgroup is non-zero). */
cuzk_status cuzk_params_load(cuzk_engine* engine, const char* path, int check_subgroup, cuzk_params** out,
                             char** error);
void cuzk_params_free(cuzk_params* params);

/* Proves `count` partitions; proofs_out receives 192 * count bytes in partition order. r and s: `count`
 * blinding factors each (Montgomery form, non-zero), or NULL for fresh random ones. Nothing is written to
 * proofs_out unless every partition proved and verified. The partitions' arrays are read, not kept: each is
 * copied in while the partition before it proves, so they must stay valid (and unchanged) until the call
 * returns; an error names the first failing partition in order. */
cuzk_status cuzk_prove(cuzk_engine* engine, const cuzk_params* params, const cuzk_assignment* partitions,
                       size_t count, const cuzk_fr* r, const cuzk_fr* s, uint8_t* proofs_out, char** error);

/* Verifies one 192-byte proof against the parameters' verifying key; inputs are the public inputs without
 * ONE (Montgomery form). CUZK_OK when valid, CUZK_ERR_INVALID_PROOF when not. */
cuzk_status cuzk_verify(const cuzk_params* params, const cuzk_fr* inputs, size_t inputs_size,
                        const uint8_t* proof, char** error);

void cuzk_string_free(char* s);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_CUZK_H */
