// Compiled for every architecture of the portable default (CMake option CUZK_CUDA_ARCH_CHECK, which CI
// turns on; docs/gpu.md "Architectures"), never run: the field arithmetic of every curve in the form each
// architecture selects (ff/mont_fp64.hpp: FP64 for sm_90 and sm_100, integer elsewhere, inline PTX on
// all), so that a change that breaks one architecture's form fails CI, not an operator's first start.
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ff/mont_fp64.hpp"

namespace cuzk {

template <class F>
__global__ void arch_check_arith(const F* a, const F* b, F* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  out[i] = a[i] * b[i] + a[i].sqr() - b[i];
}

template __global__ void arch_check_arith<Bn254::Fq>(const Bn254::Fq*, const Bn254::Fq*, Bn254::Fq*,
                                                     std::size_t);
template __global__ void arch_check_arith<Bn254::Fr>(const Bn254::Fr*, const Bn254::Fr*, Bn254::Fr*,
                                                     std::size_t);
template __global__ void arch_check_arith<Bls12_381::Fq>(const Bls12_381::Fq*, const Bls12_381::Fq*,
                                                         Bls12_381::Fq*, std::size_t);
template __global__ void arch_check_arith<Bls12_381::Fr>(const Bls12_381::Fr*, const Bls12_381::Fr*,
                                                         Bls12_381::Fr*, std::size_t);
template __global__ void arch_check_arith<Bls12_381::Fq2>(const Bls12_381::Fq2*, const Bls12_381::Fq2*,
                                                          Bls12_381::Fq2*, std::size_t);

}  // namespace cuzk
