// snarkjs binary point encoding ("LEM" in ffjavascript): an affine point is x‖y, each coordinate n8q
// bytes, little-endian, in Montgomery form with R = 2^(8·n8q); Fq2 coordinates are c0‖c1. The point at
// infinity is all-zero bytes.
//
// Our ec::Affine stores exactly that: Montgomery limbs with R = 2^(64·N), N·8 = n8q on both curves
// (BN254 32 bytes, BLS12-381 48 bytes), Fp2 as {c0, c1}, and infinity as (0, 0). Decoding is therefore
// a memcpy plus validation, and encoding a plain memcpy.
//
// Validation: every coordinate is a reduced residue (< q) and the point lies on the curve (the all-zero
// infinity is accepted). There is deliberately no subgroup check here: proving keys hold millions of
// points and an r·P check per point would cost more than the proof; snarkjs does not check either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ec/point.hpp"
#include "io/parallel_decode.hpp"

namespace cuzk::io {

// Outcome of decoding one point. Decoders return a status rather than throwing so that the caller,
// who knows the file, section, offset and index, can build the message.
enum class PointStatus {
  ok,
  coordinate_not_reduced,  // a coordinate is ≥ q
  not_on_curve,
  not_in_subgroup,
  bad_length,      // wrong number of bytes for the encoding
  bad_flags,       // zcash flag bits inconsistent with the encoding
  x_not_on_curve,  // compressed: x³ + b has no square root
  bad_infinity,    // infinity flag set but other bits non-zero
};

constexpr const char* describe(PointStatus s) {
  switch (s) {
    case PointStatus::ok:
      return "ok";
    case PointStatus::coordinate_not_reduced:
      return "coordinate is not reduced (≥ q)";
    case PointStatus::not_on_curve:
      return "point not on curve";
    case PointStatus::not_in_subgroup:
      return "point not in the prime-order subgroup";
    case PointStatus::bad_length:
      return "wrong encoded length";
    case PointStatus::bad_flags:
      return "invalid flag bits";
    case PointStatus::x_not_on_curve:
      return "no point on the curve has this x coordinate";
    case PointStatus::bad_infinity:
      return "infinity flag set but the remaining bytes are not zero";
  }
  return "unknown point error";
}

namespace detail {

template <class F>
constexpr bool coordinate_reduced(const F& f) {
  if constexpr (requires { f.c1; })
    return f.c0.is_reduced() && f.c1.is_reduced();
  else
    return f.is_reduced();
}

}  // namespace detail

// Bytes of one LEM-encoded point: 2·n8q for G1, 4·n8q for G2.
template <class A>
inline constexpr std::size_t lem_size = sizeof(A);

// Reduced coordinates and on the curve (infinity = (0, 0) passes).
template <class A>
constexpr PointStatus check_point(const A& p) {
  if (!detail::coordinate_reduced(p.x) || !detail::coordinate_reduced(p.y))
    return PointStatus::coordinate_not_reduced;
  if (!p.on_curve()) return PointStatus::not_on_curve;
  return PointStatus::ok;
}

template <class A>
PointStatus decode_lem(const std::uint8_t* in, A& out) {
  static_assert(std::is_trivially_copyable_v<A> && sizeof(A) == 2 * sizeof(typename A::F),
                "Affine must be exactly x‖y for the memcpy codec");
  std::memcpy(static_cast<void*>(&out), in, sizeof(A));
  return check_point(out);
}

template <class A>
void encode_lem(const A& p, std::uint8_t* out) {
  std::memcpy(out, static_cast<const void*>(&p), sizeof(A));
}

struct ArrayDecodeResult {
  std::size_t bad_index;  // index of the first invalid point; meaningful when status != ok
  PointStatus status;
};

// Decodes `count` consecutive LEM points into out[0..count). Validation runs in parallel; on failure the
// lowest bad index is reported, so the error message does not depend on thread scheduling.
template <class A>
ArrayDecodeResult decode_lem_array(const std::uint8_t* in, std::size_t count, A* out) {
  if (count == 0) return {0, PointStatus::ok};
  std::memcpy(static_cast<void*>(out), in, count * sizeof(A));
  const std::size_t bad = decode_parallel(
      count, [&](std::size_t i) { return check_point(out[i]) == PointStatus::ok; }, 4096);
  if (bad == count) return {0, PointStatus::ok};
  return {bad, check_point(out[bad])};
}

}  // namespace cuzk::io
