#include "io/curve_id.hpp"

#include <cstring>

#include "ff/encoding.hpp"
#include "io/binfile.hpp"

namespace cuzk::io {

namespace {

// Little-endian bytes → 512-bit integer; false when non-zero bytes lie beyond 64.
bool load_wide(std::span<const std::uint8_t> le, ff::BigInt<8>& out) {
  out = {};
  for (std::size_t i = 0; i < le.size(); ++i) {
    if (i >= 64) {
      if (le[i] != 0) return false;
      continue;
    }
    out.v[i / 8] |= std::uint64_t(le[i]) << (8 * (i % 8));
  }
  return true;
}

template <class F>
bool equals_modulus(const ff::BigInt<8>& v) {
  ff::BigInt<8> m{};
  const auto mod = F::modulus();
  for (std::size_t i = 0; i < F::N; ++i) m.v[i] = mod.v[i];
  return v == m;
}

template <class Curve>
std::size_t prime_bytes(PrimeKind k) {
  return k == PrimeKind::base ? Curve::Fq::bytes() : Curve::Fr::bytes();
}

std::size_t prime_bytes(PrimeMatch m) {
  return with_curve(m.curve, [&]<class C>() { return prime_bytes<C>(m.kind); });
}

const char* kind_name(PrimeKind k) {
  return k == PrimeKind::base ? "base field q" : "scalar field r";
}

constexpr const char* kSupported = "supported: bn128 (BN254) and bls12381 (BLS12-381), q or r";

}  // namespace

std::string_view curve_name(CurveId c) {
  return c == CurveId::bn254 ? Bn254::snarkjs_name : Bls12_381::snarkjs_name;
}
std::string_view curve_display_name(CurveId c) {
  return c == CurveId::bn254 ? Bn254::display_name : Bls12_381::display_name;
}

PrimeMatch identify_prime(std::span<const std::uint8_t> le) {
  ff::BigInt<8> v;
  if (!load_wide(le, v))
    throw std::invalid_argument("unsupported prime of " + std::to_string(le.size()) + " bytes (" +
                                kSupported + ")");
  if (equals_modulus<Bn254::Fq>(v)) return {CurveId::bn254, PrimeKind::base};
  if (equals_modulus<Bn254::Fr>(v)) return {CurveId::bn254, PrimeKind::scalar};
  if (equals_modulus<Bls12_381::Fq>(v)) return {CurveId::bls12_381, PrimeKind::base};
  if (equals_modulus<Bls12_381::Fr>(v)) return {CurveId::bls12_381, PrimeKind::scalar};
  throw std::invalid_argument("unsupported prime " + ff::bigint_to_decimal(v) + " (" + kSupported + ")");
}

CurveId read_prime_field(Cursor& c, PrimeKind kind, std::string_view what) {
  const std::string w(what);
  const std::uint64_t at = c.offset();
  const std::uint32_t n8 = c.u32("n8 (byte width of " + w + ")");
  // snarkjs uses 8-byte multiples; anything beyond 64 bytes is no prime we could support.
  if (n8 == 0 || n8 > 64 || n8 % 8 != 0)
    c.fail_at(
        at, "unsupported field size n8 = " + std::to_string(n8) + " bytes for " + w + " (expected 32 or 48)");
  const std::uint64_t prime_at = c.offset();
  const std::uint8_t* p = c.take(n8, w);
  PrimeMatch m;
  try {
    m = identify_prime({p, n8});
  } catch (const std::invalid_argument& e) {
    c.fail_at(prime_at, w + ": " + e.what());
  }
  if (m.kind != kind)
    c.fail_at(prime_at, w + " is the " + kind_name(m.kind) + " prime of " + std::string(curve_name(m.curve)) +
                            ", expected the " + kind_name(kind) + " prime");
  if (n8 != prime_bytes(m))
    c.fail_at(at, "n8 = " + std::to_string(n8) + " for " + w + " of " + std::string(curve_name(m.curve)) +
                      ", expected " + std::to_string(prime_bytes(m)));
  return m.curve;
}

CurveId peek_curve(const std::string& path) {
  BinFile f(path, {"zkey", "wtns", "r1cs"});
  const std::string_view magic = f.magic();
  if (magic == "zkey") {
    Cursor c = f.section(2, "Groth16 header");
    return read_prime_field(c, PrimeKind::base, "q");
  }
  Cursor c = f.section(1, "header");  // .wtns and .r1cs
  return read_prime_field(c, PrimeKind::scalar, "r");
}

}  // namespace cuzk::io
