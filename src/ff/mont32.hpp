// Device-side Montgomery multiplication on 32-bit limbs, over the same bytes as the host's 64-bit limbs
// (little-endian, R = 2^(64·N) = 2^(32·2N)), so field data moves between host and GPU unconverted.
//
// CIOS, "no-carry" form (the modulus' top 32-bit word is below 2^31 - 1 for all our fields). Each
// limb product is written as a 64-bit multiply-add (u32·u32 + u64), which nvcc emits as IMAD.WIDE.U32:
// on Hopper that pipe gives ~23.6 products/clk/SM against ~19.3 for separate mad.lo/mad.hi pairs.
// Not inlined: every curve formula makes ~10-30 calls, and inlining a fully unrolled 12-limb product at
// each of them multiplied ptxas time (20 minutes for the MSM kernels) and code size for little gain.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"

namespace cuzk::ff::mont32 {

template <std::size_t N64>
__device__ __forceinline__ void mul_inline(std::uint64_t* out, const std::uint64_t* a64, const std::uint64_t* b64,
                                 const std::uint64_t* p64, std::uint32_t pinv) {
  constexpr std::size_t n = 2 * N64;
  std::uint32_t a[n], b[n], p[n], t[n];
#pragma unroll
  for (std::size_t i = 0; i < N64; ++i) {
    a[2 * i] = static_cast<std::uint32_t>(a64[i]);
    a[2 * i + 1] = static_cast<std::uint32_t>(a64[i] >> 32);
    b[2 * i] = static_cast<std::uint32_t>(b64[i]);
    b[2 * i + 1] = static_cast<std::uint32_t>(b64[i] >> 32);
    p[2 * i] = static_cast<std::uint32_t>(p64[i]);
    p[2 * i + 1] = static_cast<std::uint32_t>(p64[i] >> 32);
  }
#pragma unroll
  for (std::size_t j = 0; j < n; ++j) t[j] = 0;
#pragma unroll
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t acc = static_cast<std::uint64_t>(a[0]) * b[i] + t[0];
    std::uint32_t a_carry = static_cast<std::uint32_t>(acc >> 32);
    const std::uint32_t t0 = static_cast<std::uint32_t>(acc);
    const std::uint32_t m = t0 * pinv;
    std::uint64_t red = static_cast<std::uint64_t>(m) * p[0] + t0;
    std::uint32_t c_carry = static_cast<std::uint32_t>(red >> 32);
#pragma unroll
    for (std::size_t j = 1; j < n; ++j) {
      acc = static_cast<std::uint64_t>(a[j]) * b[i] + t[j] + a_carry;
      a_carry = static_cast<std::uint32_t>(acc >> 32);
      red = static_cast<std::uint64_t>(m) * p[j] + static_cast<std::uint32_t>(acc) + c_carry;
      c_carry = static_cast<std::uint32_t>(red >> 32);
      t[j - 1] = static_cast<std::uint32_t>(red);
    }
    t[n - 1] = a_carry + c_carry;
  }
  // One conditional subtraction of p brings the result below p.
  std::uint32_t d[n];
  std::uint32_t borrow = 0;
#pragma unroll
  for (std::size_t j = 0; j < n; ++j) {
    std::uint64_t diff = static_cast<std::uint64_t>(t[j]) - p[j] - borrow;
    d[j] = static_cast<std::uint32_t>(diff);
    borrow = static_cast<std::uint32_t>(diff >> 63);
  }
  const bool keep = borrow != 0;  // t < p
#pragma unroll
  for (std::size_t i = 0; i < N64; ++i) {
    std::uint32_t lo = keep ? t[2 * i] : d[2 * i], hi = keep ? t[2 * i + 1] : d[2 * i + 1];
    out[i] = (static_cast<std::uint64_t>(hi) << 32) | lo;
  }
}

// The called form used by default (see above). Operands and result travel by value: taking them by
// pointer forced every field element into local memory (a 1-3 KB stack frame per MSM thread).
template <class Params, std::size_t N64>
__device__ __noinline__ BigInt<N64> mul(BigInt<N64> a, BigInt<N64> b) {
  constexpr BigInt<N64> p = Params::modulus();
  constexpr std::uint64_t pinv64 = [] {
    std::uint64_t p0 = Params::modulus().v[0], x = 1;
    for (int i = 0; i < 7; ++i) x *= 2 - p0 * x;
    return ~x + 1;
  }();
  BigInt<N64> r;
  mul_inline<N64>(r.v, a.v, b.v, p.v, static_cast<std::uint32_t>(pinv64));
  return r;
}

}  // namespace cuzk::ff::mont32
