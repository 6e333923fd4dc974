// Variable-base scalar multiplication and the prime-order subgroup check (not constant time: cuzk
// only multiplies public data or test values; secrets r, s enter via MSM-free additions).
#pragma once

#include "ec/point.hpp"

namespace cuzk::ec {

// k·P for a scalar given as plain (non-Montgomery) limbs, left-to-right double-and-add.
template <class C, std::size_t M>
Jacobian<C> scalar_mul(const Affine<C>& p, const BigInt<M>& k) {
  Jacobian<C> acc = Jacobian<C>::infinity();
  for (std::size_t i = k.num_bits(); i-- > 0;) {
    acc = acc.dbl();
    if (k.bit(i)) acc = acc.add_affine(p);
  }
  return acc;
}
template <class C, std::size_t M>
Jacobian<C> scalar_mul(const Jacobian<C>& p, const BigInt<M>& k) {
  Jacobian<C> acc = Jacobian<C>::infinity();
  for (std::size_t i = k.num_bits(); i-- > 0;) {
    acc = acc.dbl();
    if (k.bit(i)) acc = acc + p;
  }
  return acc;
}

// P lies in the subgroup of order r (the scalar field's modulus) iff r·P = O.
template <class C>
bool in_prime_subgroup(const Affine<C>& p) {
  if (p.is_infinity()) return true;
  return scalar_mul(p, C::Scalar::modulus()).is_infinity();
}

}  // namespace cuzk::ec
