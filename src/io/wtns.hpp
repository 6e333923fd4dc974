// circom/snarkjs witness files (.wtns, version 2):
//   section 1: u32 n8 (32), r[n8], u32 nWitness
//   section 2: nWitness × n8 bytes, plain little-endian integers (NOT Montgomery), each < r
// w[0] = 1 and w[1..nPublic] are the public signals.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "io/curve_id.hpp"

namespace cuzk::io {

// Throws FormatError when the file is malformed, belongs to the other curve, or holds a value ≥ r
// (the message names the witness index).
template <class Curve>
std::vector<typename Curve::Fr> read_wtns(const std::string& path);

// The same from bytes in memory (a .wtns received over the network); `name` labels error messages.
// The header checked and the first value, without decoding the rest (a request's files are checked when
// it arrives and decoded when their partition runs).
template <class Curve>
struct WtnsSummary {
  std::uint32_t count = 0;
  typename Curve::Fr first;
};
template <class Curve>
WtnsSummary<Curve> peek_wtns(const std::string& path);

template <class Curve>
std::vector<typename Curve::Fr> read_wtns_bytes(std::vector<std::uint8_t> bytes, const std::string& name);

template <class Curve>
void write_wtns(const std::string& path, std::span<const typename Curve::Fr> witness);

extern template std::vector<Bn254::Fr> read_wtns<Bn254>(const std::string&);
extern template std::vector<Bls12_381::Fr> read_wtns<Bls12_381>(const std::string&);
extern template WtnsSummary<Bn254> peek_wtns<Bn254>(const std::string&);
extern template WtnsSummary<Bls12_381> peek_wtns<Bls12_381>(const std::string&);
extern template std::vector<Bn254::Fr> read_wtns_bytes<Bn254>(std::vector<std::uint8_t>, const std::string&);
extern template std::vector<Bls12_381::Fr> read_wtns_bytes<Bls12_381>(std::vector<std::uint8_t>,
                                                                      const std::string&);
extern template void write_wtns<Bn254>(const std::string&, std::span<const Bn254::Fr>);
extern template void write_wtns<Bls12_381>(const std::string&, std::span<const Bls12_381::Fr>);

}  // namespace cuzk::io
