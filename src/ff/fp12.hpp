// Quadratic extension Fp12 = Fp6[w]/(w² - v), the target group of the pairings.
#pragma once

#include "ff/fp6.hpp"

namespace cuzk::ff {

template <class Cfg>
struct Fp12 {
  using F6 = Fp6<Cfg>;
  F6 c0, c1;  // c0 + c1·w

  CUZK_HD static constexpr Fp12 zero() { return {F6::zero(), F6::zero()}; }
  CUZK_HD static constexpr Fp12 one() { return {F6::one(), F6::zero()}; }
  CUZK_HD constexpr bool is_one() const { return c0 == F6::one() && c1.is_zero(); }
  CUZK_HD constexpr bool operator==(const Fp12& o) const { return c0 == o.c0 && c1 == o.c1; }
  CUZK_HD constexpr bool operator!=(const Fp12& o) const { return !(*this == o); }

  CUZK_HD constexpr Fp12 operator+(const Fp12& b) const { return {c0 + b.c0, c1 + b.c1}; }
  CUZK_HD constexpr Fp12 operator-(const Fp12& b) const { return {c0 - b.c0, c1 - b.c1}; }
  CUZK_HD constexpr Fp12 operator*(const Fp12& b) const {
    F6 v0 = c0 * b.c0, v1 = c1 * b.c1;
    return {v0 + v1.mul_by_v(), (c0 + c1) * (b.c0 + b.c1) - v0 - v1};
  }
  CUZK_HD constexpr Fp12& operator*=(const Fp12& b) { return *this = *this * b; }
  CUZK_HD constexpr Fp12 sqr() const {
    // (a + bw)² = a² + v·b² + 2ab·w, with a² + v b² = (a + b)(a + v b) - ab - v ab.
    F6 ab = c0 * c1;
    F6 t = (c0 + c1) * (c0 + c1.mul_by_v()) - ab - ab.mul_by_v();
    return {t, ab + ab};
  }
  // w → -w: the p⁶-power Frobenius; equals the inverse on the cyclotomic subgroup.
  CUZK_HD constexpr Fp12 conjugate() const { return {c0, -c1}; }
  CUZK_HD constexpr Fp12 inverse() const {
    F6 t = (c0.sqr() - c1.sqr().mul_by_v()).inverse();
    return {c0 * t, -(c1 * t)};
  }
  template <std::size_t M>
  CUZK_HD constexpr Fp12 pow(const BigInt<M>& e) const {
    Fp12 r = one();
    for (std::size_t i = e.num_bits(); i-- > 0;) {
      r = r.sqr();
      if (e.bit(i)) r *= *this;
    }
    return r;
  }
};

}  // namespace cuzk::ff
