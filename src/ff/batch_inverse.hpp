// Montgomery's trick: n inversions for the price of one inversion and 3(n-1) multiplications.
#pragma once

#include <cstddef>
#include <vector>

namespace cuzk::ff {

// Replaces every non-zero element of xs[0..n) with its inverse; zeros stay zero.
template <class F>
void batch_inverse(F* xs, std::size_t n) {
  std::vector<F> prefix(n);
  F acc = F::one();
  for (std::size_t i = 0; i < n; ++i) {
    prefix[i] = acc;
    if (!xs[i].is_zero()) acc *= xs[i];
  }
  F inv = acc.inverse();
  for (std::size_t i = n; i-- > 0;) {
    if (xs[i].is_zero()) continue;
    F x = xs[i];
    xs[i] = inv * prefix[i];
    inv *= x;
  }
}

}  // namespace cuzk::ff
