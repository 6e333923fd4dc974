// Pre-compiled circuits (.cpce, version 1): a synthesized circuit's matrices A, B, C and its density bitmaps,
// saved once so that a prover can load them instead of synthesizing (a 32 GiB PoRep partition: 130 M rows).
// The snarkjs-style container (binfile.hpp), all little-endian; docs/formats-precompiled.md has the details.
//
//   magic "cpce", u32 version = 1, u32 nSections = 7
//   section 1  header:
//       u32 n8 = 32, r[32]                      BLS12-381's scalar field (the field of every value)
//       u32 flags                               bit 0 set: the prover's rows `input_i · 1 = 0` (one per
//       input,
//                                               ONE included) are NOT stored but implied; no other bit is
//                                               used
//       u64 nInputs                             public inputs, ONE included (columns 0 … nInputs−1)
//       u64 nAux                                aux variables (columns nInputs … nInputs+nAux−1)
//       u64 nConstraints                        synthesized rows stored (the prover adds nInputs more)
//       u64 nnzA, nnzB, nnzC                    stored terms of each matrix (the implied rows add nInputs to
//       A) u64 popcount a_aux, b_input, b_aux      set bits of sections 5, 6, 7 u32 idLength, id[idLength]
//       the circuit id (UTF-8, e.g. "filecoin-porep-32GiB")
//   sections 2, 3, 4  matrices A, B, C in CSR form:
//       u64 rowStart[nConstraints + 1]          0, non-decreasing, last = nnz of the matrix
//       u32 col[nnz]                            < nInputs + nAux; columns ONE, inputs, aux as in the witness
//       Fr  val[nnz]                            32 bytes each: the Montgomery limbs as Fr holds them in
//                                               memory (4 little-endian u64), each below r; no zero values
//   sections 5, 6, 7  densities a_aux, b_input, b_aux (bellperson's DensityTracker, BitVec<u64, Lsb0>):
//       u64 nBits                               nAux, nInputs, nAux
//       u64 words[⌈nBits / 64⌉]                 bit i = words[i / 64] >> (i % 64) & 1; unused high bits 0
//
// The reader checks all of it — section sizes against the header, row starts, columns, that every value is
// reduced, bit lengths, unused bits and popcounts — and also that each bitmap is exactly what its matrix
// implies (a_aux: aux columns used in A; b_input, b_aux: input and aux columns used in B), so a loaded
// circuit is the one its shape says. Failures are io::FormatError with file, section and offset.
#pragma once

#include <cstdint>
#include <string>

#include "gadgets/constraint_system.hpp"

namespace cuzk::io {

// Section 1 alone: what `cuzk info` shows without reading the matrices.
struct PrecompiledCircuitHeader {
  std::string circuit_id;
  std::uint64_t inputs = 0, aux = 0, constraints = 0;  // inputs include ONE; constraints: synthesized rows
  std::uint64_t nnz_a = 0, nnz_b = 0, nnz_c = 0;       // stored terms (no implied input rows)
  std::uint64_t popcount_a_aux = 0, popcount_b_input = 0, popcount_b_aux = 0;

  // As bellperson's prover counts them: the implied `input · 1 = 0` rows included (one term each, in A).
  std::uint64_t prover_constraints() const { return constraints + inputs; }
  std::uint64_t prover_nnz_a() const { return nnz_a + inputs; }
};

// Writes `circuit` (a whole circuit: Shape::first_input = first_aux = 0, without the prover's input rows, as
// RecordCS::finish() gives it) under `circuit_id`. The file appears under `path` only once complete
// (BinWriter). Throws std::invalid_argument when the matrices and the shape disagree, std::runtime_error on
// write errors.
void write_precompiled_circuit(const std::string& path, const gadgets::PrecompiledCircuit& circuit,
                               const std::string& circuit_id);

// Reads and checks a whole file (see above); the shape's outer_* lists are empty, first_* = 0.
gadgets::PrecompiledCircuit read_precompiled_circuit(const std::string& path);
// The same, also giving the header (the circuit id, so that a caller can check it loaded the circuit it
// expects).
gadgets::PrecompiledCircuit read_precompiled_circuit(const std::string& path,
                                                     PrecompiledCircuitHeader& header);

// Reads and checks the container and section 1 only, and that the other sections have the sizes it implies.
PrecompiledCircuitHeader read_precompiled_circuit_header(const std::string& path);

}  // namespace cuzk::io
