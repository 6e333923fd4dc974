// Device memory for bellperson (.params) proofs on the GPU. Synthesis hands over a, b and c, so these keys
// have no coefficient rows: the plans are resident (the five point vectors on the device, shared by every
// proof), streamed (the points stay in page-locked host memory and every MSM streams them slice by slice)
// and lean (streamed, with compact NTT tables and the queries' scalars gathered in chunks: the plan of 11 and
// 12 GiB cards at 32 GiB PoRep). Host-only, unit-tested without a GPU.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string_view>

#include "groth16/gpu_plan.hpp"
#include "io/bellperson.hpp"

namespace cuzk::groth16::bellperson {

// Values of [inputs, aux] per query chunk in the lean plan (their gathered scalars: 1 GiB).
inline constexpr std::size_t kLeanQueryChunk = std::size_t(1) << 25;

// From the vectors' lengths (Params::lengths), so a verifying-only read sizes a key too.
groth16::gpu::Footprint gpu_footprint(const io::bellperson::Params& params);

// How a streamed proof with room to spare runs its H MSM beside the witness-side MSMs (gpu_bellperson.cu):
// the H MSM's share of the room, and the values of [inputs, aux] per query chunk on the witness side (whole
// queries by default).
struct StreamedOverlap {
  double h_share = 0.5;
  std::size_t query_chunk = std::numeric_limits<std::size_t>::max();
};

// A CUZK_STREAMED_OVERLAP setting: "off" or empty (none: one after the other), or SHARE[:LOG2_CHUNK] with
// SHARE in (0, 1) and LOG2_CHUNK in [10, 40]. Throws Error naming the setting for anything else.
std::optional<StreamedOverlap> parse_streamed_overlap(std::string_view setting);

// The setting in the environment; unset: off, until a 32 GiB PoRep under a 24 GiB limit has measured it on
// a GPU (issue 31).
std::optional<StreamedOverlap> streamed_overlap_from_env();

}  // namespace cuzk::groth16::bellperson
