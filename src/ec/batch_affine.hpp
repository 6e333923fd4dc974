// Affine point additions in batches that share one field inversion (Montgomery's trick): the host's
// cheapest way to accumulate many independent sums (MSM buckets, fixed-base products).
//
// Why: an affine sum costs one inversion, λ = (y₂ − y₁)/(x₂ − x₁), x₃ = λ² − x₁ − x₂, y₃ = λ(x₁ − x₃) − y₁.
// With the inversions of a batch shared, each sum costs 3 multiplications for its share of the batch
// inversion plus 2M + 1S of its own: 5M + 1S, against 8M + 2S for the XYZZ mixed addition (BLS12-381 G1
// on the 2-core CI machine: ~439 ns per XYZZ addition; see bench ec/g1_batch_affine_add).
//
// The sums of one batch must go to distinct destinations (each destination is read when queued and written
// at flush). The cases the formula cannot take — a destination at infinity, an addend at infinity, equal x
// coordinates (doubling, or a sum that is infinity) — are done at once, exactly, when queued.
#pragma once

#include <cstddef>
#include <vector>

#include "ec/point.hpp"

namespace cuzk::ec {

template <class C>
class BatchAffineAdder {
 public:
  using F = typename C::F;
  using A = Affine<C>;

  explicit BatchAffineAdder(std::size_t capacity) : capacity_(capacity ? capacity : 1) {
    dst_.reserve(capacity_);
    src_.reserve(capacity_);
    den_.reserve(capacity_);
    prefix_.resize(capacity_);
  }

  // *dst += q: at once for the special cases (returns false), else queued until flush() (returns true).
  // A queued destination must not be queued again, nor read or written by the caller, before flush().
  bool add(A* dst, const A& q) {
    if (q.is_infinity()) return false;
    if (dst->is_infinity()) {
      *dst = q;
      return false;
    }
    if (dst->x == q.x) {  // q = ±dst: 2·dst or infinity, which the formula cannot take
      *dst = XYZZ<C>::from_affine(*dst).add_affine(q).to_affine();
      return false;
    }
    dst_.push_back(dst);
    src_.push_back(q);
    den_.push_back(q.x - dst->x);
    return true;
  }
  bool full() const { return dst_.size() >= capacity_; }
  std::size_t queued() const { return dst_.size(); }
  A* const* destinations() const { return dst_.data(); }

  // Completes every queued sum.
  void flush() {
    const std::size_t n = dst_.size();
    if (n == 0) return;
    F acc = F::one();
    for (std::size_t i = 0; i < n; ++i) {
      prefix_[i] = acc;
      acc *= den_[i];  // non-zero: equal x coordinates never queue
    }
    F inv = acc.inverse();
    for (std::size_t i = n; i-- > 0;) {
      const F inv_i = inv * prefix_[i];
      inv *= den_[i];
      A& p = *dst_[i];
      const A& q = src_[i];
      const F lambda = (q.y - p.y) * inv_i;
      const F x3 = lambda.sqr() - p.x - q.x;
      p.y = lambda * (p.x - x3) - p.y;
      p.x = x3;
    }
    dst_.clear();
    src_.clear();
    den_.clear();
  }

 private:
  std::size_t capacity_;
  std::vector<A*> dst_;
  std::vector<A> src_;
  std::vector<F> den_, prefix_;
};

}  // namespace cuzk::ec
