// Device memory for bellperson (.params) proofs on the GPU. Synthesis hands over a, b and c, so these keys
// have no coefficient rows: the plans are resident (the five point vectors on the device, shared by every
// proof) and streamed (the points stay in page-locked host memory and every MSM streams them slice by
// slice); lean needs what streamed needs. Host-only, unit-tested without a GPU.
#pragma once

#include "groth16/gpu_plan.hpp"
#include "io/bellperson.hpp"

namespace cuzk::groth16::bellperson {

// From the vectors' lengths (Params::lengths), so a verifying-only read sizes a key too.
gpu::Footprint gpu_footprint(const io::bellperson::Params& params);

}  // namespace cuzk::groth16::bellperson
