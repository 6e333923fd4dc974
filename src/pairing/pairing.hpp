// Optimal ate pairing for BN254 and BLS12-381 (CPU): Miller loop in affine twist coordinates, lines
// evaluated into Fq12 through the twist isomorphism, final exponentiation f^((p¹²-1)/r).
//
// The verifier needs a product of pairings, so the loop runs over several (P, Q) pairs at once and
// shares the squarings of f; a single final exponentiation follows.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "pairing/params.hpp"

namespace cuzk::pairing {

template <class Curve>
using G1 = typename Curve::G1;
template <class Curve>
using G2 = typename Curve::G2;
template <class Curve>
using GT = typename Curve::Fq12;

namespace detail {

// The line with slope λ through T (affine on the twist), evaluated at P, as an Fq12 element. Factors
// lying in proper subfields are dropped: the final exponentiation sends them to 1.
template <class Curve>
GT<Curve> line_value(const typename Curve::Fq2& lambda, const G2<Curve>& t, const G1<Curve>& p) {
  using F2 = typename Curve::Fq2;
  using F6 = typename GT<Curve>::F6;
  const F2 zero = F2::zero();
  const F2 c = lambda * t.x - t.y;  // λ·x_T - y_T
  const F2 lx = -(lambda * p.x);    // -λ·x_P
  const F2 yp{p.y, Curve::Fq::zero()};
  if constexpr (Params<Curve>::twist == Twist::D) {
    // l = y_P - λ x_P·w + (λ x_T - y_T)·w³, with w³ = v·w.
    return {F6{yp, zero, zero}, F6{lx, c, zero}};
  } else {
    // w³·l = (λ x_T - y_T) - λ x_P·w² + y_P·w³, with w² = v.
    return {F6{c, lx, zero}, F6{zero, yp, zero}};
  }
}

// T ← 2T, returns the tangent line at T evaluated at P.
template <class Curve>
GT<Curve> double_step(G2<Curve>& t, const G1<Curve>& p) {
  using F2 = typename Curve::Fq2;
  F2 x2 = t.x.sqr();
  F2 lambda = (x2.dbl() + x2) * t.y.dbl().inverse();
  GT<Curve> l = line_value<Curve>(lambda, t, p);
  F2 x3 = lambda.sqr() - t.x.dbl();
  t = {x3, lambda * (t.x - x3) - t.y};
  return l;
}

// T ← T + Q, returns the line through T and Q evaluated at P (1 when the line is vertical, since a
// vertical line's value lies in a subfield).
template <class Curve>
GT<Curve> add_step(G2<Curve>& t, const G2<Curve>& q, const G1<Curve>& p) {
  using F2 = typename Curve::Fq2;
  if (t.x == q.x) {
    if (t.y == q.y) return double_step<Curve>(t, p);
    t = G2<Curve>::infinity();
    return GT<Curve>::one();
  }
  F2 lambda = (q.y - t.y) * (q.x - t.x).inverse();
  GT<Curve> l = line_value<Curve>(lambda, t, p);
  F2 x3 = lambda.sqr() - t.x - q.x;
  t = {x3, lambda * (t.x - x3) - t.y};
  return l;
}

}  // namespace detail

// Product of Miller loops f_{loop,Q_i}(P_i) (with the curve's correction steps), pairs with a point at
// infinity skipped (their pairing is 1).
template <class Curve>
GT<Curve> miller_loop(std::span<const std::pair<G1<Curve>, G2<Curve>>> pairs) {
  using P = Params<Curve>;
  std::vector<G1<Curve>> ps;
  std::vector<G2<Curve>> qs, ts;
  for (const auto& [p, q] : pairs) {
    if (p.is_infinity() || q.is_infinity()) continue;
    ps.push_back(p);
    qs.push_back(q);
  }
  ts = qs;
  GT<Curve> f = GT<Curve>::one();
  constexpr auto loop = P::loop_count();
  for (std::size_t bit = loop.num_bits() - 1; bit-- > 0;) {
    f = f.sqr();
    for (std::size_t i = 0; i < ps.size(); ++i) f *= detail::double_step<Curve>(ts[i], ps[i]);
    if (loop.bit(bit))
      for (std::size_t i = 0; i < ps.size(); ++i) f *= detail::add_step<Curve>(ts[i], qs[i], ps[i]);
  }
  if constexpr (P::loop_negative) f = f.conjugate();
  if constexpr (P::frobenius_correction) {
    // BN: f·l_{T,π(Q)}(P)·l_{T+π(Q),-π²(Q)}(P)
    for (std::size_t i = 0; i < ps.size(); ++i) {
      G2<Curve> q1 = P::twist_frobenius(qs[i]);
      G2<Curve> q2 = -P::twist_frobenius(q1);
      f *= detail::add_step<Curve>(ts[i], q1, ps[i]);
      f *= detail::add_step<Curve>(ts[i], q2, ps[i]);
    }
  }
  return f;
}

// f^((p¹²-1)/r) = (f^(p⁶-1))^((p⁶+1)/r); f^(p⁶) is the conjugate.
template <class Curve>
GT<Curve> final_exponentiation(const GT<Curve>& f) {
  GT<Curve> g = f.conjugate() * f.inverse();
  return g.pow(Params<Curve>::final_exponent());
}

template <class Curve>
GT<Curve> pairing(const G1<Curve>& p, const G2<Curve>& q) {
  std::pair<G1<Curve>, G2<Curve>> one[1] = {{p, q}};
  return final_exponentiation<Curve>(miller_loop<Curve>(one));
}

// ∏ e(P_i, Q_i) == 1
template <class Curve>
bool pairing_product_is_one(std::span<const std::pair<G1<Curve>, G2<Curve>>> pairs) {
  return final_exponentiation<Curve>(miller_loop<Curve>(pairs)).is_one();
}

}  // namespace cuzk::pairing
