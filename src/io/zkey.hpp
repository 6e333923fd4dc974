// snarkjs Groth16 proving keys (.zkey, version 1; layout in shared/reference/snarkjs-interop.md §4.4).
//
//   1 protocol (u32, 1 = groth16)      5 A        nVars × G1
//   2 header: n8q q n8r r nVars        6 B1       nVars × G1
//     nPublic domainSize α1 β1 β2      7 B2       nVars × G2
//     γ2 δ1 δ2                         8 C        (nVars − nPublic − 1) × G1
//   3 IC  (nPublic + 1) × G1           9 H        domainSize × G1
//   4 coefficients of A and B          10 csHash and contributions (ignored by the prover)
//
// Points are LEM (see point_codec.hpp); coefficient values are stored as v·R² mod r.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "groth16/types.hpp"
#include "io/binfile.hpp"
#include "io/curve_id.hpp"
#include "io/mapped_file.hpp"

namespace cuzk::io {

// Reads and validates a whole Groth16 zkey for the given curve. Throws FormatError when the file is
// malformed, is not Groth16 (PLONK/FFLONK keys), or belongs to the other curve. Every point is checked
// to be on the curve with reduced coordinates; subgroup membership is not checked (millions of points,
// and snarkjs does not either).
template <class Curve>
groth16::ProvingKey<Curve> read_zkey(const std::string& path);
// The same from a file already mapped (the repository's "mapped" tier); `name` is the path for messages.
// verifying_only: the header, the verifying key and IC; the coefficients and point vectors are left empty
// (what a process that only checks witnesses and proofs needs: engine.isolation = "process").
// `arrays`: where the big arrays go (a key image being built, io/key_image.hpp); the heap when null.
template <class Curve>
groth16::ProvingKey<Curve> read_zkey(const std::string& name, MappedFile file, bool verifying_only = false,
                                     ArraySource* arrays = nullptr);

// Writes the key in the layout above, sections 1..10 in order, section 10 being an all-zero csHash and
// no contributions, so that snarkjs accepts the file (used by the test-only `cuzk setup`). Throws
// std::invalid_argument when the key's vectors do not match its counts, std::runtime_error on I/O errors.
template <class Curve>
void write_zkey(const std::string& path, const groth16::ProvingKey<Curve>& pk);

// Header-level summary; reads only the headers and checks that every section has the size its counts
// imply, without decoding points.
struct ZkeyInfo {
  std::string path;
  CurveId curve;
  std::uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  std::uint32_t n_coefs = 0;
  std::uint32_t n_contributions = 0;  // from section 10 when present
  std::vector<SectionInfo> sections;  // in file order

  std::string to_string() const;  // multi-line, human readable
};
ZkeyInfo describe_zkey(const std::string& path);

extern template groth16::ProvingKey<Bn254> read_zkey<Bn254>(const std::string&);
extern template groth16::ProvingKey<Bls12_381> read_zkey<Bls12_381>(const std::string&);
extern template groth16::ProvingKey<Bn254> read_zkey<Bn254>(const std::string&, MappedFile, bool, ArraySource*);
extern template groth16::ProvingKey<Bls12_381> read_zkey<Bls12_381>(const std::string&, MappedFile, bool,
                                                                        ArraySource*);
extern template void write_zkey<Bn254>(const std::string&, const groth16::ProvingKey<Bn254>&);
extern template void write_zkey<Bls12_381>(const std::string&, const groth16::ProvingKey<Bls12_381>&);

}  // namespace cuzk::io
