// Many projective points to affine with one field inversion (Montgomery's trick), in parallel blocks.
#pragma once

#include <tbb/parallel_for.h>

#include <vector>

#include "ec/point.hpp"
#include "ff/batch_inverse.hpp"

namespace cuzk::ec {

template <class C>
void batch_to_affine(const Jacobian<C>* in, Affine<C>* out, std::size_t n) {
  using F = typename C::F;
  constexpr std::size_t block = 4096;
  tbb::parallel_for(std::size_t(0), (n + block - 1) / block, [&](std::size_t b) {
    std::size_t begin = b * block, end = std::min(n, begin + block);
    std::vector<F> zinv(end - begin);
    for (std::size_t i = begin; i < end; ++i) zinv[i - begin] = in[i].Z;
    ff::batch_inverse(zinv.data(), zinv.size());
    for (std::size_t i = begin; i < end; ++i) {
      if (in[i].is_infinity()) {
        out[i] = Affine<C>::infinity();
        continue;
      }
      F zi = zinv[i - begin], zi2 = zi.sqr();
      out[i] = {in[i].X * zi2, in[i].Y * zi2 * zi};
    }
  });
}

template <class C>
std::vector<Affine<C>> batch_to_affine(const std::vector<Jacobian<C>>& in) {
  std::vector<Affine<C>> out(in.size());
  batch_to_affine(in.data(), out.data(), in.size());
  return out;
}

}  // namespace cuzk::ec
