// Field elements (Montgomery form) → plain integers, the form MSMs consume; parallel over the vector.
#pragma once

#include <tbb/parallel_for.h>

#include <vector>

#include "ff/bigint.hpp"

namespace cuzk::msm {

template <class Fr>
std::vector<ff::BigInt<Fr::N>> plain_scalars(const Fr* xs, std::size_t n) {
  std::vector<ff::BigInt<Fr::N>> out(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) out[i] = xs[i].to_int();
  });
  return out;
}

}  // namespace cuzk::msm
