// Fixed-base scalar multiplication: many scalars times one base point (trusted setup, tests).
// A table of d·2^(c·i)·G (c-bit windows) turns each product into ≤ ⌈bits / c⌉ mixed additions.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/point.hpp"

namespace cuzk::ec {

template <class C>
class FixedBaseTable {
 public:
  // `window_bits` c: each product takes ⌈bits / c⌉ additions from a table of ⌈bits / c⌉·(2^c − 1) points.
  // 8 (the default; 255 points a window: what the GPU's kernel reads) keeps the table small and quick to
  // make (a BLS12-381 G2 table is 6 MB); large CPU setups take 16 (setup_window below: 100 and 200 MB).
  explicit FixedBaseTable(const Affine<C>& base, std::size_t scalar_bits = C::Scalar::bits(),
                          std::size_t window_bits = 8)
      : window_(checked_window(window_bits)),
        per_window_((std::size_t(1) << window_) - 1),
        windows_((scalar_bits + window_ - 1) / window_) {
    std::vector<Jacobian<C>> bases(windows_);  // 2^(c·w)·G
    Jacobian<C> g = Jacobian<C>::from_affine(base);
    for (std::size_t w = 0; w < windows_; ++w) {
      bases[w] = g;
      for (std::size_t i = 0; i < window_; ++i) g = g.dbl();
    }
    const std::vector<Affine<C>> affine_bases = batch_to_affine(bases);
    table_.resize(windows_ * per_window_);
    // Each window's multiples d·base (d = 1 … 2^c − 1) by mixed additions, the windows in parallel.
    tbb::parallel_for(std::size_t(0), windows_, [&](std::size_t w) {
      std::vector<Jacobian<C>> jac(per_window_);
      Jacobian<C> acc = Jacobian<C>::from_affine(affine_bases[w]);
      for (std::size_t d = 0; d < per_window_; ++d) {
        jac[d] = acc;
        acc = acc.add_affine(affine_bases[w]);
      }
      batch_to_affine(jac.data(), table_.data() + w * per_window_, per_window_);
    });
  }

  // k·G for k given as plain limbs.
  template <std::size_t N>
  Jacobian<C> mul(const ff::BigInt<N>& k) const {
    XYZZ<C> acc = XYZZ<C>::infinity();
    for (std::size_t w = 0; w < windows_for<N>(); ++w)
      if (const std::size_t d = digit(k, w)) acc = acc.add_affine(table_[w * per_window_ + d - 1]);
    return acc.to_jacobian();
  }

  std::size_t windows() const { return windows_; }
  std::size_t window_bits() const { return window_; }
  // d·2^(c·w)·G at [w·(2^c − 1) + d − 1].
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
            adder.add(&out[i], table_[w * per_window_ + d - 1]);
        adder.flush();
      }
    });
    return out;
  }

 private:
  static std::size_t checked_window(std::size_t bits) {
    if (bits == 0 || bits > 20)
      throw std::invalid_argument("fixed-base window of " + std::to_string(bits) + " bits: 1 to 20");
    return bits;
  }

  // The windows a scalar of N limbs reaches, and its w-th digit (bits [c·w, c·w + c)).
  template <std::size_t N>
  std::size_t windows_for() const {
    return std::min(windows_, (N * 64 + window_ - 1) / window_);
  }
  template <std::size_t N>
  std::size_t digit(const ff::BigInt<N>& k, std::size_t w) const {
    const std::size_t bit = w * window_, limb = bit / 64, shift = bit % 64;
    std::uint64_t v = k.v[limb] >> shift;
    if (shift + window_ > 64 && limb + 1 < N) v |= k.v[limb + 1] << (64 - shift);
    return static_cast<std::size_t>(v & per_window_);
  }

  std::size_t window_, per_window_, windows_;
  std::vector<Affine<C>> table_;
};

// The window for a CPU setup of `products` fixed-base products: 16 bits halves the additions (BLS12-381 G1
// 10.5 → 5.9 µs a product, G2 38 → 25 µs on one core of the 2-core CI VM) for ~3 s of tables (G1 0.7 s, G2
// 2.4 s, against 27 ms at 8 bits), which pays from about 2^20 products: a 2 KiB PoRep key's setup ~30 s
// quicker, and the tests' many small setups unchanged.
inline std::size_t setup_window(std::size_t products) {
  return products >= (std::size_t(1) << 20) ? 16 : 8;
}

}  // namespace cuzk::ec
