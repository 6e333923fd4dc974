// Poseidon hashing on the CPU, bit-for-bit neptune v11.0.0's `Poseidon::new_with_preimage(p, c).hash()`
// with `PoseidonConstants::<Fr, A>::new()` (Strength::Standard, HashType::MerkleTree): what Filecoin's
// PoseidonHasher (tree nodes, arity 2 and 8) and hash_single_column (arity 11) compute.
//
// The state is [domain tag, preimage...]; the digest is state[1] after the permutation. Elements are Fr
// values; neptune/Filecoin bytes of an element are its canonical integer, 32 bytes little-endian
// (blstrs `to_repr`), which is `Fr::to_int()` written limb 0 first.
#pragma once

#include <span>

#include "gadgets/poseidon_constants.hpp"

namespace cuzk::filecoin {

using Fr = ff::bls12_381::Fr;
// Neptune's constants are not Filecoin's own: they live with the Poseidon circuit, in gadgets/.
using gadgets::kPoseidonMaxArity;
using gadgets::kPoseidonMinArity;
using gadgets::poseidon_constants;
using gadgets::PoseidonConstants;

// The digest of `preimage` with the cached constants for arity preimage.size() (kPoseidonMinArity ..
// kPoseidonMaxArity; throws std::invalid_argument otherwise). Neptune's default, optimised path:
// compressed round constants and sparse partial-round matrices.
Fr poseidon_hash(std::span<const Fr> preimage);
Fr poseidon_hash(const PoseidonConstants& constants, std::span<const Fr> preimage);

// The same digest by the textbook permutation (neptune's HashMode::Correct): round constants added
// before every S-box, the full MDS matrix in every round. Slower; the reference the optimised path is
// tested against.
Fr poseidon_hash_correct(const PoseidonConstants& constants, std::span<const Fr> preimage);

}  // namespace cuzk::filecoin
