// Device memory for bellperson (.params) proofs on the GPU. Synthesis hands over a, b and c, so these keys
// have no coefficient rows: the plans are resident (the five point vectors on the device, shared by every
// proof), streamed (the points stay in page-locked host memory and every MSM streams them slice by slice)
// and lean (streamed, with compact NTT tables and the queries' scalars gathered in chunks: the plan of 11 and
// 12 GiB cards at 32 GiB PoRep). Host-only, unit-tested without a GPU.
#pragma once

#include <cstddef>

#include "groth16/gpu_plan.hpp"
#include "io/bellperson.hpp"

namespace cuzk::groth16::bellperson {

// Values of [inputs, aux] per query chunk in the lean plan (their gathered scalars: 1 GiB).
inline constexpr std::size_t kLeanQueryChunk = std::size_t(1) << 25;

// From the vectors' lengths (Params::lengths), so a verifying-only read sizes a key too.
groth16::gpu::Footprint gpu_footprint(const io::bellperson::Params& params);

}  // namespace cuzk::groth16::bellperson
