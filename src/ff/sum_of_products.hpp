// Σ a_i·b_i over a few terms with one Montgomery reduction instead of one per product.
//
// Why: a Poseidon linear layer is a matrix times the state (81 products for width 9, 144 for width 12),
// and a Filecoin WindowPoSt or SnapDeals synthesis spends about half its time there. A Montgomery product
// is a 4×4-limb multiply (16 word products) interleaved with a reduction (16 more) and a conditional
// subtraction; summing n of them reduces n times and adds modulo p n times. Here each a_i·b_i is formed as
// a plain 512-bit product, the products are added as integers into a 9-word accumulator, and the sum is
// reduced once: REDC(T) = T·R⁻¹ mod p, the same value as Σ (a_i·b_i·R⁻¹) mod p, so the result is the
// Montgomery form of Σ a_i·b_i exactly as the one-product-at-a-time sum gives it.
//
// Bounds (4-limb fields whose modulus leaves the top bit spare, p < 2^255 = R/2): each a_i·b_i < p², so
// T < n·p² < 2^514 for n ≤ 16 (9 words hold it; longer sums are reduced sixteen terms at a time). REDC adds
// m·p with m < R over four rounds and divides by R: the result is below T/R + p < n·p/2 + p ≤ 9p for n ≤ 16,
// and 9p < 2^259 fits the five top words. Compare-and-subtract steps with 8p (only past 14 terms: below 8p
// before), 4p, 2p and p bring it to [0, p).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"
#include "ff/x86_mont.hpp"

// The wide multiply-add asm (x86::mul_wide_add_4) holds fourteen registers. An AddressSanitizer build keeps
// the frame pointer and cannot give it that many ("impossible constraints"), so it takes the portable rows.
#if defined(__SANITIZE_ADDRESS__)
#define CUZK_SOP_ASM 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUZK_SOP_ASM 0
#endif
#endif
#ifndef CUZK_SOP_ASM
#define CUZK_SOP_ASM CUZK_FF_X86_ASM
#endif

namespace cuzk::ff {

namespace sop_detail {

inline constexpr std::size_t kMaxTerms = 16;

// acc[0..8] += x·y (x, y four words each; the 9-word accumulator never overflows within kMaxTerms).
inline void add_product(u64 (&acc)[9], const u64* x, const u64* y) {
  u64 prod[8];
  // Schoolbook 4×4 by rows: each row's carry is parked in the row's top word, and the row is added into
  // the running product with the carry chain GCC forms from u128 additions.
  u128 t = static_cast<u128>(x[0]) * y[0];
  prod[0] = static_cast<u64>(t);
  u64 c = static_cast<u64>(t >> 64);
  for (int j = 1; j < 4; ++j) {
    t = static_cast<u128>(x[j]) * y[0] + c;
    prod[j] = static_cast<u64>(t);
    c = static_cast<u64>(t >> 64);
  }
  prod[4] = c;
  for (int i = 1; i < 4; ++i) {
    c = 0;
    for (int j = 0; j < 4; ++j) {
      t = static_cast<u128>(x[j]) * y[i] + prod[i + j] + c;
      prod[i + j] = static_cast<u64>(t);
      c = static_cast<u64>(t >> 64);
    }
    prod[i + 4] = c;
  }
  u128 s = 0;
  for (int k = 0; k < 8; ++k) {
    s += static_cast<u128>(acc[k]) + prod[k];
    acc[k] = static_cast<u64>(s);
    s >>= 64;
  }
  acc[8] += static_cast<u64>(s);
}

// p·2^shift on five words (shift ≤ 3).
constexpr std::array<u64, 5> shifted_modulus(const BigInt<4>& p, unsigned shift) {
  std::array<u64, 5> m{};
  for (int k = 0; k < 4; ++k) m[k] = p.v[k] << shift | (shift && k ? p.v[k - 1] >> (64 - shift) : 0);
  m[4] = shift ? p.v[3] >> (64 - shift) : 0;
  return m;
}

// r = r − m when r ≥ m, on five words, without a data-dependent branch.
__attribute__((always_inline)) inline void subtract_if_not_below(u64 (&r)[5], const std::array<u64, 5>& m) {
  u64 d[5];
  u64 borrow = 0;
  for (int k = 0; k < 5; ++k) {
    const u128 diff = static_cast<u128>(r[k]) - m[k] - borrow;
    d[k] = static_cast<u64>(diff);
    borrow = static_cast<u64>(diff >> 64) & 1;
  }
  const u64 keep = 0 - borrow;  // all ones: r < m, keep r
  for (int k = 0; k < 5; ++k) r[k] = (r[k] & keep) | (d[k] & ~keep);
}

}  // namespace sop_detail

// Σ_{i<n} a(i)·b(i) in Montgomery form, for a 4-limb field with a spare top bit. `a` and `b` map an index
// to a `const F&`. Terms are reduced sixteen at a time (the accumulator's bound), and the partial sums added.
template <class F, class A, class B>
F sum_of_products(std::size_t n, A&& a, B&& b) {
  static_assert(F::N == 4, "sum_of_products: 4-limb fields only");
  static_assert(F::modulus().v[3] < (u64(1) << 63), "sum_of_products: needs p < 2^255");
  constexpr auto p = F::modulus();
  constexpr u64 pinv = F::inv();
  F total = F::zero();
  for (std::size_t first = 0; first < n; first += sop_detail::kMaxTerms) {
    const std::size_t last = std::min(n, first + sop_detail::kMaxTerms);
    u64 acc[9] = {};
    for (std::size_t i = first; i < last; ++i) {
#if CUZK_SOP_ASM
      x86::mul_wide_add_4(acc, a(i).l, b(i).l);
#else
      sop_detail::add_product(acc, a(i).l, b(i).l);
#endif
    }
    // REDC: four rounds of acc += m·p·2^(64i) with m = acc[i]·(−p⁻¹), each zeroing word i.
    for (int i = 0; i < 4; ++i) {
      const u64 m = acc[i] * pinv;
      u128 t = static_cast<u128>(m) * p.v[0] + acc[i];
      u64 c = static_cast<u64>(t >> 64);
      for (int j = 1; j < 4; ++j) {
        t = static_cast<u128>(m) * p.v[j] + acc[i + j] + c;
        acc[i + j] = static_cast<u64>(t);
        c = static_cast<u64>(t >> 64);
      }
      for (int k = i + 4; k < 9 && c; ++k) {
        t = static_cast<u128>(acc[k]) + c;
        acc[k] = static_cast<u64>(t);
        c = static_cast<u64>(t >> 64);
      }
    }
    u64 r[5] = {acc[4], acc[5], acc[6], acc[7], acc[8]};
    static constexpr auto k8p = sop_detail::shifted_modulus(p, 3), k4p = sop_detail::shifted_modulus(p, 2),
                          k2p = sop_detail::shifted_modulus(p, 1), k1p = sop_detail::shifted_modulus(p, 0);
    if (last - first > 14) sop_detail::subtract_if_not_below(r, k8p);  // below 8p already for ≤ 14 terms
    sop_detail::subtract_if_not_below(r, k4p);
    sop_detail::subtract_if_not_below(r, k2p);
    sop_detail::subtract_if_not_below(r, k1p);
    F part;
    for (int k = 0; k < 4; ++k) part.l[k] = r[k];
    total += part;
  }
  return total;
}

}  // namespace cuzk::ff
