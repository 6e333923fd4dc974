// A key's device copy in the plan that fits, for both kinds of ResidentKey (snarkjs and bellperson): the
// plan forced on it, or the largest that fits in what this process may still take on the device, stepping
// down when an upload runs out of memory anyway (the estimate may be off: CUB's work space, fragmentation).
//
// With a memory keeper (cuda/kept_array.hpp), the points the keeper already holds of this key (`keep_as`)
// are on the device outside what is free, and count as room of ours: a replacement worker process must
// choose the resident plan its predecessor had, or it would upload the key again beside the kept copy.
// Arrays kept under `keep_as` are dropped when an attempt fails or the plan chosen does not hold the points
// on the device: kept memory nobody maps would only squeeze every later plan. Used from .cu files only.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "cuda/error.hpp"
#include "cuda/kept_array.hpp"
#include "cuda/vram.hpp"
#include "groth16/gpu_plan.hpp"

namespace cuzk::groth16::gpu {

// make(plan) builds the key's Impl (with a member `plan`) or throws cuda::CudaError.
template <class Impl, class Make>
std::unique_ptr<Impl> make_in_plan(const Footprint& f, std::optional<Plan> forced, const std::string& keep_as,
                                   Make&& make) {
  const bool keeping = !keep_as.empty() && cuda::keeping_arrays();
  const std::string prefix = keep_as + "/";
  std::unique_ptr<Impl> impl;
  const auto attempt = [&](Plan p) {
    try {
      impl = make(p);
    } catch (const cuda::CudaError&) {
      if (keeping) cuda::drop_kept(prefix);
      throw;
    }
  };
  if (forced) {
    attempt(*forced);
  } else {
    const std::size_t kept = keeping ? cuda::kept_bytes(prefix) : 0;
    for (std::optional<Plan> p = choose_plan(f, cuda::vram_available() + kept); p && !impl; p = smaller(*p)) {
      try {
        attempt(*p);
      } catch (const cuda::CudaError& e) {
        if (e.kind() != cuda::CudaError::Kind::out_of_memory || !smaller(*p)) throw;
      }
    }
  }
  if (keeping && impl->plan != Plan::kResident) cuda::drop_kept(prefix);
  return impl;
}

}  // namespace cuzk::groth16::gpu
