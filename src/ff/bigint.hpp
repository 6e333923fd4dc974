// Fixed-width unsigned integers as little-endian 64-bit limbs.
// Everything here is constexpr so that field constants (R, R², -p⁻¹, exponents) are derived from the
// modulus at compile time, on the host and, under nvcc, in device code alike.
#pragma once

#include <cstddef>
#include <cstdint>

// Functions usable on host and device. Forced inline only in the device pass, where calls are costly;
// in nvcc's host pass forcing it made one translation unit take minutes to compile for nothing.
#if defined(__CUDACC__) && defined(__CUDA_ARCH__)
#define CUZK_HD __host__ __device__ __forceinline__
#elif defined(__CUDACC__)
#define CUZK_HD __host__ __device__ inline
#else
#define CUZK_HD inline
#endif

namespace cuzk::ff {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

template <std::size_t N>
struct BigInt {
  u64 v[N];

  static constexpr std::size_t limbs = N;

  CUZK_HD constexpr bool operator==(const BigInt& o) const {
    for (std::size_t i = 0; i < N; ++i)
      if (v[i] != o.v[i]) return false;
    return true;
  }
  CUZK_HD constexpr bool is_zero() const {
    u64 acc = 0;
    for (std::size_t i = 0; i < N; ++i) acc |= v[i];
    return acc == 0;
  }
  CUZK_HD constexpr bool bit(std::size_t i) const { return (v[i / 64] >> (i % 64)) & 1; }
  CUZK_HD constexpr std::size_t num_bits() const {
    for (std::size_t i = N; i-- > 0;)
      if (v[i]) return i * 64 + 64 - static_cast<std::size_t>(__builtin_clzll(v[i]));
    return 0;
  }
};

template <std::size_t N>
CUZK_HD constexpr BigInt<N> bigint_from_u64(u64 x) {
  BigInt<N> r{};
  r.v[0] = x;
  return r;
}

// a < b, as unsigned integers.
template <std::size_t N>
CUZK_HD constexpr bool bigint_less(const BigInt<N>& a, const BigInt<N>& b) {
  for (std::size_t i = N; i-- > 0;) {
    if (a.v[i] != b.v[i]) return a.v[i] < b.v[i];
  }
  return false;
}

// r = a + b, returns the carry out.
template <std::size_t N>
CUZK_HD constexpr u64 bigint_add(BigInt<N>& r, const BigInt<N>& a, const BigInt<N>& b) {
  u64 carry = 0;
  for (std::size_t i = 0; i < N; ++i) {
    u128 t = static_cast<u128>(a.v[i]) + b.v[i] + carry;
    r.v[i] = static_cast<u64>(t);
    carry = static_cast<u64>(t >> 64);
  }
  return carry;
}

// r = a - b, returns the borrow out (1 when a < b).
template <std::size_t N>
CUZK_HD constexpr u64 bigint_sub(BigInt<N>& r, const BigInt<N>& a, const BigInt<N>& b) {
  u64 borrow = 0;
  for (std::size_t i = 0; i < N; ++i) {
    u128 t = static_cast<u128>(a.v[i]) - b.v[i] - borrow;
    r.v[i] = static_cast<u64>(t);
    borrow = static_cast<u64>(t >> 64) & 1;
  }
  return borrow;
}

template <std::size_t N>
CUZK_HD constexpr BigInt<N> bigint_shr(const BigInt<N>& a, std::size_t s) {
  BigInt<N> r{};
  const std::size_t words = s / 64, bits = s % 64;
  for (std::size_t i = 0; i + words < N; ++i) {
    u64 lo = a.v[i + words] >> bits;
    u64 hi = (bits && i + words + 1 < N) ? a.v[i + words + 1] << (64 - bits) : 0;
    r.v[i] = lo | hi;
  }
  return r;
}

template <std::size_t N>
CUZK_HD constexpr BigInt<N> bigint_sub_u64(const BigInt<N>& a, u64 x) {
  BigInt<N> r{};
  bigint_sub(r, a, bigint_from_u64<N>(x));
  return r;
}

template <std::size_t N>
CUZK_HD constexpr BigInt<N> bigint_add_u64(const BigInt<N>& a, u64 x) {
  BigInt<N> r{};
  bigint_add(r, a, bigint_from_u64<N>(x));
  return r;
}

// Number of trailing zero bits (2-adicity of a).
template <std::size_t N>
CUZK_HD constexpr std::size_t bigint_trailing_zeros(const BigInt<N>& a) {
  for (std::size_t i = 0; i < N; ++i)
    if (a.v[i]) return i * 64 + static_cast<std::size_t>(__builtin_ctzll(a.v[i]));
  return N * 64;
}

// (2·a) mod m for a < m, where m leaves at least one spare top bit.
template <std::size_t N>
CUZK_HD constexpr BigInt<N> bigint_double_mod(const BigInt<N>& a, const BigInt<N>& m) {
  BigInt<N> r{};
  bigint_add(r, a, a);
  if (!bigint_less(r, m)) bigint_sub(r, r, m);
  return r;
}

// Divides a by a small divisor in place; returns the remainder.
template <std::size_t N>
CUZK_HD constexpr u64 bigint_divmod_small(BigInt<N>& a, u64 d) {
  u128 rem = 0;
  for (std::size_t i = N; i-- > 0;) {
    u128 cur = (rem << 64) | a.v[i];
    a.v[i] = static_cast<u64>(cur / d);
    rem = cur % d;
  }
  return static_cast<u64>(rem);
}

// r = a·m + add for small m; returns the carry out.
template <std::size_t N>
CUZK_HD constexpr u64 bigint_mul_small_add(BigInt<N>& a, u64 m, u64 add) {
  u64 carry = add;
  for (std::size_t i = 0; i < N; ++i) {
    u128 t = static_cast<u128>(a.v[i]) * m + carry;
    a.v[i] = static_cast<u64>(t);
    carry = static_cast<u64>(t >> 64);
  }
  return carry;
}

// Compile-time literal parsers for readable constants: "0x1a01…" or "218882…".
template <std::size_t N>
constexpr BigInt<N> bigint_from_hex(const char* s) {
  BigInt<N> r{};
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
  for (; *s; ++s) {
    char c = *s;
    u64 d = (c >= '0' && c <= '9') ? u64(c - '0') : (c >= 'a' && c <= 'f') ? u64(c - 'a' + 10) : u64(c - 'A' + 10);
    bigint_mul_small_add(r, 16, d);
  }
  return r;
}
template <std::size_t N>
constexpr BigInt<N> bigint_from_dec(const char* s) {
  BigInt<N> r{};
  for (; *s; ++s) bigint_mul_small_add(r, 10, u64(*s - '0'));
  return r;
}

}  // namespace cuzk::ff
