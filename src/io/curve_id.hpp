// Which curve a file belongs to, and the bridge from that runtime value to the compile-time curve
// bundles (cuzk::Bn254, cuzk::Bls12_381) that the engine is templated on.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"

namespace cuzk::io {

class Cursor;

enum class CurveId { bn254, bls12_381 };

template <class Curve>
inline constexpr CurveId curve_id_of = std::is_same_v<Curve, Bn254> ? CurveId::bn254 : CurveId::bls12_381;

// The names snarkjs writes in JSON "curve" fields and uses on its command line: "bn128", "bls12381".
std::string_view curve_name(CurveId c);
// Human names for messages: "BN254", "BLS12-381".
std::string_view curve_display_name(CurveId c);

// Which of a curve's two primes a value is.
enum class PrimeKind { base /* q, coordinates */, scalar /* r, witness and exponents */ };

struct PrimeMatch {
  CurveId curve;
  PrimeKind kind;
};

// Identifies a prime given as little-endian bytes (any length; high zero bytes allowed) as q or r of a
// supported curve. Throws std::invalid_argument naming the prime in decimal and the supported curves
// otherwise.
PrimeMatch identify_prime(std::span<const std::uint8_t> le);

// Reads `u32 n8, prime[n8]` at the cursor (the layout all snarkjs headers use), checks that the prime is
// `kind` of a supported curve and that n8 is that prime's usual byte width (32 or 48), and returns the
// curve. `what` names the field in messages ("q", "r", "prime").
CurveId read_prime_field(Cursor& c, PrimeKind kind, std::string_view what);

// Opens a .zkey, .wtns or .r1cs file (told apart by magic) and returns its curve from the header prime:
// section 2's q for .zkey, section 1's r for .wtns and .r1cs. Reads only the headers.
CurveId peek_curve(const std::string& path);

// Calls f.template operator()<Bn254>() or f.template operator()<Bls12_381>(), so that code holding a
// runtime CurveId can enter templated code: with_curve(id, [&]<class C>() { return read_zkey<C>(p); }).
template <class F>
decltype(auto) with_curve(CurveId c, F&& f) {
  switch (c) {
    case CurveId::bn254:
      return std::forward<F>(f).template operator()<Bn254>();
    case CurveId::bls12_381:
      return std::forward<F>(f).template operator()<Bls12_381>();
  }
  throw std::invalid_argument("with_curve: invalid CurveId");
}

}  // namespace cuzk::io
