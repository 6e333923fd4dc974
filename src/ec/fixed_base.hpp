// Fixed-base scalar multiplication: many scalars times one base point (trusted setup, tests).
// A table of d·2^(8i)·G (8-bit windows) turns each product into ≤ 32 mixed additions.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/point.hpp"

namespace cuzk::ec {

template <class C>
class FixedBaseTable {
 public:
  static constexpr std::size_t kWindow = 8;

  explicit FixedBaseTable(const Affine<C>& base, std::size_t scalar_bits = C::Scalar::bits())
      : windows_((scalar_bits + kWindow - 1) / kWindow) {
    std::vector<Jacobian<C>> jac(windows_ * kPerWindow);
    Jacobian<C> g = Jacobian<C>::from_affine(base);
    for (std::size_t w = 0; w < windows_; ++w) {
      Jacobian<C> acc = g;
      for (std::size_t d = 0; d < kPerWindow; ++d) {
        jac[w * kPerWindow + d] = acc;
        acc += g;
      }
      g = acc;  // 2^8·g
    }
    table_ = batch_to_affine(jac);
  }

  // k·G for k given as plain limbs.
  template <std::size_t N>
  Jacobian<C> mul(const ff::BigInt<N>& k) const {
    XYZZ<C> acc = XYZZ<C>::infinity();
    for (std::size_t w = 0; w < windows_for<N>(); ++w)
      if (const std::size_t d = digit(k, w)) acc = acc.add_affine(table_[w * kPerWindow + d - 1]);
    return acc.to_jacobian();
  }

  std::size_t windows() const { return windows_; }
  // d·2^(8w)·G at [w·255 + d − 1].
  const std::vector<Affine<C>>& table() const { return table_; }

  // out[i] = scalars[i]·G (scalars as field elements), affine. Blocks of scalars step through the windows
  // together, so that each window's additions share one inversion (ec/batch_affine.hpp: ~1.8x fewer
  // multiplications than mul()'s XYZZ additions).
  template <class Fr>
  std::vector<Affine<C>> mul_all(const std::vector<Fr>& scalars) const {
    constexpr std::size_t kLanes = 1024;
    std::vector<Affine<C>> out(scalars.size(), Affine<C>::infinity());
    tbb::parallel_for(std::size_t(0), (scalars.size() + kLanes - 1) / kLanes, [&](std::size_t b) {
      const std::size_t begin = b * kLanes, end = std::min(scalars.size(), begin + kLanes);
      using Int = decltype(scalars[0].to_int());
      std::vector<Int> k(end - begin);
      for (std::size_t i = begin; i < end; ++i) k[i - begin] = scalars[i].to_int();
      BatchAffineAdder<C> adder(end - begin);
      for (std::size_t w = 0; w < windows_for<Int::limbs>(); ++w) {
        for (std::size_t i = begin; i < end; ++i)
          if (const std::size_t d = digit(k[i - begin], w))
            adder.add(&out[i], table_[w * kPerWindow + d - 1]);
        adder.flush();
      }
    });
    return out;
  }

 private:
  static constexpr std::size_t kPerWindow = (std::size_t(1) << kWindow) - 1;

  // The windows a scalar of N limbs reaches, and its w-th 8-bit digit.
  template <std::size_t N>
  std::size_t windows_for() const {
    return std::min(windows_, (N * 64 + kWindow - 1) / kWindow);
  }
  template <std::size_t N>
  static std::size_t digit(const ff::BigInt<N>& k, std::size_t w) {
    return (k.v[(w * kWindow) / 64] >> ((w * kWindow) % 64)) & kPerWindow;
  }

  std::size_t windows_;
  std::vector<Affine<C>> table_;
};

}  // namespace cuzk::ec
