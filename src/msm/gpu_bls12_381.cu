// GPU MSM instantiations for Bls12_381 G1 and G2.
#include "ec/bls12_381.hpp"
#include "msm/gpu_impl.cuh"

namespace cuzk::msm::gpu {

CUZK_MSM_INSTANTIATE(Bls12_381::G1Cfg)
CUZK_MSM_INSTANTIATE(Bls12_381::G2Cfg)

}  // namespace cuzk::msm::gpu
