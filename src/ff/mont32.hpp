// Device-side prime-field arithmetic on 32-bit limbs, over the same bytes as the host's 64-bit limbs
// (little-endian, R = 2^(64·N) = 2^(32·2N)), so field data moves between host and GPU unconverted.
//
// Montgomery multiplication is CIOS in its "no-carry" form (the modulus' top 32-bit word is below
// 2^31 - 1 for all our fields, so the running sum never needs an extra word). Two variants:
//  - `mul_wide`: each limb product is a 64-bit multiply-add (u32·u32 + u64), which nvcc emits as
//    IMAD.WIDE.U32 — one instruction for the whole product; carries are ordinary 64-bit adds.
//  - `mul_chain`: lo and hi halves of the products in PTX carry chains (mad.lo.cc / madc.hi.cc), the
//    classic GPU form; it issues a half-rate IMAD.HI per product on Hopper.
// `cuzk-bench kernels … field` measures both; the field types use the faster (kUseChain below), except
// that on GPUs with a full-rate FP64 pipe the 381-bit field's product runs there (mont_fp64.hpp).
// Not inlined there: every curve formula makes ~10-30 calls, and inlining a fully unrolled 12-limb
// product at each of them multiplied ptxas time (20 minutes for the MSM kernels) and code size.
// Code size also costs speed: a build that inlined the ten products of the mixed addition into one
// called function made the G1 bucket accumulation 1.6x slower (BLS12-381 2^24: 165 → 269 ms on an
// H200), most likely because the hot loop outgrew the instruction cache; a second called function (a
// dedicated square, 14% faster on its own) cost 12%. One called multiply keeps the loop small.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"
#include "ff/ptx.hpp"

namespace cuzk::ff::mont32 {

using u32 = std::uint32_t;

template <std::size_t N64>
struct Words {
  u32 w[2 * N64];
};

template <std::size_t N64>
__device__ __forceinline__ Words<N64> split(const std::uint64_t* x) {
  Words<N64> r;
#pragma unroll
  for (std::size_t i = 0; i < N64; ++i) {
    r.w[2 * i] = static_cast<u32>(x[i]);
    r.w[2 * i + 1] = static_cast<u32>(x[i] >> 32);
  }
  return r;
}

template <std::size_t N64>
__device__ __forceinline__ void join(std::uint64_t* out, const Words<N64>& x) {
#pragma unroll
  for (std::size_t i = 0; i < N64; ++i)
    out[i] = (static_cast<std::uint64_t>(x.w[2 * i + 1]) << 32) | x.w[2 * i];
}

// -p⁻¹ mod 2^32.
template <class Params>
__host__ __device__ constexpr u32 neg_inverse32() {
  std::uint64_t p0 = Params::modulus().v[0], x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - p0 * x;
  return static_cast<u32>(~x + 1);
}

// t < 2p → t mod p (t - p when that does not borrow).
template <std::size_t N64>
__device__ __forceinline__ Words<N64> reduce_once(const Words<N64>& t, const Words<N64>& p) {
  constexpr std::size_t n = 2 * N64;
  Words<N64> d;
  d.w[0] = ptx::sub_cc(t.w[0], p.w[0]);
#pragma unroll
  for (std::size_t j = 1; j < n; ++j) d.w[j] = ptx::subc_cc(t.w[j], p.w[j]);
  const u32 borrow = ptx::subc(0, 0);  // 0xffffffff when t < p
  Words<N64> r;
#pragma unroll
  for (std::size_t j = 0; j < n; ++j) r.w[j] = borrow ? t.w[j] : d.w[j];
  return r;
}

template <std::size_t N64>
__device__ __forceinline__ Words<N64> mul_wide(const Words<N64>& a, const Words<N64>& b, const Words<N64>& p,
                                               u32 pinv) {
  constexpr std::size_t n = 2 * N64;
  u32 t[n];
#pragma unroll
  for (std::size_t j = 0; j < n; ++j) t[j] = 0;
#pragma unroll
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t acc = static_cast<std::uint64_t>(a.w[0]) * b.w[i] + t[0];
    u32 a_carry = static_cast<u32>(acc >> 32);
    const u32 t0 = static_cast<u32>(acc);
    const u32 m = t0 * pinv;
    std::uint64_t red = static_cast<std::uint64_t>(m) * p.w[0] + t0;
    u32 c_carry = static_cast<u32>(red >> 32);
#pragma unroll
    for (std::size_t j = 1; j < n; ++j) {
      acc = static_cast<std::uint64_t>(a.w[j]) * b.w[i] + t[j] + a_carry;
      a_carry = static_cast<u32>(acc >> 32);
      red = static_cast<std::uint64_t>(m) * p.w[j] + static_cast<u32>(acc) + c_carry;
      c_carry = static_cast<u32>(red >> 32);
      t[j - 1] = static_cast<u32>(red);
    }
    t[n - 1] = a_carry + c_carry;
  }
  Words<N64> r;
#pragma unroll
  for (std::size_t j = 0; j < n; ++j) r.w[j] = t[j];
  return reduce_once(r, p);
}

// CIOS with the running sum in n + 1 words; per row four carry chains: lo(a·b_i), hi(a·b_i), lo(m·p),
// hi(m·p). The sum stays below 2^(32(n+1)) (spare top bit of p), so the top word never carries out.
//
// `mul_chain_lazy` leaves the result below 2p, without the final subtraction: for a, b < 2p (4p < R, as
// for every field here) the product a·b·R⁻¹ + (the reduction's m·p)·R⁻¹ stays below a·b/R + p < 2p, and the
// running sum below 3p + p·2^-32 < 2^(32n), so lazy results can be multiplied again (msm/gpu_lazy_add.cuh).
template <std::size_t N64>
__device__ __forceinline__ Words<N64> mul_chain_lazy(const Words<N64>& a, const Words<N64>& b,
                                                     const Words<N64>& p, u32 pinv) {
  constexpr std::size_t n = 2 * N64;
  u32 t[n + 1];
#pragma unroll
  for (std::size_t j = 0; j <= n; ++j) t[j] = 0;
#pragma unroll
  for (std::size_t i = 0; i < n; ++i) {
    const u32 bi = b.w[i];
    t[0] = ptx::mad_lo_cc(a.w[0], bi, t[0]);
#pragma unroll
    for (std::size_t j = 1; j < n; ++j) t[j] = ptx::madc_lo_cc(a.w[j], bi, t[j]);
    t[n] = ptx::addc(t[n], 0);
    t[1] = ptx::mad_hi_cc(a.w[0], bi, t[1]);
#pragma unroll
    for (std::size_t j = 1; j + 1 < n; ++j) t[j + 1] = ptx::madc_hi_cc(a.w[j], bi, t[j + 1]);
    t[n] = ptx::madc_hi(a.w[n - 1], bi, t[n]);

    const u32 m = t[0] * pinv;
    t[0] = ptx::mad_lo_cc(m, p.w[0], t[0]);
#pragma unroll
    for (std::size_t j = 1; j < n; ++j) t[j] = ptx::madc_lo_cc(m, p.w[j], t[j]);
    t[n] = ptx::addc(t[n], 0);
    t[1] = ptx::mad_hi_cc(m, p.w[0], t[1]);
#pragma unroll
    for (std::size_t j = 1; j + 1 < n; ++j) t[j + 1] = ptx::madc_hi_cc(m, p.w[j], t[j + 1]);
    t[n] = ptx::madc_hi(m, p.w[n - 1], t[n]);
#pragma unroll
    for (std::size_t j = 0; j < n; ++j) t[j] = t[j + 1];
    t[n] = 0;
  }
  Words<N64> r;
#pragma unroll
  for (std::size_t j = 0; j < n; ++j) r.w[j] = t[j];
  return r;
}

template <std::size_t N64>
__device__ __forceinline__ Words<N64> mul_chain(const Words<N64>& a, const Words<N64>& b, const Words<N64>& p,
                                                u32 pinv) {
  return reduce_once(mul_chain_lazy(a, b, p, pinv), p);
}

// CIOS with whole 64-bit products (mad.wide) and the carries in explicit add.cc/addc pairs, so every
// product costs one IMAD.WIDE on the multiply pipe and the carry work runs on the ALU pipe.
template <std::size_t N64>
__device__ __forceinline__ Words<N64> mul_wide_cc(const Words<N64>& a, const Words<N64>& b,
                                                  const Words<N64>& p, u32 pinv) {
  constexpr std::size_t n = 2 * N64;
  u32 t[n + 1];
#pragma unroll
  for (std::size_t j = 0; j <= n; ++j) t[j] = 0;
#pragma unroll
  for (std::size_t i = 0; i < n; ++i) {
    const u32 bi = b.w[i];
    std::uint64_t x = ptx::mad_wide(a.w[0], bi, t[0]);
    t[0] = ptx::lo(x);
    u32 c = ptx::hi(x);
#pragma unroll
    for (std::size_t j = 1; j < n; ++j) {
      x = ptx::mad_wide(a.w[j], bi, t[j]);
      t[j] = ptx::add_cc(ptx::lo(x), c);
      c = ptx::addc(ptx::hi(x), 0);
    }
    t[n] += c;  // the sum stays below 2^(32(n+1)): no carry out
    const u32 m = t[0] * pinv;
    x = ptx::mad_wide(m, p.w[0], t[0]);  // low word becomes 0
    c = ptx::hi(x);
#pragma unroll
    for (std::size_t j = 1; j < n; ++j) {
      x = ptx::mad_wide(m, p.w[j], t[j]);
      t[j - 1] = ptx::add_cc(ptx::lo(x), c);
      c = ptx::addc(ptx::hi(x), 0);
    }
    t[n - 1] = t[n] + c;
    t[n] = 0;
  }
  Words<N64> r;
#pragma unroll
  for (std::size_t j = 0; j < n; ++j) r.w[j] = t[j];
  return reduce_once(r, p);
}

// Squaring, separated: the full 2n-word square (each cross product once, doubled, plus the diagonal:
// n(n+1)/2 products instead of n²), then n Montgomery reduction rows. a² < p·R keeps the sum below
// 2^(64n) throughout, so 2n words suffice.
template <std::size_t N64>
__device__ __forceinline__ Words<N64> sqr_wide_cc(const Words<N64>& a, const Words<N64>& p, u32 pinv) {
  constexpr std::size_t n = 2 * N64;
  u32 t[2 * n];
#pragma unroll
  for (std::size_t k = 0; k < 2 * n; ++k) t[k] = 0;
    // Cross products a_i·a_j, i < j.
#pragma unroll
  for (std::size_t i = 0; i + 1 < n; ++i) {
    u32 c = 0;
#pragma unroll
    for (std::size_t j = i + 1; j < n; ++j) {
      const std::uint64_t x = ptx::mad_wide(a.w[i], a.w[j], t[i + j]);
      t[i + j] = ptx::add_cc(ptx::lo(x), c);
      c = ptx::addc(ptx::hi(x), 0);
    }
    t[i + n] = c;
  }
  // Double them, then add the diagonal a_i².
  t[2 * n - 1] = t[2 * n - 2] >> 31;
#pragma unroll
  for (std::size_t k = 2 * n - 2; k > 1; --k) t[k] = (t[k] << 1) | (t[k - 1] >> 31);
  t[1] = t[1] << 1;
  {
    std::uint64_t x = ptx::mul_wide(a.w[0], a.w[0]);
    t[0] = ptx::add_cc(t[0], ptx::lo(x));
    t[1] = ptx::addc_cc(t[1], ptx::hi(x));
#pragma unroll
    for (std::size_t i = 1; i < n; ++i) {
      x = ptx::mul_wide(a.w[i], a.w[i]);
      t[2 * i] = ptx::addc_cc(t[2 * i], ptx::lo(x));
      t[2 * i + 1] = ptx::addc_cc(t[2 * i + 1], ptx::hi(x));  // the last carry out is 0
    }
  }
  // Reduction rows: t += m·p·2^(32i) clears word i.
#pragma unroll
  for (std::size_t i = 0; i < n; ++i) {
    const u32 m = t[i] * pinv;
    std::uint64_t x = ptx::mad_wide(m, p.w[0], t[i]);
    u32 c = ptx::hi(x);
#pragma unroll
    for (std::size_t j = 1; j < n; ++j) {
      x = ptx::mad_wide(m, p.w[j], t[i + j]);
      t[i + j] = ptx::add_cc(ptx::lo(x), c);
      c = ptx::addc(ptx::hi(x), 0);
    }
    t[i + n] = ptx::add_cc(t[i + n], c);
#pragma unroll
    for (std::size_t k = i + n + 1; k < 2 * n; ++k) t[k] = ptx::addc_cc(t[k], 0);
  }
  Words<N64> r;
#pragma unroll
  for (std::size_t j = 0; j < n; ++j) r.w[j] = t[n + j];
  return reduce_once(r, p);
}

// Squaring in lo/hi carry chains (the form that wins for 12 limbs): the 2n-word square with each
// cross product once, doubled, plus the diagonal (n(n+1)/2 products instead of n²), then n Montgomery
// reduction rows. a² < p·R keeps every partial sum below 2^(64n), so 2n words suffice.
template <std::size_t N64>
__device__ __forceinline__ Words<N64> sqr_chain(const Words<N64>& a, const Words<N64>& p, u32 pinv) {
  constexpr std::size_t n = 2 * N64;
  u32 t[2 * n];
#pragma unroll
  for (std::size_t k = 0; k < 2 * n; ++k) t[k] = 0;
    // Cross products: row i adds a_i·a_j (j > i) at word i + j; lo halves in one chain, hi in another.
#pragma unroll
  for (std::size_t i = 0; i + 1 < n; ++i) {
    t[2 * i + 1] = ptx::mad_lo_cc(a.w[i], a.w[i + 1], t[2 * i + 1]);
#pragma unroll
    for (std::size_t j = i + 2; j < n; ++j) t[i + j] = ptx::madc_lo_cc(a.w[i], a.w[j], t[i + j]);
    t[i + n] = ptx::addc(t[i + n], 0);
    t[2 * i + 2] = ptx::mad_hi_cc(a.w[i], a.w[i + 1], t[2 * i + 2]);
#pragma unroll
    for (std::size_t j = i + 2; j < n; ++j) t[i + j + 1] = ptx::madc_hi_cc(a.w[i], a.w[j], t[i + j + 1]);
    t[i + n + 1] = ptx::addc(t[i + n + 1], 0);
  }
  // Double, then add the diagonal a_i² (lo at word 2i, hi at 2i + 1) in one chain.
#pragma unroll
  for (std::size_t k = 2 * n - 1; k > 1; --k) t[k] = (t[k] << 1) | (t[k - 1] >> 31);
  t[1] = t[1] << 1;
  t[0] = ptx::mad_lo_cc(a.w[0], a.w[0], t[0]);
  t[1] = ptx::madc_hi_cc(a.w[0], a.w[0], t[1]);
#pragma unroll
  for (std::size_t i = 1; i < n; ++i) {
    t[2 * i] = ptx::madc_lo_cc(a.w[i], a.w[i], t[2 * i]);
    t[2 * i + 1] = ptx::madc_hi_cc(a.w[i], a.w[i], t[2 * i + 1]);
  }
  // Reduction rows: t += m·p·2^(32i) clears word i; the row's carry ripples to the top word.
#pragma unroll
  for (std::size_t i = 0; i < n; ++i) {
    const u32 m = t[i] * pinv;
    t[i] = ptx::mad_lo_cc(m, p.w[0], t[i]);
#pragma unroll
    for (std::size_t j = 1; j < n; ++j) t[i + j] = ptx::madc_lo_cc(m, p.w[j], t[i + j]);
#pragma unroll
    for (std::size_t k = i + n; k < 2 * n; ++k) t[k] = ptx::addc_cc(t[k], 0);
    t[i + 1] = ptx::mad_hi_cc(m, p.w[0], t[i + 1]);
#pragma unroll
    for (std::size_t j = 1; j < n; ++j) t[i + j + 1] = ptx::madc_hi_cc(m, p.w[j], t[i + j + 1]);
#pragma unroll
    for (std::size_t k = i + n + 1; k < 2 * n; ++k) t[k] = ptx::addc_cc(t[k], 0);
  }
  Words<N64> r;
#pragma unroll
  for (std::size_t j = 0; j < n; ++j) r.w[j] = t[n + j];
  return reduce_once(r, p);
}

// (a + b) mod p for reduced a, b (a + b < 2p < 2^(32n): no carry word).
template <std::size_t N64>
__device__ __forceinline__ Words<N64> add(const Words<N64>& a, const Words<N64>& b, const Words<N64>& p) {
  constexpr std::size_t n = 2 * N64;
  Words<N64> s;
  s.w[0] = ptx::add_cc(a.w[0], b.w[0]);
#pragma unroll
  for (std::size_t j = 1; j < n; ++j) s.w[j] = ptx::addc_cc(a.w[j], b.w[j]);
  return reduce_once(s, p);
}

// (a - b) mod p for reduced a, b: subtract, then add p back under the borrow mask.
template <std::size_t N64>
__device__ __forceinline__ Words<N64> sub(const Words<N64>& a, const Words<N64>& b, const Words<N64>& p) {
  constexpr std::size_t n = 2 * N64;
  Words<N64> d;
  d.w[0] = ptx::sub_cc(a.w[0], b.w[0]);
#pragma unroll
  for (std::size_t j = 1; j < n; ++j) d.w[j] = ptx::subc_cc(a.w[j], b.w[j]);
  const u32 mask = ptx::subc(0, 0);  // 0xffffffff on borrow
  d.w[0] = ptx::add_cc(d.w[0], p.w[0] & mask);
#pragma unroll
  for (std::size_t j = 1; j + 1 < n; ++j) d.w[j] = ptx::addc_cc(d.w[j], p.w[j] & mask);
  d.w[n - 1] = ptx::addc(d.w[n - 1], p.w[n - 1] & mask);
  return d;
}

template <class Params, std::size_t N64>
__device__ __forceinline__ Words<N64> modulus_words() {
  constexpr BigInt<N64> p = Params::modulus();
  return split<N64>(p.v);
}

// Which variant the field types use. Measured on an H200 (`cuzk-bench kernels 0 1 field`, G mul/s):
// 381-bit chain 17.6 vs wide 16.8; 255-bit chain 38.0 vs wide 39.5 (BLS12-381 Fr), 38.8 vs 38.3 (BN254
// Fp). The chain form wins for 12 limbs; for 8 limbs they are within noise and wide compiles smaller.
template <std::size_t N64>
inline constexpr bool kUseChain = N64 >= 6;

template <class Params, std::size_t N64>
__device__ __forceinline__ void mul_into(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  constexpr u32 pinv = neg_inverse32<Params>();
  const Words<N64> p = modulus_words<Params, N64>();
  if constexpr (kUseChain<N64>)
    join<N64>(out, mul_chain<N64>(split<N64>(a), split<N64>(b), p, pinv));
  else
    join<N64>(out, mul_wide<N64>(split<N64>(a), split<N64>(b), p, pinv));
}

// The called form used by default (see above). Operands and result travel by value: taking them by
// pointer forced every field element into local memory (a 1-3 KB stack frame per MSM thread).
template <class Params, std::size_t N64>
__device__ __noinline__ BigInt<N64> mul(BigInt<N64> a, BigInt<N64> b) {
  BigInt<N64> r;
  mul_into<Params, N64>(r.v, a.v, b.v);
  return r;
}

template <class Params, std::size_t N64>
__device__ __forceinline__ BigInt<N64> add_int(const BigInt<N64>& a, const BigInt<N64>& b) {
  BigInt<N64> r;
  join<N64>(r.v, add<N64>(split<N64>(a.v), split<N64>(b.v), modulus_words<Params, N64>()));
  return r;
}

template <class Params, std::size_t N64>
__device__ __forceinline__ BigInt<N64> sub_int(const BigInt<N64>& a, const BigInt<N64>& b) {
  BigInt<N64> r;
  join<N64>(r.v, sub<N64>(split<N64>(a.v), split<N64>(b.v), modulus_words<Params, N64>()));
  return r;
}

}  // namespace cuzk::ff::mont32
