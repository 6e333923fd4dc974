// Host-side conversions between field elements and bytes / decimal strings, plus random sampling.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "ff/field.hpp"

namespace cuzk::ff {

// Canonical little-endian bytes (N·8 of them) → element; nullopt when the integer is ≥ p.
template <class F>
std::optional<F> from_bytes_le(const std::uint8_t* in, std::size_t len = F::bytes()) {
  typename F::Int v{};
  if (len > F::bytes()) return std::nullopt;
  for (std::size_t i = 0; i < len; ++i) v.v[i / 8] |= u64(in[i]) << (8 * (i % 8));
  if (!bigint_less(v, F::modulus())) return std::nullopt;
  return F::from_int(v);
}
template <class F>
void to_bytes_le(const F& x, std::uint8_t* out, std::size_t len = F::bytes()) {
  auto v = x.to_int();
  for (std::size_t i = 0; i < len; ++i) out[i] = static_cast<std::uint8_t>(v.v[i / 8] >> (8 * (i % 8)));
}
template <class F>
std::optional<F> from_bytes_be(const std::uint8_t* in, std::size_t len) {
  std::uint8_t le[F::bytes()] = {};
  if (len > F::bytes()) return std::nullopt;
  for (std::size_t i = 0; i < len; ++i) le[i] = in[len - 1 - i];
  return from_bytes_le<F>(le, F::bytes());
}
template <class F>
void to_bytes_be(const F& x, std::uint8_t* out, std::size_t len) {
  std::uint8_t le[F::bytes()];
  to_bytes_le(x, le);
  for (std::size_t i = 0; i < len; ++i) out[i] = le[len - 1 - i];
}

// Montgomery-form little-endian bytes as stored by snarkjs ("LEM"); nullopt when not reduced.
template <class F>
std::optional<F> from_mont_bytes_le(const std::uint8_t* in) {
  F f;
  std::memcpy(f.l, in, F::bytes());
  if (!f.is_reduced()) return std::nullopt;
  return f;
}
template <class F>
void to_mont_bytes_le(const F& x, std::uint8_t* out) {
  std::memcpy(out, x.l, F::bytes());
}

// Decimal text of the canonical integer.
template <std::size_t N>
std::string bigint_to_decimal(BigInt<N> v) {
  if (v.is_zero()) return "0";
  std::string out;
  while (!v.is_zero()) {
    u64 rem = bigint_divmod_small(v, 10000000000000000000ULL);  // 10^19
    std::string chunk = std::to_string(rem);
    if (!v.is_zero()) chunk.insert(0, 19 - chunk.size(), '0');
    out.insert(0, chunk);
  }
  return out;
}
template <class F>
std::string to_decimal(const F& x) {
  return bigint_to_decimal(x.to_int());
}

// Parses a non-negative decimal integer that must be < bound; nullopt on any other text.
template <std::size_t N>
std::optional<BigInt<N>> bigint_from_decimal(std::string_view s, const BigInt<N>& bound) {
  if (s.empty() || s.size() > N * 20) return std::nullopt;
  BigInt<N> v{};
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    if (bigint_mul_small_add(v, 10, u64(c - '0')) != 0) return std::nullopt;
  }
  if (!bigint_less(v, bound)) return std::nullopt;
  return v;
}
template <class F>
std::optional<F> from_decimal(std::string_view s) {
  auto v = bigint_from_decimal(s, F::modulus());
  if (!v) return std::nullopt;
  return F::from_int(*v);
}

// Uniform element from a 64-bit generator (rejection sampling on the bit length of p).
template <class F, class Rng>
F random_element(Rng& rng) {
  typename F::Int v{};
  const std::size_t top_bits = F::bits() % 64;
  for (;;) {
    for (std::size_t i = 0; i < F::N; ++i) v.v[i] = rng();
    if (top_bits) v.v[F::N - 1] &= (u64(1) << top_bits) - 1;
    if (bigint_less(v, F::modulus())) return F::from_int(v);
  }
}

}  // namespace cuzk::ff
