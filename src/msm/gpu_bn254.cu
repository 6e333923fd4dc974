// GPU MSM instantiations for Bn254 G1 and G2.
#include "ec/bn254.hpp"
#include "msm/gpu_impl.cuh"

namespace cuzk::msm::gpu {

CUZK_MSM_INSTANTIATE(Bn254::G1Cfg)
CUZK_MSM_INSTANTIATE(Bn254::G2Cfg)

}  // namespace cuzk::msm::gpu
