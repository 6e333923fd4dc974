// The zcash / IETF serialization of BLS12-381 points (used by the bls12_381 crate, bellman, blst,
// Filecoin parameter files, Ethereum): big-endian coordinates, Fp2 written c1 then c0, and three flag
// bits in the top of the first byte:
//   0x80  compressed (x only; y recovered as a square root)
//   0x40  point at infinity (all other bits zero)
//   0x20  sort: y is the lexicographically larger of {y, −y} (compressed encodings only)
// Sizes: G1 48 (compressed) / 96 (uncompressed), G2 96 / 192.
//
// "Larger" compares canonical integers: for Fp, y > (q−1)/2; for Fp2, c1 decides, and c0 only when
// c1 = 0 — the rule of the bls12_381 crate.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "ec/bls12_381.hpp"
#include "io/point_codec.hpp"

namespace cuzk::io::zcash {

using G1 = Bls12_381::G1;
using G2 = Bls12_381::G2;

inline constexpr std::size_t g1_compressed_size = 48;
inline constexpr std::size_t g1_uncompressed_size = 96;
inline constexpr std::size_t g2_compressed_size = 96;
inline constexpr std::size_t g2_uncompressed_size = 192;

// The point must be valid (on the curve, or infinity); encoding does not check.
std::array<std::uint8_t, g1_compressed_size> encode_g1_compressed(const G1& p);
std::array<std::uint8_t, g1_uncompressed_size> encode_g1_uncompressed(const G1& p);
std::array<std::uint8_t, g2_compressed_size> encode_g2_compressed(const G2& p);
std::array<std::uint8_t, g2_uncompressed_size> encode_g2_uncompressed(const G2& p);

// Decoders take the encoding's exact length (which one is told by the size, and the compression flag
// must agree with it). They check the flags, that coordinates are < q, that the point is on the
// curve, and — when check_subgroup is set — that it lies in the order-r subgroup (one scalar
// multiplication, ~1 ms for G2; callers decoding millions of trusted points may skip it).
PointStatus decode_g1(std::span<const std::uint8_t> in, G1& out, bool check_subgroup = true);
PointStatus decode_g2(std::span<const std::uint8_t> in, G2& out, bool check_subgroup = true);

// The zcash sort-flag predicate, exposed for tests.
bool lexicographically_largest(const Bls12_381::Fq& y);
bool lexicographically_largest(const Bls12_381::Fq2& y);

}  // namespace cuzk::io::zcash
