// Device-side Montgomery multiplication for the 381-bit field on the FP64 pipe (device only).
//
// Why: the 32-bit form (mont32.hpp) is capped by Hopper's half-rate IMAD.HI (~17.6 G mul/s on an H200),
// and the MSM bucket accumulation runs at that cap. The H200's FP64 pipe (58.8 DFMA per SM per clock) is a
// separate pipe that the integer form leaves idle. Following Emmart, Zheng and Weems (ARITH 2018), an FMA
// computes a product exactly before rounding, so two FMAs split a product of two 48-bit integers held in
// doubles into exact 48-bit halves.
//
// Representation: eight 48-bit limbs (8 · 48 = 384 bits), each an integer-valued double. R = 2^384, the
// same Montgomery radix as the 12 × 32-bit form, so the value in a limb array and in the host's
// BigInt<6> is the same residue: conversion is only a regrouping of bits.
//
// Multiplication is product scanning with interleaved reduction (FIPS): column k gathers every a_i·b_j
// and m_i·p_j with i + j = k. A product x·y (< 2^96) is split by
//     H' = fma_rz(x, y, H)       H ∈ [2^100, 2^101) holds a multiple of 2^48: H' − H = ⌊x·y / 2^48⌋·2^48
//     lo = fma(x, y, H − H')     exact, in [0, 2^48)
// so a column keeps its high halves in H (one rounding FMA per product) and its low halves in L. With at
// most 16 products per column both sums stay below 2^52 (exact), and the top limbs of p, a and b are below
// 2^46, which keeps a column plus its incoming carry below 2^53.
//
// "Hybrid" products (`IntPer8`) send both halves to 64-bit integer accumulators instead (the double's bit
// pattern with a fixed exponent is an integer plus a constant): three FP64 operations and four integer
// additions instead of four FP64 operations, to move work to the otherwise idle integer pipe. Measured
// slower on an H200 (half of them 20.9 G mul/s, all 20.9, pure 24.4), so the field uses the pure form;
// the variants stay for the benchmark and the test.
#pragma once

#include <cstdint>

#include "ff/bigint.hpp"
#include "ff/mont32.hpp"

namespace cuzk::ff::fp64 {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// Whether a 6-word field (BLS12-381 Fp) multiplies on the FP64 pipe on the device: only where that pipe
// does 64 FMAs per SM per clock, as many as the integer pipe's IMAD.LO: Hopper (sm_90, measured) and
// Blackwell B200 (sm_100, same ratio, not measured). A100, V100 and P100 do 32, where this form's ~650 FP64
// operations per multiply would take ~20 clocks against the integer form's ~15; consumer GPUs run FP64 at
// 1/64 rate. Measured on an H200: 24.4 G mul/s inlined against 17.6 for the 32-bit carry chains
// (`cuzk-bench kernels 0 1 field`); the 2^27 partition's H MSM 1,220.4 → 925.1 ms (bench/RESULTS.md, "The
// 381-bit multiply on the FP64 pipe"). Build with -DCUZK_MONT_FP64=0 for the 32-bit form everywhere (A/B).
#ifndef CUZK_MONT_FP64
#define CUZK_MONT_FP64 1
#endif
// Whether such a field also squares with its own FP64 form (fp64::sqr) rather than the multiply.
#ifndef CUZK_FP64_SQR
#define CUZK_FP64_SQR 1
#endif
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000)
inline constexpr bool kFullRateFp64 = true;
#else
inline constexpr bool kFullRateFp64 = false;
#endif
template <class Params>
inline constexpr bool kUseFp64 = kFullRateFp64 && (CUZK_MONT_FP64 != 0) && (Params::N == 6);

inline constexpr int kLimbs = 8;
inline constexpr int kLimbBits = 48;

struct Limbs {
  double v[kLimbs];
};

// Powers of two as exact doubles.
inline constexpr double kTwo48 = 281474976710656.0;
inline constexpr double kTwoNeg48 = 1.0 / 281474976710656.0;
inline constexpr double kTwo52 = 4503599627370496.0;
inline constexpr double kTwo100 = 1267650600228229401496703205376.0;
// Bit patterns: 2^52 + x (0 ≤ x < 2^52) reads as kBits52 + x; 2^100 + 2^48·x reads as kBits100 + x.
inline constexpr u64 kBits52 = 0x4330000000000000ull;
inline constexpr u64 kBits100 = 0x4630000000000000ull;

// Bits [48·i, 48·i + 48) of a 6-word value.
__host__ __device__ constexpr u64 limb_bits(const BigInt<6>& x, int i) {
  const int bit = kLimbBits * i, word = bit / 64, shift = bit % 64;
  u64 v = x.v[word] >> shift;
  if (shift > 16 && word + 1 < 6) v |= x.v[word + 1] << (64 - shift);
  return v & ((u64{1} << kLimbBits) - 1);
}

template <class Params>
struct Constants {
  double p[kLimbs];
  double pinv;  // −p⁻¹ mod 2^48
};

template <class Params>
__host__ __device__ constexpr Constants<Params> constants() {
  static_assert(Params::modulus().v[5] < (u64{1} << 61), "the limb bounds need p < 2^381");
  Constants<Params> c{};
  const BigInt<6> p = Params::modulus();
  for (int i = 0; i < kLimbs; ++i) c.p[i] = static_cast<double>(limb_bits(p, i));
  u64 x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - p.v[0] * x;  // p⁻¹ mod 2^64
  c.pinv = static_cast<double>((~x + 1) & ((u64{1} << kLimbBits) - 1));
  return c;
}

#if defined(__CUDACC__)

// 0 ≤ lo + 2^32·hi16 < 2^48 as a double.
__device__ __forceinline__ double limb_from(u32 lo, u32 hi16) {
  return __hiloint2double(static_cast<int>(0x43300000u | hi16), static_cast<int>(lo)) - kTwo52;
}

__device__ __forceinline__ Limbs to_limbs(const mont32::Words<6>& x) {
  Limbs r;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const u32 w0 = x.w[3 * j], w1 = x.w[3 * j + 1], w2 = x.w[3 * j + 2];
    r.v[2 * j] = limb_from(w0, w1 & 0xffffu);
    r.v[2 * j + 1] = limb_from(__funnelshift_r(w1, w2, 16), w2 >> 16);
  }
  return r;
}

// Limbs that are integers in [0, 2^48) back to 32-bit words.
__device__ __forceinline__ mont32::Words<6> to_words(const Limbs& x) {
  mont32::Words<6> r;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const double e = x.v[2 * j] + kTwo52, o = x.v[2 * j + 1] + kTwo52;
    const u32 elo = static_cast<u32>(__double2loint(e)), ehi = static_cast<u32>(__double2hiint(e)) & 0xffffu;
    const u32 olo = static_cast<u32>(__double2loint(o)), ohi = static_cast<u32>(__double2hiint(o)) & 0xffffu;
    r.w[3 * j] = elo;
    r.w[3 * j + 1] = ehi | (olo << 16);
    r.w[3 * j + 2] = __funnelshift_r(olo, ohi, 16);
  }
  return r;
}

// One column's accumulators: H (FP64 high halves, offset 2^100), L (FP64 low halves, starting from the
// carry out of the previous column), and the integer sums of hybrid products' bit patterns.
struct Column {
  double high = kTwo100;
  double low;
  u64 int_high = 0, int_low = 0;
  int int_count = 0;
};

template <bool Hybrid>
__device__ __forceinline__ void accumulate(Column& c, double x, double y) {
  if constexpr (Hybrid) {
    const double h = __fma_rz(x, y, kTwo100);                 // 2^100 + ⌊xy/2^48⌋·2^48
    const double l = __fma_rn(x, y, (kTwo100 + kTwo52) - h);  // 2^52 + (xy mod 2^48)
    c.int_high += static_cast<u64>(__double_as_longlong(h));
    c.int_low += static_cast<u64>(__double_as_longlong(l));
    ++c.int_count;
  } else {
    const double h = __fma_rz(x, y, c.high);
    c.low += __fma_rn(x, y, c.high - h);
    c.high = h;
  }
}

// Adds the hybrid products' integer sums (offsets removed) into the FP64 accumulators.
__device__ __forceinline__ void fold_integer_sums(Column& c) {
  if (c.int_count == 0) return;
  const u64 ih = c.int_high - static_cast<u64>(c.int_count) * kBits100;
  const u64 il = c.int_low - static_cast<u64>(c.int_count) * kBits52;
  c.high = __fma_rn(__longlong_as_double(static_cast<long long>(kBits52 + ih)) - kTwo52, kTwo48, c.high);
  c.low += __longlong_as_double(static_cast<long long>(kBits52 + il)) - kTwo52;
}

// ⌊v / 2^48⌋ and v mod 2^48 for an integer-valued 0 ≤ v < 2^53.
__device__ __forceinline__ void split48(double v, double& quotient, double& remainder) {
  quotient = __fma_rz(v, kTwoNeg48, kTwo52) - kTwo52;
  remainder = __fma_rn(quotient, -kTwo48, v);
}

inline constexpr double kTwo53 = 2 * kTwo52;

// Montgomery reduction with the products scanned by column: (Σ products + m·p)·2^-384, the result < 2p
// (one subtraction from canonical). `products(col, c, q)` adds the operand products of column col to c
// (q counts products, which picks the hybrid ones). The carry into the next column is (the column's high
// halves) + ⌊column / 2^48⌋, plus for the first eight columns ⌊m·p_0 / 2^48⌋ and one more unless the
// column's remainder is 0 (remainder + (m·p_0 mod 2^48) is 0 or 2^48). Each sum is formed by FMAs whose
// exact results are integers below 2^53.
template <class Params, int IntPer8, class Products>
__device__ __forceinline__ Limbs reduce_columns(Products&& products) {
  constexpr Constants<Params> k = constants<Params>();
  double m[kLimbs];
  Limbs r;
  double carry = 0;
  int q = 0;  // product counter: which products go to the integer accumulators
#pragma unroll
  for (int col = 0; col < 2 * kLimbs - 1; ++col) {
    Column c;
    c.low = carry;
    products(col, c, q);
#pragma unroll
    for (int i = 0; i < kLimbs; ++i) {
      const int j = col - i;
      if (j < 1 || j >= kLimbs) continue;  // m_i·p_j with i < col; m_col·p_0 follows below
      if ((q++ % 8) < IntPer8)
        accumulate<true>(c, m[i], k.p[j]);
      else
        accumulate<false>(c, m[i], k.p[j]);
    }
    fold_integer_sums(c);
    double quotient, remainder;
    split48(c.low, quotient, remainder);
    if (col < kLimbs) {
      // m = remainder·(−p⁻¹) mod 2^48 makes the column divisible by 2^48 once m·p_0 is added.
      const double mh = __fma_rz(remainder, k.pinv, kTwo100);
      const double mk = __fma_rn(remainder, k.pinv, kTwo100 - mh);
      m[col] = mk;
      const double ph = __fma_rz(mk, k.p[0], kTwo100);  // 2^100 + ⌊m·p_0 / 2^48⌋·2^48
      const double base = quotient + (remainder != 0 ? 1 - kTwo53 : -kTwo53);
      carry = __fma_rn(c.high, kTwoNeg48, __fma_rn(ph, kTwoNeg48, base));
    } else {
      r.v[col - kLimbs] = remainder;
      carry = __fma_rn(c.high, kTwoNeg48, quotient - kTwo52);
    }
  }
  r.v[kLimbs - 1] = carry;
  return r;
}

// a·b·2^-384 mod p, for a, b < p given as limbs; the result is < 2p.
template <class Params, int IntPer8>
__device__ __forceinline__ Limbs mul_lazy(const Limbs& a, const Limbs& b) {
  return reduce_columns<Params, IntPer8>([&](int col, Column& c, int& q) {
#pragma unroll
    for (int i = 0; i < kLimbs; ++i) {
      const int j = col - i;
      if (j < 0 || j >= kLimbs) continue;
      if ((q++ % 8) < IntPer8)
        accumulate<true>(c, a.v[i], b.v[j]);
      else
        accumulate<false>(c, a.v[i], b.v[j]);
    }
  });
}

// a²·2^-384 mod p for a < p; the result is < 2p. Each cross product a_i·a_j (i < j) is formed once, as
// (2a_i)·a_j: 36 operand products instead of 64, and 100 products in all instead of 128. The doubled
// limb (< 2^49) is exact, and so is the split of its product (< 2^97): H' − H is still a multiple of
// 2^48 while H stays in [2^100, 2^101). The bounds hold with room: a column has at most 4 operand
// products (and 8 of m·p), against the multiply's 8 (and 8), and its high halves sum to at most
// ~13·2^48 of the 2^52 the binade allows (the worst columns, 6 and 7, as in the multiply), because
// ⌊2xy / 2^48⌋ ≤ 2⌊xy / 2^48⌋ + 1.
template <class Params>
__device__ __forceinline__ Limbs sqr_lazy(const Limbs& a) {
  Limbs twice;
#pragma unroll
  for (int i = 0; i < kLimbs; ++i) twice.v[i] = a.v[i] + a.v[i];
  return reduce_columns<Params, 0>([&](int col, Column& c, int&) {
#pragma unroll
    for (int i = 0; i < kLimbs; ++i) {
      const int j = col - i;
      if (j <= i || j >= kLimbs) continue;
      accumulate<false>(c, twice.v[i], a.v[j]);
    }
    if (col % 2 == 0 && col / 2 < kLimbs) accumulate<false>(c, a.v[col / 2], a.v[col / 2]);
  });
}

// The drop-in form: 12 × 32-bit words in and out (canonical, < p), like mont32::mul_chain.
template <class Params, int IntPer8>
__device__ __forceinline__ mont32::Words<6> mul_words(const mont32::Words<6>& a, const mont32::Words<6>& b,
                                                      const mont32::Words<6>& p) {
  return mont32::reduce_once<6>(to_words(mul_lazy<Params, IntPer8>(to_limbs(a), to_limbs(b))), p);
}

// The square's drop-in form.
template <class Params>
__device__ __forceinline__ mont32::Words<6> sqr_words(const mont32::Words<6>& a, const mont32::Words<6>& p) {
  return mont32::reduce_once<6>(to_words(sqr_lazy<Params>(to_limbs(a))), p);
}

// The called form the field type uses for the 381-bit field (see kUseFp64), canonical in and out. Like
// mont32::mul it is not inlined: one called multiply keeps the MSM's hot loop small.
template <class Params>
__device__ __noinline__ BigInt<6> mul(BigInt<6> a, BigInt<6> b) {
  const auto p = mont32::modulus_words<Params, 6>();
  BigInt<6> r;
  mont32::join<6>(r.v, mul_words<Params, 0>(mont32::split<6>(a.v), mont32::split<6>(b.v), p));
  return r;
}

// The called square (see Field::sqr): ~17 % fewer FP64 operations than the multiply.
template <class Params>
__device__ __noinline__ BigInt<6> sqr(BigInt<6> a) {
  const auto p = mont32::modulus_words<Params, 6>();
  BigInt<6> r;
  mont32::join<6>(r.v, sqr_words<Params>(mont32::split<6>(a.v), p));
  return r;
}

#endif  // __CUDACC__

}  // namespace cuzk::ff::fp64
