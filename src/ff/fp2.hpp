// Quadratic extension Fp2 = Fp[u]/(u² + 1). Both BN254 and BLS12-381 use u² = -1 (p ≡ 3 mod 4).
#pragma once

#include "ff/field.hpp"

namespace cuzk::ff {

template <class Fp>
struct Fp2 {
  using Base = Fp;
  Fp c0, c1;  // c0 + c1·u

  CUZK_HD static constexpr Fp2 zero() { return {Fp::zero(), Fp::zero()}; }
  CUZK_HD static constexpr Fp2 one() { return {Fp::one(), Fp::zero()}; }
  CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  CUZK_HD constexpr bool operator==(const Fp2& o) const { return c0 == o.c0 && c1 == o.c1; }
  CUZK_HD constexpr bool operator!=(const Fp2& o) const { return !(*this == o); }

  CUZK_HD constexpr Fp2 operator+(const Fp2& b) const { return {c0 + b.c0, c1 + b.c1}; }
  CUZK_HD constexpr Fp2 operator-(const Fp2& b) const { return {c0 - b.c0, c1 - b.c1}; }
  CUZK_HD constexpr Fp2 operator-() const { return {-c0, -c1}; }
  CUZK_HD constexpr Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  // Karatsuba: 3 base multiplications, on the device's integer pipe (see Field::mul_integer_pipe).
  CUZK_HD constexpr Fp2 operator*(const Fp2& b) const {
    Fp v0 = c0.mul_integer_pipe(b.c0), v1 = c1.mul_integer_pipe(b.c1);
    return {v0 - v1, (c0 + c1).mul_integer_pipe(b.c0 + b.c1) - v0 - v1};
  }
  CUZK_HD constexpr Fp2 operator*(const Fp& b) const {
    return {c0.mul_integer_pipe(b), c1.mul_integer_pipe(b)};
  }
  // (a + bu)² = (a + b)(a - b) + 2ab·u
  CUZK_HD constexpr Fp2 sqr() const {
    return {(c0 + c1).mul_integer_pipe(c0 - c1), c0.mul_integer_pipe(c1).dbl()};
  }
  CUZK_HD constexpr Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  CUZK_HD constexpr Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  CUZK_HD constexpr Fp2& operator*=(const Fp2& b) { return *this = *this * b; }

  CUZK_HD constexpr Fp2 conjugate() const { return {c0, -c1}; }
  // The p-power Frobenius is conjugation because u^p = -u when p ≡ 3 mod 4.
  CUZK_HD constexpr Fp2 frobenius() const { return conjugate(); }
  CUZK_HD constexpr Fp norm() const { return c0.sqr() + c1.sqr(); }
  CUZK_HD constexpr Fp2 inverse() const {
    Fp t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }

  template <std::size_t M>
  CUZK_HD constexpr Fp2 pow(const BigInt<M>& e) const {
    Fp2 r = one();
    for (std::size_t i = e.num_bits(); i-- > 0;) {
      r = r.sqr();
      if (e.bit(i)) r *= *this;
    }
    return r;
  }

  // Square root via the norm: if a = x², then N(a) = N(x)² and x0² = (a0 ± √N(a))/2.
  bool sqrt(Fp2& out) const {
    if (c1.is_zero()) {
      Fp r;
      if (c0.sqrt(r)) {
        out = {r, Fp::zero()};
        return true;
      }
      // c0 is a non-square in Fp; then -c0 is a square (p ≡ 3 mod 4) and √c0 = √(-c0)·u.
      if ((-c0).sqrt(r)) {
        out = {Fp::zero(), r};
        return true;
      }
      return false;
    }
    Fp alpha;
    if (!norm().sqrt(alpha)) return false;
    const Fp half = Fp::from_u64(2).inverse();
    Fp delta = (c0 + alpha) * half, x0;
    if (!delta.sqrt(x0)) {
      delta = (c0 - alpha) * half;
      if (!delta.sqrt(x0)) return false;
    }
    Fp x1 = c1 * (x0.dbl()).inverse();
    Fp2 cand{x0, x1};
    if (cand.sqr() != *this) return false;
    out = cand;
    return true;
  }
};

}  // namespace cuzk::ff
