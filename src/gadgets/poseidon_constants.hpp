// Poseidon parameters for BLS12-381 Fr exactly as neptune v11.0.0 derives them (the version rust-fil-proofs
// pins), Strength::Standard, HashType::MerkleTree: the only kind Filecoin's PoRep uses (tree hashing at
// arity 2 and 8, column hashing at arity 11). Width t = arity + 1, S-box x^5.
//
// Everything is generated from the recipe at run time, once per arity and process, and cached:
//   - round numbers (R_F, R_P) by the Poseidon paper's security inequalities plus neptune's margin;
//   - round constants from the Grain LFSR with rejection sampling (the hadeshash reference script);
//   - the Cauchy MDS matrix M[i][j] = 1 / (i + (t + j)), its inverse;
//   - neptune's optimised forms: compressed round constants, the pre-sparse matrix and one sparse matrix
//     per partial round.
//
// Matrices are lists of rows, m[i][j] = row i, column j. Beware neptune's convention, kept here: applying
// a matrix to the state is the row-vector product s·M (new[j] = Σ_i M[i][j]·s[i]), not M·s. M and M⁻¹ are
// symmetric so it only matters for the pre-sparse and sparse matrices.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::gadgets {

using Fr = ff::bls12_381::Fr;
using FrMatrix = std::vector<std::vector<Fr>>;

// A matrix of the form M'' (dense first row and column, identity elsewhere), stored compactly.
struct PoseidonSparseMatrix {
  std::vector<Fr> w_hat;   // the first column, all t entries (w_hat[0] is the corner)
  std::vector<Fr> v_rest;  // the first row without the corner: t - 1 entries
};

struct PoseidonConstants {
  std::size_t arity = 0;
  std::size_t width = 0;  // t = arity + 1
  std::size_t full_rounds = 0, half_full_rounds = 0, partial_rounds = 0;
  Fr domain_tag;  // state[0] before hashing: 2^arity - 1 (HashType::MerkleTree)

  std::vector<Fr> round_constants;  // (R_F + R_P)·t, round r's at [r·t, (r+1)·t)
  FrMatrix mds, mds_inverse;
  std::vector<Fr> compressed_round_constants;  // R_F·t + R_P, in the order the optimised hash reads them
  FrMatrix pre_sparse_matrix;                  // replaces M in the last first-half full round
  std::vector<PoseidonSparseMatrix> sparse_matrices;  // one per partial round, in round order
};

// The smallest and largest arity served (neptune implements Arity for 1..36; the tag 2^arity - 1 needs
// arity < 64). Filecoin uses 2, 4, 8, 11, 16, 24 and 36.
inline constexpr std::size_t kPoseidonMinArity = 1;
inline constexpr std::size_t kPoseidonMaxArity = 36;

// The cached constants for `arity` (thread-safe; generated on first use). Throws std::invalid_argument
// for an arity outside [kPoseidonMinArity, kPoseidonMaxArity].
const PoseidonConstants& poseidon_constants(std::size_t arity);

// Uncached generation (what poseidon_constants runs once per arity).
PoseidonConstants generate_poseidon_constants(std::size_t arity);

// (R_F, R_P) for width t, with neptune's security margin (R_F + 2, R_P · 1.075 rounded up): 8 and
// 55/57 for Filecoin's widths 3, 9 and 12.
std::pair<std::size_t, std::size_t> poseidon_round_numbers(std::size_t width);

// The Grain LFSR round constants of the hadeshash script for a prime field (field = 1), S-box code `sbox`,
// `field_bits`-bit modulus, width t and the given round numbers: (r_f + r_p)·t elements, each the next
// field_bits bits read most significant first, values not below the modulus skipped. Neptune calls it
// with (1, 1, 255, t, R_F, R_P); only field_bits = 255 is supported.
std::vector<Fr> poseidon_grain_round_constants(unsigned field, unsigned sbox, unsigned field_bits,
                                               std::size_t width, std::size_t r_f, std::size_t r_p);

}  // namespace cuzk::gadgets
