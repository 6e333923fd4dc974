// Radix-2 NTT on the CPU (oneTBB): forward, inverse and coset transforms, natural order in and out.
// Iterative Cooley-Tukey after a bit-reversal permutation; each stage's butterflies run in parallel.
#pragma once

#include <tbb/parallel_for.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "poly/domain.hpp"

namespace cuzk::ntt {

namespace detail {

inline std::size_t bit_reverse(std::size_t x, std::size_t bits) {
  std::size_t r = 0;
  for (std::size_t i = 0; i < bits; ++i, x >>= 1) r = (r << 1) | (x & 1);
  return r;
}

template <class F>
void bit_reverse_permute(F* a, std::size_t log_n) {
  const std::size_t n = std::size_t(1) << log_n;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      std::size_t j = bit_reverse(i, log_n);
      if (i < j) std::swap(a[i], a[j]);
    }
  });
}

// powers[i] = base^i for i < count, computed in parallel blocks.
template <class F>
std::vector<F> powers(const F& base, std::size_t count) {
  std::vector<F> out(count);
  constexpr std::size_t block = 1024;
  tbb::parallel_for(std::size_t(0), (count + block - 1) / block, [&](std::size_t b) {
    std::size_t begin = b * block, end = std::min(count, begin + block);
    F x = base.pow(ff::bigint_from_u64<1>(begin));
    for (std::size_t i = begin; i < end; ++i, x *= base) out[i] = x;
  });
  return out;
}

// In-place transform with root `omega` of order n = 2^log_n.
template <class F>
void transform(F* a, std::size_t log_n, const F& omega) {
  const std::size_t n = std::size_t(1) << log_n;
  if (n <= 1) return;
  bit_reverse_permute(a, log_n);
  const std::vector<F> tw = powers(omega, n / 2);  // ω^0 … ω^(n/2-1)
  for (std::size_t s = 1; s <= log_n; ++s) {
    const std::size_t half = std::size_t(1) << (s - 1);
    const std::size_t stride = n >> s;  // twiddle step for this stage
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n / 2, 2048), [&](const auto& range) {
      for (std::size_t t = range.begin(); t != range.end(); ++t) {
        std::size_t group = t / half, k = t % half;
        std::size_t i = group * 2 * half + k, j = i + half;
        F v = a[j] * tw[k * stride];
        a[j] = a[i] - v;
        a[i] = a[i] + v;
      }
    });
  }
}

}  // namespace detail

// Evaluations at ω^0 … ω^(n-1) of the polynomial with coefficients a.
template <class F>
void forward(F* a, const poly::Domain<F>& d) {
  detail::transform(a, d.log_n, d.omega);
}

// Coefficients of the polynomial with evaluations a at ω^i.
template <class F>
void inverse(F* a, const poly::Domain<F>& d) {
  detail::transform(a, d.log_n, d.omega_inv);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, d.n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) a[i] *= d.n_inv;
  });
}

// Evaluations at shift·ω^i of the polynomial with coefficients a.
template <class F>
void coset_forward(F* a, const poly::Domain<F>& d, const F& shift) {
  const std::vector<F> pw = detail::powers(shift, d.n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, d.n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) a[i] *= pw[i];
  });
  forward(a, d);
}

// Coefficients of the polynomial with evaluations a at shift·ω^i.
template <class F>
void coset_inverse(F* a, const poly::Domain<F>& d, const F& shift) {
  inverse(a, d);
  const std::vector<F> pw = detail::powers(shift.inverse(), d.n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, d.n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) a[i] *= pw[i];
  });
}

}  // namespace cuzk::ntt
