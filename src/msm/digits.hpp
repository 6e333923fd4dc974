// Signed-digit (window) decomposition of scalars for Pippenger.
//
// A scalar k < 2^bits is written as Σ d_i·2^(c·i) with d_i ∈ [-2^(c-1), 2^(c-1)]: a window value above
// 2^(c-1) becomes value - 2^c and carries one into the next window. Negative digits use -P (free in
// affine), so only 2^(c-1) buckets are needed per window instead of 2^c - 1.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"

namespace cuzk::msm {

// Number of windows for scalars below 2^bits (one extra bit absorbs the final carry).
CUZK_HD constexpr std::size_t window_count(std::size_t bits, std::size_t c) {
  return (bits + 1 + c - 1) / c;
}

// Window size for n points: roughly log2(n) - 3, clamped; from the usual cost model
// n·w mixed adds + w·2^c bucket adds, minimised near 2^c ≈ n / ln(n)-ish.
inline std::size_t choose_window(std::size_t n) {
  std::size_t lg = 0;
  while ((std::size_t(1) << (lg + 1)) <= n) ++lg;
  if (lg < 4) return 2;
  std::size_t c = lg - 3;
  if (c > 16) c = 16;
  return c;
}

// Bits [pos, pos + c) of k (c ≤ 32).
template <std::size_t N>
CUZK_HD constexpr std::uint32_t window_bits(const ff::BigInt<N>& k, std::size_t pos, std::size_t c) {
  std::size_t limb = pos / 64, shift = pos % 64;
  if (limb >= N) return 0;
  std::uint64_t v = k.v[limb] >> shift;
  if (shift + c > 64 && limb + 1 < N) v |= k.v[limb + 1] << (64 - shift);
  return static_cast<std::uint32_t>(v & ((std::uint64_t(1) << c) - 1));
}

// Writes the w signed digits of k into out[0..w).
template <std::size_t N>
CUZK_HD constexpr void signed_digits(const ff::BigInt<N>& k, std::size_t c, std::size_t w,
                                     std::int32_t* out) {
  const std::int64_t half = std::int64_t(1) << (c - 1), full = std::int64_t(1) << c;
  std::int64_t carry = 0;
  for (std::size_t i = 0; i < w; ++i) {
    std::int64_t d = static_cast<std::int64_t>(window_bits(k, i * c, c)) + carry;
    carry = d > half ? 1 : 0;
    out[i] = static_cast<std::int32_t>(d - carry * full);
  }
}

}  // namespace cuzk::msm
