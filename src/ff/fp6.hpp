// Cubic extension Fp6 = Fp2[v]/(v³ - ξ). Cfg supplies the Fp2 type and multiplication by ξ.
#pragma once

#include "ff/fp2.hpp"

namespace cuzk::ff {

template <class Cfg>
struct Fp6 {
  using F2 = typename Cfg::Fp2;
  F2 c0, c1, c2;  // c0 + c1·v + c2·v²

  CUZK_HD static constexpr Fp6 zero() { return {F2::zero(), F2::zero(), F2::zero()}; }
  CUZK_HD static constexpr Fp6 one() { return {F2::one(), F2::zero(), F2::zero()}; }
  CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  CUZK_HD constexpr bool operator==(const Fp6& o) const {
    return c0 == o.c0 && c1 == o.c1 && c2 == o.c2;
  }

  CUZK_HD constexpr Fp6 operator+(const Fp6& b) const { return {c0 + b.c0, c1 + b.c1, c2 + b.c2}; }
  CUZK_HD constexpr Fp6 operator-(const Fp6& b) const { return {c0 - b.c0, c1 - b.c1, c2 - b.c2}; }
  CUZK_HD constexpr Fp6 operator-() const { return {-c0, -c1, -c2}; }
  CUZK_HD constexpr Fp6 operator*(const Fp6& b) const {
    F2 v0 = c0 * b.c0, v1 = c1 * b.c1, v2 = c2 * b.c2;
    return {v0 + Cfg::mul_by_xi((c1 + c2) * (b.c1 + b.c2) - v1 - v2),
            (c0 + c1) * (b.c0 + b.c1) - v0 - v1 + Cfg::mul_by_xi(v2),
            (c0 + c2) * (b.c0 + b.c2) - v0 - v2 + v1};
  }
  CUZK_HD constexpr Fp6 operator*(const F2& b) const { return {c0 * b, c1 * b, c2 * b}; }
  CUZK_HD constexpr Fp6 sqr() const { return *this * *this; }
  // Multiplication by v: (c0, c1, c2)·v = (ξ·c2, c0, c1).
  CUZK_HD constexpr Fp6 mul_by_v() const { return {Cfg::mul_by_xi(c2), c0, c1}; }
  CUZK_HD constexpr Fp6 inverse() const {
    F2 a = c0.sqr() - Cfg::mul_by_xi(c1 * c2);
    F2 b = Cfg::mul_by_xi(c2.sqr()) - c0 * c1;
    F2 c = c1.sqr() - c0 * c2;
    F2 f = (c0 * a + Cfg::mul_by_xi(c2 * b + c1 * c)).inverse();
    return {a * f, b * f, c * f};
  }
};

}  // namespace cuzk::ff
