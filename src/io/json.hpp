// snarkjs JSON files: proof.json, public.json and verification_key.json (reference §4.7).
//
// Numbers are decimal strings of canonical integers. Points are affine with z = "1"
// (G1 [x, y, "1"], G2 [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]]); the point at infinity is
// ["0", "1", "0"] / [["0","0"], ["1","0"], ["0","0"]].
//
// Reading accepts what snarkjs writes and rejects everything else with a FormatError naming the file
// and the JSON field: non-string or non-decimal numbers, values ≥ the modulus, wrong array shapes,
// z other than 1 (or 0 for infinity), points off the curve. No subgroup check (snarkjs does none).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "groth16/types.hpp"
#include "io/curve_id.hpp"

namespace cuzk::io {

// "bn128", "bn254", "altbn128", "alt_bn128" → bn254; "bls12381", "bls12-381", "bls12_381" → bls12_381;
// case-insensitive. nullopt for anything else.
std::optional<CurveId> parse_curve_name(std::string_view name);

// The "curve" field of a proof.json or verification_key.json, so the CLI can pick the curve before
// parsing the rest.
CurveId peek_json_curve(const std::string& path);

// ---- files ------------------------------------------------------------------------------------------
template <class Curve>
groth16::Proof<Curve> read_proof(const std::string& path);
template <class Curve>
void write_proof(const std::string& path, const groth16::Proof<Curve>& proof);

template <class Curve>
std::vector<typename Curve::Fr> read_public(const std::string& path);
template <class Curve>
void write_public(const std::string& path, std::span<const typename Curve::Fr> inputs);

template <class Curve>
groth16::VerifyingKey<Curve> read_vk(const std::string& path);
// with_alphabeta: also write vk_alphabeta_12 = e(α1, β2) as snarkjs does (costs one pairing).
template <class Curve>
void write_vk(const std::string& path, const groth16::VerifyingKey<Curve>& vk, bool with_alphabeta = true);

// ---- in-memory forms (the file functions wrap these); `source` names the input in messages ----------
template <class Curve>
groth16::Proof<Curve> proof_from_json(std::string_view text, const std::string& source);
template <class Curve>
std::string proof_to_json(const groth16::Proof<Curve>& proof);

template <class Curve>
std::vector<typename Curve::Fr> public_from_json(std::string_view text, const std::string& source);
template <class Curve>
std::string public_to_json(std::span<const typename Curve::Fr> inputs);

template <class Curve>
groth16::VerifyingKey<Curve> vk_from_json(std::string_view text, const std::string& source);
template <class Curve>
std::string vk_to_json(const groth16::VerifyingKey<Curve>& vk, bool with_alphabeta = true);

}  // namespace cuzk::io
