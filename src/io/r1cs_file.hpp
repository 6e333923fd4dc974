// circom constraint systems (.r1cs, version 1):
//   section 1: u32 n8, r[n8], u32 nWires, u32 nPubOut, u32 nPubIn, u32 nPrvIn, u64 nLabels, u32 nConstraints
//   section 2: per constraint, the linear combinations A, B, C, each u32 nTerms then
//              nTerms × {u32 wire, coeff[n8]} with plain little-endian coefficients (< r)
//   section 3: wire → label map (u64 per wire), optional and ignored when reading
//   sections 4, 5: custom gates (PLONK only): rejected
#pragma once

#include <string>

#include "io/curve_id.hpp"
#include "r1cs/system.hpp"

namespace cuzk::io {

template <class Curve>
r1cs::ConstraintSystem<Curve> read_r1cs(const std::string& path);

// Writes sections 1, 2 and an identity wire → label map (section 3); meant for tests.
template <class Curve>
void write_r1cs(const std::string& path, const r1cs::ConstraintSystem<Curve>& cs);

extern template r1cs::ConstraintSystem<Bn254> read_r1cs<Bn254>(const std::string&);
extern template r1cs::ConstraintSystem<Bls12_381> read_r1cs<Bls12_381>(const std::string&);
extern template void write_r1cs<Bn254>(const std::string&, const r1cs::ConstraintSystem<Bn254>&);
extern template void write_r1cs<Bls12_381>(const std::string&, const r1cs::ConstraintSystem<Bls12_381>&);

}  // namespace cuzk::io
