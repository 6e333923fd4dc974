// GPU MSM instantiations for Bn254 G1 and G2.
#include "ec/bn254.hpp"
#include "msm/gpu_impl.cuh"

namespace cuzk::msm::gpu {

#define CUZK_MSM_INSTANTIATE(Cfg)                                                                         \
  template ec::Jacobian<Cfg> pippenger<Cfg, 4>(const ec::Affine<Cfg>*, const ff::BigInt<4>*, std::size_t, \
                                               cudaStream_t, const std::uint32_t*, Options);              \
  template ec::Jacobian<Cfg> batch_add<Cfg>(const ec::Affine<Cfg>*, std::size_t, cudaStream_t,            \
                                            const std::uint32_t*);
CUZK_MSM_INSTANTIATE(Bn254::G1Cfg)
CUZK_MSM_INSTANTIATE(Bn254::G2Cfg)

}  // namespace cuzk::msm::gpu
