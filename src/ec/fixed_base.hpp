// Fixed-base scalar multiplication: many scalars times one base point (trusted setup, tests).
// A table of d·2^(8i)·G (8-bit windows) turns each product into ≤ 32 mixed additions.
#pragma once

#include <tbb/parallel_for.h>

#include <vector>

#include "ec/batch_normalize.hpp"
#include "ec/point.hpp"

namespace cuzk::ec {

template <class C>
class FixedBaseTable {
 public:
  static constexpr std::size_t kWindow = 8;

  explicit FixedBaseTable(const Affine<C>& base, std::size_t scalar_bits = C::Scalar::bits())
      : windows_((scalar_bits + kWindow - 1) / kWindow) {
    constexpr std::size_t per = (std::size_t(1) << kWindow) - 1;
    std::vector<Jacobian<C>> jac(windows_ * per);
    Jacobian<C> g = Jacobian<C>::from_affine(base);
    for (std::size_t w = 0; w < windows_; ++w) {
      Jacobian<C> acc = g;
      for (std::size_t d = 0; d < per; ++d) {
        jac[w * per + d] = acc;
        acc += g;
      }
      g = acc;  // 2^8·g
    }
    table_ = batch_to_affine(jac);
  }

  // k·G for k given as plain limbs.
  template <std::size_t N>
  Jacobian<C> mul(const ff::BigInt<N>& k) const {
    constexpr std::size_t per = (std::size_t(1) << kWindow) - 1;
    XYZZ<C> acc = XYZZ<C>::infinity();
    for (std::size_t w = 0; w < windows_ && w * kWindow < N * 64; ++w) {
      std::size_t d = (k.v[(w * kWindow) / 64] >> ((w * kWindow) % 64)) & per;
      if (d) acc = acc.add_affine(table_[w * per + d - 1]);
    }
    return acc.to_jacobian();
  }

  std::size_t windows() const { return windows_; }
  // d·2^(8w)·G at [w·255 + d − 1].
  const std::vector<Affine<C>>& table() const { return table_; }

  // out[i] = scalars[i]·G (scalars as field elements), affine.
  template <class Fr>
  std::vector<Affine<C>> mul_all(const std::vector<Fr>& scalars) const {
    std::vector<Jacobian<C>> jac(scalars.size());
    tbb::parallel_for(std::size_t(0), scalars.size(),
                      [&](std::size_t i) { jac[i] = mul(scalars[i].to_int()); });
    return batch_to_affine(jac);
  }

 private:
  std::size_t windows_;
  std::vector<Affine<C>> table_;
};

}  // namespace cuzk::ec
