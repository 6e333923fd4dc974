// GPU MSM instantiations for Bls12_381 G1 and G2.
#include "ec/bls12_381.hpp"
#include "msm/gpu_impl.cuh"

namespace cuzk::msm::gpu {

#define CUZK_MSM_INSTANTIATE(Cfg)                                                                         \
  template ec::Jacobian<Cfg> pippenger<Cfg, 4>(const ec::Affine<Cfg>*, const ff::BigInt<4>*, std::size_t, \
                                               cudaStream_t, const std::uint32_t*, Options);              \
  template ec::Jacobian<Cfg> batch_add<Cfg>(const ec::Affine<Cfg>*, std::size_t, cudaStream_t,            \
                                            const std::uint32_t*);
CUZK_MSM_INSTANTIATE(Bls12_381::G1Cfg)
CUZK_MSM_INSTANTIATE(Bls12_381::G2Cfg)

}  // namespace cuzk::msm::gpu
