// Points of a short Weierstrass curve y² = x³ + b (a = 0) over a field F, in three forms:
//   Affine   (x, y); the point at infinity is (0, 0), which is never on the curve since b ≠ 0 — the
//            same convention as snarkjs files, so affine arrays load without conversion;
//   Jacobian (X, Y, Z) ↦ (X/Z², Y/Z³); infinity has Z = 0;
//   XYZZ     (X, Y, ZZ, ZZZ) ↦ (X/ZZ, Y/ZZZ) with ZZ³ = ZZZ²; infinity has ZZ = 0. Cheapest for
//            accumulating affine points (mixed add 8M + 2S), hence the MSM bucket form.
// Curve config C supplies: using F; static constexpr F b(); static constexpr Affine generator().
#pragma once

#include "ff/field.hpp"

namespace cuzk::ec {

using ff::BigInt;

template <class C>
struct Affine {
  using F = typename C::F;
  F x, y;

  CUZK_HD static constexpr Affine infinity() { return {F::zero(), F::zero()}; }
  CUZK_HD constexpr bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  CUZK_HD constexpr bool on_curve() const { return is_infinity() || y.sqr() == x.sqr() * x + C::b(); }
  CUZK_HD constexpr Affine operator-() const { return is_infinity() ? *this : Affine{x, -y}; }
  CUZK_HD constexpr bool operator==(const Affine& o) const { return x == o.x && y == o.y; }
  CUZK_HD constexpr bool operator!=(const Affine& o) const { return !(*this == o); }
};

template <class C>
struct Jacobian {
  using F = typename C::F;
  using A = Affine<C>;
  F X, Y, Z;

  CUZK_HD static constexpr Jacobian infinity() { return {F::one(), F::one(), F::zero()}; }
  CUZK_HD static constexpr Jacobian from_affine(const A& p) {
    return p.is_infinity() ? infinity() : Jacobian{p.x, p.y, F::one()};
  }
  CUZK_HD constexpr bool is_infinity() const { return Z.is_zero(); }
  CUZK_HD constexpr Jacobian operator-() const { return {X, -Y, Z}; }

  A to_affine() const {
    if (is_infinity()) return A::infinity();
    F zi = Z.inverse(), zi2 = zi.sqr();
    return {X * zi2, Y * zi2 * zi};
  }
  // Equality of the represented points (cross-multiplied, no inversion).
  CUZK_HD constexpr bool operator==(const Jacobian& o) const {
    if (is_infinity() || o.is_infinity()) return is_infinity() && o.is_infinity();
    F z1 = Z.sqr(), z2 = o.Z.sqr();
    return X * z2 == o.X * z1 && Y * z2 * o.Z == o.Y * z1 * Z;
  }
  CUZK_HD constexpr bool operator!=(const Jacobian& o) const { return !(*this == o); }

  // dbl-2009-l
  CUZK_HD constexpr Jacobian dbl() const {
    if (is_infinity()) return *this;
    F a = X.sqr(), b = Y.sqr(), c = b.sqr();
    F d = ((X + b).sqr() - a - c).dbl();
    F e = a.dbl() + a, f = e.sqr();
    F x3 = f - d.dbl();
    F c8 = c.dbl().dbl().dbl();
    return {x3, e * (d - x3) - c8, (Y * Z).dbl()};
  }
  // add-2007-bl
  CUZK_HD constexpr Jacobian operator+(const Jacobian& q) const {
    if (is_infinity()) return q;
    if (q.is_infinity()) return *this;
    F z1z1 = Z.sqr(), z2z2 = q.Z.sqr();
    F u1 = X * z2z2, u2 = q.X * z1z1;
    F s1 = Y * q.Z * z2z2, s2 = q.Y * Z * z1z1;
    F h = u2 - u1, r = (s2 - s1).dbl();
    if (h.is_zero()) return r.is_zero() ? dbl() : infinity();
    F i = h.dbl().sqr(), j = h * i, v = u1 * i;
    F x3 = r.sqr() - j - v.dbl();
    F y3 = r * (v - x3) - (s1 * j).dbl();
    F z3 = ((Z + q.Z).sqr() - z1z1 - z2z2) * h;
    return {x3, y3, z3};
  }
  // madd-2007-bl: this + affine q
  CUZK_HD constexpr Jacobian add_affine(const A& q) const {
    if (q.is_infinity()) return *this;
    if (is_infinity()) return from_affine(q);
    F z1z1 = Z.sqr();
    F u2 = q.x * z1z1, s2 = q.y * Z * z1z1;
    F h = u2 - X, r = (s2 - Y).dbl();
    if (h.is_zero()) return r.is_zero() ? dbl() : infinity();
    F hh = h.sqr(), i = hh.dbl().dbl(), j = h * i, v = X * i;
    F x3 = r.sqr() - j - v.dbl();
    F y3 = r * (v - x3) - (Y * j).dbl();
    F z3 = (Z + h).sqr() - z1z1 - hh;
    return {x3, y3, z3};
  }
  CUZK_HD constexpr Jacobian& operator+=(const Jacobian& q) { return *this = *this + q; }
  CUZK_HD constexpr Jacobian operator-(const Jacobian& q) const { return *this + (-q); }
};

template <class C>
struct XYZZ {
  using F = typename C::F;
  using A = Affine<C>;
  F X, Y, ZZ, ZZZ;

  CUZK_HD static constexpr XYZZ infinity() { return {F::one(), F::one(), F::zero(), F::zero()}; }
  CUZK_HD constexpr bool is_infinity() const { return ZZ.is_zero(); }
  CUZK_HD static constexpr XYZZ from_affine(const A& p) {
    return p.is_infinity() ? infinity() : XYZZ{p.x, p.y, F::one(), F::one()};
  }
  CUZK_HD constexpr XYZZ operator-() const { return {X, -Y, ZZ, ZZZ}; }

  // Inversion-free map to Jacobian: with Z = ZZ·ZZZ, X_J = x·Z² = X·ZZ·ZZZ² and Y_J = y·Z³ = Y·ZZ³·ZZZ².
  CUZK_HD constexpr Jacobian<C> to_jacobian() const {
    if (is_infinity()) return Jacobian<C>::infinity();
    F zzz2 = ZZZ.sqr();
    return {X * ZZ * zzz2, Y * ZZ.sqr() * ZZ * zzz2, ZZ * ZZZ};
  }
  A to_affine() const {
    if (is_infinity()) return A::infinity();
    F zzzi = ZZZ.inverse();
    F zzi = (ZZ * zzzi).sqr();  // ZZ²/ZZZ² = 1/ZZ because ZZ³ = ZZZ²
    return {X * zzi, Y * zzzi};
  }

  // dbl-2008-s-1
  CUZK_HD constexpr XYZZ dbl() const {
    if (is_infinity()) return *this;
    F u = Y.dbl(), v = u.sqr(), w = u * v, s = X * v;
    F x2 = X.sqr(), m = x2.dbl() + x2;
    F x3 = m.sqr() - s.dbl();
    return {x3, m * (s - x3) - w * Y, v * ZZ, w * ZZZ};
  }
  // mdbl-2008-s-1: 2·q for affine q
  CUZK_HD static constexpr XYZZ dbl_affine(const A& q) {
    if (q.is_infinity()) return infinity();
    F u = q.y.dbl(), v = u.sqr(), w = u * v, s = q.x * v;
    F x2 = q.x.sqr(), m = x2.dbl() + x2;
    F x3 = m.sqr() - s.dbl();
    return {x3, m * (s - x3) - w * q.y, v, w};
  }
  // madd-2008-s: this + affine q
  CUZK_HD constexpr XYZZ add_affine(const A& q) const {
    if (q.is_infinity()) return *this;
    if (is_infinity()) return from_affine(q);
    F p = q.x * ZZ - X, r = q.y * ZZZ - Y;
    if (p.is_zero()) return r.is_zero() ? dbl_affine(q) : infinity();
    F pp = p.sqr(), ppp = p * pp, qq = X * pp;
    F x3 = r.sqr() - ppp - qq.dbl();
    return {x3, r * (qq - x3) - Y * ppp, ZZ * pp, ZZZ * ppp};
  }
  // add-2008-s
  CUZK_HD constexpr XYZZ operator+(const XYZZ& q) const {
    if (is_infinity()) return q;
    if (q.is_infinity()) return *this;
    F u1 = X * q.ZZ, u2 = q.X * ZZ, s1 = Y * q.ZZZ, s2 = q.Y * ZZZ;
    F p = u2 - u1, r = s2 - s1;
    if (p.is_zero()) return r.is_zero() ? dbl() : infinity();
    F pp = p.sqr(), ppp = p * pp, qq = u1 * pp;
    F x3 = r.sqr() - ppp - qq.dbl();
    return {x3, r * (qq - x3) - s1 * ppp, ZZ * q.ZZ * pp, ZZZ * q.ZZZ * ppp};
  }
  CUZK_HD constexpr XYZZ& operator+=(const XYZZ& q) { return *this = *this + q; }
};

}  // namespace cuzk::ec
